#include "core/assistant/route_turn.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/sync/authorization.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;

Status Invalid(std::string message) {
  return Status(codes::kInvalidArgument, std::move(message));
}

// The two keys route_json.h does not know, read and removed from `request`.
struct AccessFields {
  sync::Role role = sync::Role::kOwner;
  std::optional<std::vector<std::string>> allowed_write_areas;
};

Result<AccessFields> TakeAccessFields(json& request) {
  AccessFields access;
  if (!request.is_object()) return Invalid("the request must be a JSON object");
  if (auto it = request.find("role"); it != request.end()) {
    if (!it->is_string()) return Invalid("role must be a string");
    std::optional<sync::Role> role = sync::ParseRole(it->get<std::string>());
    if (!role) return Invalid("role must be owner, editor, guest or viewer");
    access.role = *role;
    request.erase(it);
  }
  if (auto it = request.find("allowedWriteAreas"); it != request.end()) {
    if (!it->is_array() || it->size() > playbooks::kMaxRouteListItems) {
      return Invalid("allowedWriteAreas must be an array of at most " +
                     std::to_string(playbooks::kMaxRouteListItems) + " strings");
    }
    std::vector<std::string> areas;
    for (const json& area : *it) {
      if (!area.is_string()) return Invalid("allowedWriteAreas must hold strings");
      areas.push_back(area.get<std::string>());
    }
    access.allowed_write_areas = std::move(areas);
    request.erase(it);
  }
  return access;
}

}  // namespace

Result<playbooks::RouteRequest> TurnRouteRequest(const playbooks::Router& router,
                                                 const tools::ToolRegistry& registry,
                                                 json request) {
  ENSEMBLE_ASSIGN_OR_RETURN(AccessFields access, TakeAccessFields(request));
  ENSEMBLE_ASSIGN_OR_RETURN(playbooks::RouteRequest route,
                            playbooks::RouteRequestFromJson(request, router,
                                                            /*default_tools=*/false));
  if (!request.contains("allowedTools")) {
    tools::ToolFilter filter;
    filter.allowed_write_areas = std::move(access.allowed_write_areas);
    filter.enabled_modules = route.enabled_modules;
    filter.role = access.role;
    const std::vector<const tools::ToolDef*> allowed = registry.ToolsFor(filter);
    route.allowed_tools.reserve(allowed.size() + route.app_tools.size());
    for (const tools::ToolDef* def : allowed) {
      route.allowed_tools.push_back(def->name);
    }
    route.allowed_tools.insert(route.allowed_tools.end(), route.app_tools.begin(),
                               route.app_tools.end());
  }
  if (!request.contains("buildTools")) {
    route.build_tools = registry.names();
    route.build_tools.insert(route.build_tools.end(), route.app_tools.begin(),
                             route.app_tools.end());
  }
  return route;
}

Result<json> RouteTurnJson(const playbooks::Router& router, const tools::ToolRegistry& registry,
                           json request) {
  ENSEMBLE_ASSIGN_OR_RETURN(playbooks::RouteRequest route,
                            TurnRouteRequest(router, registry, std::move(request)));
  return playbooks::RouteResultToJson(router.Route(route));
}

}  // namespace ensemble::core::assistant
