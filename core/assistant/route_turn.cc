#include "core/assistant/route_turn.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/assistant/hub_tools.h"
#include "core/sync/authorization.h"
#include "core/text/json_reader.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;

// The two keys route_json.h does not know, read and removed from `request`.
struct AccessFields {
  sync::Role role = sync::Role::kOwner;
  std::optional<std::vector<std::string>> allowed_write_areas;
};

Result<AccessFields> TakeAccessFields(json& request) {
  AccessFields access;
  if (!request.is_object()) return InvalidArgument("the request must be a JSON object");
  if (auto it = request.find("role"); it != request.end()) {
    if (!it->is_string()) return InvalidArgument("role must be a string");
    std::optional<sync::Role> role = sync::ParseRole(it->get<std::string>());
    if (!role) return InvalidArgument("role must be owner, editor, guest or viewer");
    access.role = *role;
    request.erase(it);
  }
  if (auto it = request.find("allowedWriteAreas"); it != request.end()) {
    if (!it->is_array() || it->size() > playbooks::kMaxRouteListItems) {
      return InvalidArgument("allowedWriteAreas must be an array of at most " +
                             std::to_string(playbooks::kMaxRouteListItems) + " strings");
    }
    std::vector<std::string> areas;
    for (const json& area : *it) {
      if (!area.is_string()) return InvalidArgument("allowedWriteAreas must hold strings");
      areas.push_back(area.get<std::string>());
    }
    access.allowed_write_areas = std::move(areas);
    request.erase(it);
  }
  return access;
}

// A request as TurnRouter's fast reader found it: views into the text (or
// the reader's buffer). Only a request RouteTurnJson would accept is read
// whole; anything else is declined, and the json-tree way words the error.
struct TextRequest {
  bool has_message = false;
  std::string_view message;
  std::vector<std::string_view> mention_kinds;  // From mentions.
  std::vector<std::string_view> kinds;          // From mentionKinds.
  bool has_surface_path = false;
  std::string_view surface_path;
  bool has_path = false;
  std::string_view path;
  bool custom_board = false;
  std::vector<playbooks::ConnectedAppView> apps;
  bool has_allowed = false, has_build = false, has_modules = false, has_areas = false;
  std::vector<std::string_view> allowed, build, app_tools, loaded, modules, areas;
  bool toolsets_off = false;
  sync::Role role = sync::Role::kOwner;
};

using text::JsonReader;

// Reads a member's value once: a repeated key (nlohmann keeps the last) is
// declined rather than reasoned about.
class SeenKeys {
 public:
  bool First(int key) {
    const std::uint32_t bit = 1u << key;
    if (seen_ & bit) return false;
    seen_ |= bit;
    return true;
  }

 private:
  std::uint32_t seen_ = 0;
};

bool ReadList(JsonReader& reader, std::vector<std::string_view>* out) {
  return reader.ReadArray([&] {
    std::string_view item;
    if (out->size() >= playbooks::kMaxRouteListItems || !reader.ReadString(&item)) return false;
    out->push_back(item);
    return true;
  });
}

// route_json.cc's ReadCustomBoard: null, a bool, or a board id.
bool ReadCustomBoard(JsonReader& reader, bool* out) {
  if (reader.TakeNull()) return true;
  const char next = reader.Peek();
  if (next == '"') {
    std::string_view id;
    if (!reader.ReadString(&id)) return false;
    *out = *out || !id.empty();
    return true;
  }
  bool value = false;
  if (!reader.ReadBool(&value)) return false;
  *out = *out || value;
  return true;
}

bool ReadSurface(JsonReader& reader, TextRequest* request) {
  SeenKeys seen;
  return reader.ReadObject([&](std::string_view key) {
    if (key == "path") {
      request->has_surface_path = true;
      return seen.First(0) && reader.ReadString(&request->surface_path);
    }
    if (key == "customBoard")
      return seen.First(1) && ReadCustomBoard(reader, &request->custom_board);
    if (key != "surface" || !seen.First(2) || reader.Peek() != '{') return false;
    // The rest of AssistantPageContext's surface does not route: skipped.
    SeenKeys inner_seen;
    return reader.ReadObject([&](std::string_view inner) {
      if (inner != "filters") return reader.Skip();
      if (!inner_seen.First(0) || reader.Peek() != '{') return false;
      SeenKeys filter_seen;
      return reader.ReadObject([&](std::string_view filter) {
        if (filter != "customBoard") return reader.Skip();
        return filter_seen.First(0) && ReadCustomBoard(reader, &request->custom_board);
      });
    });
  });
}

