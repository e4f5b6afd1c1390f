// JS API for formatting replies (spec §4.1), the same functions the server
// uses: records named by id become their titles. refsFromResult, which only
// the tests call, is in refs_test_bindings.cc.

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/refs/format_entity_text.h"
#include "core/refs/mention_json.h"
#include "core/refs/ref_json.h"
#include "wasm/bindings/json_edge.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;

// The three arguments both functions take, read and checked.
struct FormatArgs {
  std::string text;
  core::refs::RefSet refs;
  core::refs::FormatOptions options;
};

core::Result<FormatArgs> ReadFormatArgs(const val& text, const val& refs_json,
                                        const val& options_json) {
  FormatArgs args;
  ENSEMBLE_ASSIGN_OR_RETURN(args.text, StringArg(text, "text"));
  ENSEMBLE_ASSIGN_OR_RETURN(json refs, JsonArg(refs_json, "refsJson"));
  ENSEMBLE_ASSIGN_OR_RETURN(json options, JsonArg(options_json, "optionsJson"));
  ENSEMBLE_ASSIGN_OR_RETURN(args.refs, core::refs::RefSetFromJson(refs));
  ENSEMBLE_ASSIGN_OR_RETURN(args.options, core::refs::FormatOptionsFromJson(options));
  return args;
}

// formatEntityText(text, refsJson, optionsJson) -> {text}; options {plain?, keepIds?}.
std::string FormatEntityTextJs(val text, val refs_json, val options_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(FormatArgs a, ReadFormatArgs(text, refs_json, options_json));
    return json{{"text", core::refs::FormatEntityText(a.text, a.refs, a.options)}};
  });
}

// formatStreamingText(text, refsJson, optionsJson) -> {text, hold}: what of a
// reply still streaming is safe to show, and how many trailing bytes wait.
std::string FormatStreamingTextJs(val text, val refs_json, val options_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(FormatArgs a, ReadFormatArgs(text, refs_json, options_json));
    return json{{"text", core::refs::FormatStreamingText(a.text, a.refs, a.options)},
                {"hold", core::refs::StreamHoldBack(a.text, a.refs)}};
  });
}

// resolveMentions(inputJson) -> {text, mentions, unresolved}: input
// {text, mentions?: [{kind, id, label}], directory?: {kind: {name: [ids]}}}
// (spec §3 "Mentions"; core/refs/mention_json.h).
std::string ResolveMentionsJs(val input_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(json input, JsonArg(input_json, "inputJson"));
    return core::refs::ResolveMentionsJson(input);
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_refs) {
  emscripten::function("formatEntityText", &FormatEntityTextJs);
  emscripten::function("formatStreamingText", &FormatStreamingTextJs);
  emscripten::function("resolveMentions", &ResolveMentionsJs);
}

}  // namespace ensemble::wasm
