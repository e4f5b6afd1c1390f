// JS API for the local planner (core/assistant/local_planner.h): the
// assistant's embedded default with no model configured, run in the browser
// offline exactly as the native core runs it. runLocalTurn(requestJson) runs
// a whole turn over the open replica, its writes queued in the outbox, and
// applyLocalCalls(requestJson) runs the drafts one held
// (core/assistant/local_turn.h has both shapes). planLocally, one step of
// the planner, which only the tests call, is in
// local_planner_test_bindings.cc.

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/assistant/hub_tools.h"
#include "core/assistant/local_turn.h"
#include "core/tools/tool_context.h"
#include "core/hub/hub_tools.h"
#include "wasm/bindings/json_edge.h"
#include "wasm/bindings/session.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;

// Runs `edge` (a JSON edge of local_turn.h) on the open replica.
template <typename Edge>
std::string OnReplica(val request_json, Edge edge) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(json request, JsonArg(request_json, "requestJson"));
    Session& s = Session::Get();
    ENSEMBLE_RETURN_IF_ERROR(s.CheckOpen());
    core::tools::ToolContext ctx = s.ToolContext();
    return edge(core::hub::HubToolRegistry(), ctx, request);
  });
}

std::string RunLocalTurn(val request_json) {
  return OnReplica(request_json, &core::assistant::RunLocalTurnJson);
}

std::string ApplyLocalCalls(val request_json) {
  return OnReplica(request_json, &core::assistant::ApplyLocalCallsJson);
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_local_planner) {
  emscripten::function("runLocalTurn", &RunLocalTurn);
  emscripten::function("applyLocalCalls", &ApplyLocalCalls);
}

}  // namespace ensemble::wasm
