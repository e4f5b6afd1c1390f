// JS API for checking a tool call against the hub's tools (spec 000 §1, §9),
// the same check the server runs before dispatching anything. Test-only
// until the app calls it (ensemble_core_test, wasm/CMakeLists.txt).

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/assistant/hub_tools.h"
#include "core/hub/hub_tools.h"
#include "core/tools/validate.h"
#include "wasm/bindings/json_edge.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;

// validateToolCall(name, inputJson) -> {ok: true}, or {ok: false, code,
// message, errors: [{path, message}]} with code UNKNOWN_TOOL or
// INVALID_TOOL_INPUT (or MALFORMED_JSON / INVALID_ARGUMENT for bad arguments).
std::string ValidateToolCallJs(val name, val input_json) {
  std::string refusal;
  std::string guarded = Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string tool, StringArg(name, "name"));
    ENSEMBLE_ASSIGN_OR_RETURN(json input, JsonArg(input_json, "inputJson"));
    core::tools::ToolCallCheck check =
        core::tools::CheckToolCall(core::hub::HubToolRegistry(), tool, input);
    if (check.status.ok()) return json(nullptr);
    json errors = json::array();
    for (const auto& e : check.errors) errors.push_back({{"path", e.path}, {"message", e.message}});
    refusal = Dump({{"ok", false},
                    {"code", check.status.code()},
                    {"message", check.status.message()},
                    {"errors", std::move(errors)}});
    return json(nullptr);
  });
  return refusal.empty() ? guarded : refusal;
}

// toolNames() -> {names: [...]}, sorted.
std::string ToolNamesJs() {
  return Guard([]() -> core::Result<json> {
    return json{{"names", core::hub::HubToolRegistry().names()}};
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_tools) {
  emscripten::function("validateToolCall", &ValidateToolCallJs);
  emscripten::function("toolNames", &ToolNamesJs);
}

}  // namespace ensemble::wasm
