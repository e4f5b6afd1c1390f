// JS API for playbook routing (spec 000 §3): which guides and tools a draft
// message gets, over the playbooks compiled into the module
// (ensemble::playbooks_embedded), exactly as the native core routes them.

#include <emscripten/bind.h>

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
namespace pb = core::playbooks;

// Built once: the embedded playbooks and the hub's registry never change
// while the module runs.
const core::Result<core::assistant::TurnRouter>& EmbeddedTurnRouter() {
  using core::assistant::TurnRouter;
  static const auto* router = new core::Result<TurnRouter>([]() -> core::Result<TurnRouter> {
    ENSEMBLE_ASSIGN_OR_RETURN(pb::PlaybookSet set, pb::PlaybookSet::Build(pb::EmbeddedPlaybooks()));
    return TurnRouter(pb::Router(std::move(set)), core::assistant::HubToolRegistry());
  }());
  return *router;
}

// routeMessage(requestJson) -> {guides, tools, simpleTodo, recipe}; the
// request is core/assistant/route_turn.h's (the allowed tools default to what
// the hub's registry allows the request's role). The answer text is
// TurnRouter's, with the edge's "ok" member (what Guard and OkJson would
// write, byte for byte, without building a json tree).
std::string RouteMessage(val request_json) {
  try {
    if (!request_json.isString()) {
      return ErrorJson(core::Status(core::codes::kMalformedJson, "requestJson must be a JSON string"));
    }
    const core::Result<core::assistant::TurnRouter>& router = EmbeddedTurnRouter();
    if (!router.ok()) return ErrorJson(router.status());
    core::Result<std::string> answer =
        router->RouteText(request_json.as<std::string>(), /*ok_member=*/true);
    if (answer.ok()) return std::move(answer).value();
    if (answer.status().code() == core::codes::kMalformedJson) {
      return ErrorJson(core::Status(core::codes::kMalformedJson, "requestJson is not valid JSON"));
    }
    return ErrorJson(answer.status());
  } catch (...) {
    // As Guard: nothing throws into JS (memory exhaustion).
    return ErrorJson(core::Status(core::codes::kInternal, "internal error"));
  }
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_route) {
  emscripten::function("routeMessage", &RouteMessage);
}

}  // namespace ensemble::wasm