bool ReadMentions(JsonReader& reader, TextRequest* request) {
  std::size_t count = 0;
  return reader.ReadArray([&] {
    if (++count > playbooks::kMaxRouteListItems) return false;
    SeenKeys seen;
    bool has_kind = false;
    std::string_view kind;
    const bool read = reader.ReadObject([&](std::string_view key) {
      if (key == "kind") {
        has_kind = true;
        return seen.First(0) && reader.ReadString(&kind);
      }
      // Not routed, so not type-checked (as route_json.cc).
      if (key == "id") return seen.First(1) && reader.Skip();
      if (key == "label") return seen.First(2) && reader.Skip();
      return false;
    });
    if (!read || !has_kind) return false;
    request->mention_kinds.push_back(kind);
    return true;
  });
}

bool ReadApps(JsonReader& reader, TextRequest* request) {
  return reader.ReadArray([&] {
    if (request->apps.size() >= playbooks::kMaxRouteListItems) return false;
    SeenKeys seen;
    playbooks::ConnectedAppView app;
    const bool read = reader.ReadObject([&](std::string_view key) {
      if (key == "catalogName") return seen.First(0) && reader.ReadString(&app.catalog_name);
      if (key == "id") return seen.First(1) && reader.ReadString(&app.id);
      if (key == "vendor") return seen.First(2) && reader.ReadString(&app.vendor);
      if (key == "meetingNotes") return seen.First(3) && reader.ReadBool(&app.meeting_notes);
      return false;
    });
    if (!read) return false;
    request->apps.push_back(app);
    return true;
  });
}

// The keys of a request, each read once.
enum RequestKey {
  kMessage,
  kMentions,
  kMentionKinds,
  kSurface,
  kPath,
  kApps,
  kAllowedTools,
  kBuildTools,
  kAppTools,
  kLoaded,
  kToolsetsOff,
  kEnabledModules,
  kRole,
  kAllowedWriteAreas,
};

bool ReadRequestMember(JsonReader& reader, std::string_view key, SeenKeys& seen, TextRequest* r) {
  const auto list = [&](RequestKey k, bool* has, std::vector<std::string_view>* out) {
    if (!seen.First(k)) return false;
    if (has != nullptr) *has = true;
    return ReadList(reader, out);
  };
  if (key == "message") {
    r->has_message = true;
    return seen.First(kMessage) && reader.ReadString(&r->message);
  }
  if (key == "mentions") return seen.First(kMentions) && ReadMentions(reader, r);
  if (key == "mentionKinds") return list(kMentionKinds, nullptr, &r->kinds);
  if (key == "surface") return seen.First(kSurface) && ReadSurface(reader, r);
  if (key == "path") {
    r->has_path = true;
    return seen.First(kPath) && reader.ReadString(&r->path);
  }
  if (key == "apps") return seen.First(kApps) && ReadApps(reader, r);
  if (key == "allowedTools") return list(kAllowedTools, &r->has_allowed, &r->allowed);
  if (key == "buildTools") return list(kBuildTools, &r->has_build, &r->build);
  if (key == "appTools") return list(kAppTools, nullptr, &r->app_tools);
  if (key == "loaded") return list(kLoaded, nullptr, &r->loaded);
  if (key == "enabledModules") return list(kEnabledModules, &r->has_modules, &r->modules);
  if (key == "toolsetsOff") return seen.First(kToolsetsOff) && reader.ReadBool(&r->toolsets_off);
  if (key == "allowedWriteAreas") return list(kAllowedWriteAreas, &r->has_areas, &r->areas);
  if (key == "role") {
    std::string_view name;
    if (!seen.First(kRole) || !reader.ReadString(&name)) return false;
    std::optional<sync::Role> role = sync::ParseRole(name);
    if (!role) return false;
    r->role = *role;
    return true;
  }
  return false;
}

