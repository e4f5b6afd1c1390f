// JS API for formatting replies (spec §4.1), the same functions the server
// uses: records named by id become their titles.

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/refs/format_entity_text.h"
#include "core/refs/ref_json.h"
#include "wasm/bindings/json_edge.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;

// formatEntityText(text, refsJson, optionsJson) -> {text}; options {plain?, keepIds?}.
std::string FormatEntityTextJs(val text, val refs_json, val options_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string input, StringArg(text, "text"));
    ENSEMBLE_ASSIGN_OR_RETURN(json refs, JsonArg(refs_json, "refsJson"));
    ENSEMBLE_ASSIGN_OR_RETURN(json options, JsonArg(options_json, "optionsJson"));
    ENSEMBLE_ASSIGN_OR_RETURN(core::refs::RefSet set, core::refs::RefSetFromJson(refs));
    ENSEMBLE_ASSIGN_OR_RETURN(core::refs::FormatOptions opts,
                              core::refs::FormatOptionsFromJson(options));
    return json{{"text", core::refs::FormatEntityText(input, set, opts)}};
  });
}

// formatStreamingText(text, refsJson, optionsJson) -> {text, hold}: what of a
// reply still streaming is safe to show, and how many trailing bytes wait.
std::string FormatStreamingTextJs(val text, val refs_json, val options_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string input, StringArg(text, "text"));
    ENSEMBLE_ASSIGN_OR_RETURN(json refs, JsonArg(refs_json, "refsJson"));
    ENSEMBLE_ASSIGN_OR_RETURN(json options, JsonArg(options_json, "optionsJson"));
    ENSEMBLE_ASSIGN_OR_RETURN(core::refs::RefSet set, core::refs::RefSetFromJson(refs));
    ENSEMBLE_ASSIGN_OR_RETURN(core::refs::FormatOptions opts,
                              core::refs::FormatOptionsFromJson(options));
    return json{{"text", core::refs::FormatStreamingText(input, set, opts)},
                {"hold", core::refs::StreamHoldBack(input, set)}};
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_refs) {
  emscripten::function("formatEntityText", &FormatEntityTextJs);
  emscripten::function("formatStreamingText", &FormatStreamingTextJs);
}

}  // namespace ensemble::wasm
