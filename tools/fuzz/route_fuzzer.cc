// Fuzzes routing a turn (core/assistant/route_turn.h) with the real playbooks
// and the hub's registry. Input that parses as JSON is a routeMessage
// request; anything else is the message text of a request. Whatever comes
// in, the answer is an error value or a route that keeps the rules: at most
// kMaxToolSchemas tools, each once, each one the request allowed. And
// TurnRouter's text way (its fast reader, or its fallback) answers any text
// exactly as the json tree way does: the same answer text or the same error.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "core/assistant/hub_tools.h"
#include "core/assistant/route_turn.h"
#include "core/hub/hub_tools.h"
#include "core/playbooks/embedded.h"

namespace {

namespace assistant = ensemble::core::assistant;
namespace hub = ensemble::core::hub;
namespace playbooks = ensemble::core::playbooks;

const playbooks::Router& TheRouter() {
  static const playbooks::Router* router = [] {
    auto set = playbooks::PlaybookSet::Build(playbooks::EmbeddedPlaybooks());
    if (!set.ok()) std::abort();
    return new playbooks::Router(std::move(set).value());
  }();
  return *router;
}

const assistant::TurnRouter& TheTurnRouter() {
  static const auto* router = new assistant::TurnRouter(TheRouter(), hub::HubToolRegistry());
  return *router;
}

// RouteText(text) against RouteTurnJson(parse(text)).dump().
void CheckTextWay(const std::string& text) {
  auto answer = TheTurnRouter().RouteText(text);
  nlohmann::json request = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (request.is_discarded()) {
    if (answer.ok() || answer.status().code() != ensemble::core::codes::kMalformedJson)
      std::abort();
    return;
  }
  auto tree = assistant::RouteTurnJson(TheRouter(), hub::HubToolRegistry(), request);
  if (tree.ok() != answer.ok()) std::abort();
  if (!tree.ok()) {
    if (tree.status().code() != answer.status().code() ||
        tree.status().message() != answer.status().message()) {
      std::abort();
    }
    return;
  }
  if (tree->dump() != *answer) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  CheckTextWay(input);
  nlohmann::json request = nlohmann::json::parse(input, nullptr, /*allow_exceptions=*/false);
  if (request.is_discarded()) {
    request = {{"message", input},
               {"apps", {{{"catalogName", "Jira & Confluence"}, {"id", "jira"}}}},
               {"surface", {{"path", "/tasks"}, {"customBoard", size % 2 == 0}}}};
  }
  auto route = assistant::TurnRouteRequest(TheRouter(), hub::HubToolRegistry(), request);
  if (!route.ok()) return 0;
  const playbooks::RouteResult result = TheRouter().Route(*route);
  if (result.tools.size() > playbooks::kMaxToolSchemas) std::abort();
  const std::set<std::string> allowed(route->allowed_tools.begin(), route->allowed_tools.end());
  std::set<std::string> seen;
  for (const std::string& tool : result.tools) {
    if (!seen.insert(tool).second || allowed.count(tool) == 0) std::abort();
  }
  if (result.guides.size() > playbooks::kMaxGuides + 1) std::abort();
  return 0;
}