bool ReadTextRequest(JsonReader& reader, TextRequest* request) {
  SeenKeys seen;
  if (reader.Peek() != '{') return false;
  if (!reader.ReadObject(
          [&](std::string_view key) { return ReadRequestMember(reader, key, seen, request); })) {
    return false;
  }
  return reader.AtEnd() && request->has_message &&
         request->message.size() <= playbooks::kMaxRouteMessageBytes;
}

bool ContainsView(const std::vector<std::string_view>& list, std::string_view s) {
  for (std::string_view item : list) {
    if (item == s) return true;
  }
  return false;
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
      if (TurnCanRun(*def)) route.allowed_tools.push_back(def->name);
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

TurnRouter::TurnRouter(playbooks::Router router, const tools::ToolRegistry& registry)
    : router_(std::move(router)), registry_(registry) {
  for (const std::string& name : registry_.names()) {
    const tools::ToolDef* def = registry_.Find(name);
    if (TurnCanRun(*def))
      registered_.push_back({def->name, def->module, def->area, def->is_write, def});
    registered_names_.push_back(def->name);
  }
  for (const playbooks::Playbook& pb : router_.playbooks().all()) {
    if (!pb.module.empty()) default_modules_.push_back(pb.module);
  }
}

bool TurnRouter::RouteFast(std::string_view request_text, bool ok_member, std::string* out) const {
  JsonReader reader(request_text);
  TextRequest r;
  if (!ReadTextRequest(reader, &r)) return false;

  // As TurnRouteRequest: mentions' kinds then mentionKinds; the top-level
  // path over the surface's; the registry's tools under the role, write
  // areas and modules, then the turn's app tools.
  std::vector<std::string_view> kinds = std::move(r.mention_kinds);
  kinds.insert(kinds.end(), r.kinds.begin(), r.kinds.end());
  const std::vector<std::string_view>& modules = r.has_modules ? r.modules : default_modules_;
  if (!r.has_allowed) {
    r.allowed.reserve(registered_.size() + r.app_tools.size());
    for (const RegisteredTool& tool : registered_) {
      if (!tool.module.empty() && !ContainsView(modules, tool.module)) continue;
      if (tool.is_write && (!tools::RoleMayRun(r.role, *tool.def) ||
                            (r.has_areas && !ContainsView(r.areas, tool.area)))) {
        continue;
      }
      r.allowed.push_back(tool.name);
    }
    r.allowed.insert(r.allowed.end(), r.app_tools.begin(), r.app_tools.end());
  }
  if (!r.has_build) {
    r.build.reserve(registered_names_.size() + r.app_tools.size());
    r.build.insert(r.build.end(), registered_names_.begin(), registered_names_.end());
    r.build.insert(r.build.end(), r.app_tools.begin(), r.app_tools.end());
  }

  playbooks::RouteRequestView view;
  view.message = r.message;
  view.mention_kinds = kinds;
  view.open_path = r.has_path ? r.path : r.has_surface_path ? r.surface_path : std::string_view();
  view.custom_board = r.custom_board;
  view.connected_apps = r.apps;
  view.build_tools = r.build;
  view.allowed_tools = r.allowed;
  view.app_tools = r.app_tools;
  view.loaded = r.loaded;
  view.toolsets_off = r.toolsets_off;
  view.enabled_modules = modules;
  const playbooks::RouteResultView routed = router_.Route(view);

  playbooks::AppendRouteResultJson(routed, ok_member, out);
  return true;
}

Result<std::string> TurnRouter::RouteText(std::string_view request_text, bool ok_member) const {
  std::string out;
  if (RouteFast(request_text, ok_member, &out)) return out;
  json request = json::parse(request_text.begin(), request_text.end(), nullptr,
                             /*allow_exceptions=*/false);
  if (request.is_discarded()) {
    return Status(codes::kMalformedJson, "the request is not valid JSON");
  }
  ENSEMBLE_ASSIGN_OR_RETURN(json answer, RouteTurnJson(router_, registry_, std::move(request)));
  if (ok_member) answer["ok"] = true;
  return answer.dump();
}

}  // namespace ensemble::core::assistant
