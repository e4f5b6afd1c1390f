// JS API for the display text of tool results and held writes (spec 000 §4):
// summaries that name records by title, and the readable preview of a call
// whose tool has none. The server builds the same text with the same code.
// Test-only until the app calls it (ensemble_core_test, wasm/CMakeLists.txt):
// tests/wasm/display_text.test.mjs checks it against the native build.

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/refs/readable_preview.h"
#include "core/refs/ref_json.h"
#include "core/refs/summary.h"
#include "wasm/bindings/json_edge.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;

// summarizeRecords(verb, singular, plural, itemsJson) -> {text}; items are
// [{title, due?}] or plain titles.
std::string SummarizeRecordsJs(val verb, val singular, val plural, val items_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string verb_text, StringArg(verb, "verb"));
    ENSEMBLE_ASSIGN_OR_RETURN(std::string singular_text, StringArg(singular, "singular"));
    ENSEMBLE_ASSIGN_OR_RETURN(std::string plural_text, StringArg(plural, "plural"));
    ENSEMBLE_ASSIGN_OR_RETURN(json items, JsonArg(items_json, "itemsJson"));
    if (!items.is_array()) {
      return core::Status(core::codes::kInvalidArgument, "itemsJson must be an array");
    }
    return json{{"text", core::refs::SummarizeRecords(verb_text, singular_text, plural_text, items)}};
  });
}

// readablePreview(toolName, inputJson, refsJson) -> {text}. The input keeps
// its member order (the model's), as the server's preview does.
std::string ReadablePreviewJs(val tool_name, val input_json, val refs_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string tool, StringArg(tool_name, "toolName"));
    ENSEMBLE_ASSIGN_OR_RETURN(std::string input_text, StringArg(input_json, "inputJson"));
    nlohmann::ordered_json input =
        nlohmann::ordered_json::parse(input_text, nullptr, /*allow_exceptions=*/false);
    if (input.is_discarded()) {
      return core::Status(core::codes::kMalformedJson, "inputJson is not valid JSON");
    }
    ENSEMBLE_ASSIGN_OR_RETURN(json refs, JsonArg(refs_json, "refsJson"));
    ENSEMBLE_ASSIGN_OR_RETURN(core::refs::RefSet set, core::refs::RefSetFromJson(refs));
    return json{{"text", core::refs::ReadablePreview(tool, input, set)}};
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_display_text) {
  emscripten::function("summarizeRecords", &SummarizeRecordsJs);
  emscripten::function("readablePreview", &ReadablePreviewJs);
}

}  // namespace ensemble::wasm
