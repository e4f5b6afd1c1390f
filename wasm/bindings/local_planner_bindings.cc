// JS API for the local planner (core/assistant/local_planner.h): the
// assistant's embedded default with no model configured, run in the browser
// offline exactly as the native core runs it. planLocally(requestJson) ->
// {"ok": true, "step", "intent", "final", "calls", "reply", "needsModel"}.

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/assistant/local_planner.h"
#include "wasm/bindings/json_edge.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;

// planLocally(requestJson): the request is PlanLocallyJson's
// ({message, today, timeZone?, calls?}); the answer is one step.
std::string PlanLocally(val request_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(json request, JsonArg(request_json, "requestJson"));
    return core::assistant::PlanLocallyJson(request);
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_local_planner) { emscripten::function("planLocally", &PlanLocally); }

}  // namespace ensemble::wasm
