// Test-only JS API (ensemble_core_test, wasm/CMakeLists.txt): the ranking of
// the shared search run on a case as the vectors write it, and the redaction
// pass on outside text, so tests/wasm/search_rank.test.mjs and
// redaction.test.mjs hold the wasm build to the same answers as the native
// one (core/context/search_rank.h, core/text/redact.h).

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/context/search_rank_json.h"
#include "core/text/redact.h"
#include "wasm/bindings/json_edge.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;

// splitSearchQuery(query) -> {words, phrase}.
std::string SplitSearchQueryJs(val query) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string q, StringArg(query, "query"));
    return core::context::SplitQueryJson(q);
  });
}

// rankSearch(caseJson) -> {results: [{ref, score}]}.
std::string RankSearchJs(val case_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(json in, JsonArg(case_json, "caseJson"));
    return core::context::RankJson(in);
  });
}

// redactSecrets(text) -> {text}; redactForIngest(text) -> {text}, capped.
std::string RedactSecretsJs(val text) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string t, StringArg(text, "text"));
    return json{{"text", core::text::RedactSecrets(t)}};
  });
}

std::string RedactForIngestJs(val text) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string t, StringArg(text, "text"));
    return json{{"text", core::text::RedactForIngest(t)}};
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_context_test) {
  emscripten::function("splitSearchQuery", &SplitSearchQueryJs);
  emscripten::function("rankSearch", &RankSearchJs);
  emscripten::function("redactSecrets", &RedactSecretsJs);
  emscripten::function("redactForIngest", &RedactForIngestJs);
}

}  // namespace ensemble::wasm
