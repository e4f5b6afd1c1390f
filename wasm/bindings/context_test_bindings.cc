// Test-only JS API (ensemble_core_test, wasm/CMakeLists.txt): the ranking of
// the shared search run on a case as the vectors write it, so
// tests/wasm/search_rank.test.mjs holds the wasm build to the same numbers as
// the native one (core/context/search_rank.h).

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/context/search_rank_json.h"
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

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_context_test) {
  emscripten::function("splitSearchQuery", &SplitSearchQueryJs);
  emscripten::function("rankSearch", &RankSearchJs);
}

}  // namespace ensemble::wasm
