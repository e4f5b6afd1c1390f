// Test-only JS API (ensemble_core_test, wasm/CMakeLists.txt): the ranking of
// the shared search run on a case as the vectors write it, and the redaction
// pass on outside text, so tests/wasm/search_rank.test.mjs and
// redaction.test.mjs hold the wasm build to the same answers as the native
// one (core/context/search_rank.h, core/text/redact.h); and the context graph
// on a replica (core/context/neighbors.h), which the app does not show yet.

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/context/neighbors.h"
#include "core/context/search_rank_json.h"
#include "core/context/search_tool_runs.h"
#include "core/hub/hub.h"
#include "core/hub/hub_tools.h"
#include "core/store/sqlite_database.h"
#include "core/text/redact.h"
#include "tools/benchmarks/search_corpus.h"
#include "wasm/bindings/json_edge.h"
#include "wasm/bindings/session.h"

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

// benchContextSearch(records, queries) -> {searchMs}: the wasm half of
// `tools/bench context` (tools/benchmarks/context_bench.cc is the native):
// the same generated corpus in a store of its own, in memory, and the
// median time of one ranked search over the same queries.
std::string BenchContextSearchJs(int records, int queries) {
  return Guard([&]() -> core::Result<json> {
    if (records < 1 || queries < 1) return core::InvalidArgument("records and queries: at least 1");
    ENSEMBLE_ASSIGN_OR_RETURN(auto db, core::store::SqliteDatabase::Open(":memory:"));
    ENSEMBLE_RETURN_IF_ERROR(core::hub::Migrate(*db));
    constexpr int64_t kNowMs = 1'796'630'400'000;  // As context_bench.cc.
    ENSEMBLE_RETURN_IF_ERROR(bench::SeedSearchCorpus(*db, records, kNowMs));
    core::tools::ToolContext ctx = core::hub::NewToolContext();
    ctx.db = db.get();
    ctx.space_id = bench::kCorpusSpace;
    ctx.now_ms = kNowMs;
    ENSEMBLE_ASSIGN_OR_RETURN(
        double ms, bench::MedianMs(bench::SearchCorpusQueries(queries),
                                   [&](const std::string& q) -> core::Status {
                                     ENSEMBLE_ASSIGN_OR_RETURN(
                                         auto request,
                                         core::context::ParseSearchRequest(q, "", "20"));
                                     return core::context::SearchWork(ctx, request).status();
                                   }));
    return json{{"searchMs", ms}};
  });
}

// corpusAnswers(records, queries, tasks, nowMs) -> what the generated corpus
// answers (bench::CorpusAnswers), for the parity test against the stores.
std::string CorpusAnswersJs(int records, int queries, int tasks, double now_ms) {
  return Guard([&]() -> core::Result<json> {
    if (records < 1 || queries < 1 || tasks < 1)
      return core::InvalidArgument("records, queries and tasks: at least 1");
    ENSEMBLE_ASSIGN_OR_RETURN(auto db, core::store::SqliteDatabase::Open(":memory:"));
    ENSEMBLE_RETURN_IF_ERROR(core::hub::Migrate(*db));
    const auto now = static_cast<int64_t>(now_ms);
    ENSEMBLE_RETURN_IF_ERROR(bench::SeedSearchCorpus(*db, records, now));
    return bench::CorpusAnswers(*db, queries, tasks, now);
  });
}

// itemContext(spaceId, ref, rel, limit, offset) -> {record, relations}: ref
// a record handle, the rest text ("" for every relation, the defaults);
// INVALID_ARGUMENT and NOT_FOUND as GET /api/context/item gives them.
std::string ItemContextJs(val space_arg, val ref_arg, val rel_arg, val limit_arg, val offset_arg) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string space_id, StringArg(space_arg, "spaceId"));
    ENSEMBLE_ASSIGN_OR_RETURN(std::string ref, StringArg(ref_arg, "ref"));
    ENSEMBLE_ASSIGN_OR_RETURN(std::string rel, StringArg(rel_arg, "rel"));
    ENSEMBLE_ASSIGN_OR_RETURN(std::string limit, StringArg(limit_arg, "limit"));
    ENSEMBLE_ASSIGN_OR_RETURN(std::string offset, StringArg(offset_arg, "offset"));
    ENSEMBLE_ASSIGN_OR_RETURN(
        core::context::NeighborsRequest request,
        core::context::ParseNeighborsRequest(ref.empty() ? " " : ref, "", "", rel, limit, offset));
    Session& s = Session::Get();
    ENSEMBLE_RETURN_IF_ERROR(s.CheckOpen());
    core::tools::ToolContext ctx = s.ToolContext();
    ctx.space_id = space_id;
    return core::context::ItemNeighbors(ctx, request);
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_context_test) {
  emscripten::function("splitSearchQuery", &SplitSearchQueryJs);
  emscripten::function("rankSearch", &RankSearchJs);
  emscripten::function("redactSecrets", &RedactSecretsJs);
  emscripten::function("redactForIngest", &RedactForIngestJs);
  emscripten::function("benchContextSearch", &BenchContextSearchJs);
  emscripten::function("itemContext", &ItemContextJs);
  emscripten::function("corpusAnswers", &CorpusAnswersJs);
}

}  // namespace ensemble::wasm
