// JS API for playbook routing (spec 000 §3): which guides and tools a draft
// message gets, over the playbooks compiled into the module
// (ensemble::playbooks_embedded), exactly as the native core routes them.

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "core/assistant/hub_tools.h"
#include "core/assistant/route_turn.h"
#include "core/playbooks/embedded.h"
#include "core/playbooks/route_json.h"
#include "core/playbooks/router.h"
#include "wasm/bindings/json_edge.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;
namespace pb = core::playbooks;

// Built once: the embedded playbooks never change while the module runs.
const core::Result<pb::Router>& EmbeddedRouter() {
  static const auto* router = new core::Result<pb::Router>([]() -> core::Result<pb::Router> {
    ENSEMBLE_ASSIGN_OR_RETURN(pb::PlaybookSet set, pb::PlaybookSet::Build(pb::EmbeddedPlaybooks()));
    return pb::Router(std::move(set));
  }());
  return *router;
}

// routeMessage(requestJson) -> {guides, tools, simpleTodo, recipe}; the
// request is core/assistant/route_turn.h's (the allowed tools default to what
// the hub's registry allows the request's role).
std::string RouteMessage(val request_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(json request, JsonArg(request_json, "requestJson"));
    const core::Result<pb::Router>& router = EmbeddedRouter();
    if (!router.ok()) return router.status();
    return core::assistant::RouteTurnJson(*router, core::assistant::HubToolRegistry(), std::move(request));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_route) {
  emscripten::function("routeMessage", &RouteMessage);
}

}  // namespace ensemble::wasm
