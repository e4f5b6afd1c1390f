// Test-only JS API (ensemble_core_test, wasm/CMakeLists.txt): what the app
// does not call, kept so tests/wasm/mentions.test.mjs can check the wasm
// build against the shared vectors. The app's reply formatting is
// refs_bindings.cc.

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/refs/collect.h"
#include "wasm/bindings/json_edge.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;

// refsFromResult(toolName, resultJson) -> {refs}: the records a tool result
// names, at most 50 (spec §4.1 "What the turn knows").
std::string RefsFromResultJs(val tool_name, val result_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string tool, StringArg(tool_name, "toolName"));
    ENSEMBLE_ASSIGN_OR_RETURN(json result, JsonArg(result_json, "resultJson"));
    return json{{"refs", core::refs::RefListToJson(core::refs::RefsFromResult(tool, result))}};
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_refs_test) {
  emscripten::function("refsFromResult", &RefsFromResultJs);
}

}  // namespace ensemble::wasm
