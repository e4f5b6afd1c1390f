// Test-only JS API (ensemble_core_test, wasm/CMakeLists.txt): one step of
// the local planner (core/assistant/local_planner.h), which the app never
// calls (it runs whole turns, local_planner_bindings.cc), kept so
// tests/wasm/local_planner.test.mjs can check the wasm build step by step
// against the native one.
//
// planLocally(requestJson) -> {"ok": true, "step", "intent", "final", "calls",
// "reply", "needsModel"}; the request is PlanLocallyJson's ({message, today,
// timeZone?, calls?}).

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/assistant/local_planner.h"
#include "core/hub/hub_tools.h"
#include "wasm/bindings/json_edge.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;

std::string PlanLocally(val request_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(json request, JsonArg(request_json, "requestJson"));
    return core::assistant::PlanLocallyJson(core::hub::HubToolRegistry(), request);
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_local_planner_test) {
  emscripten::function("planLocally", &PlanLocally);
}

}  // namespace ensemble::wasm
