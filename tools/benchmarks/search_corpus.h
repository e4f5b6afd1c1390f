// The corpus of `tools/bench context` (spec 004 §5 ranked search): a space of
// generated work, written straight into a migrated store, the same in the
// native bench and in the wasm build (the generator is integer arithmetic
// only, so both make the same rows), and what it times there.
//
// Thread-safety: stateless; as the Database given.

#ifndef ENSEMBLE_TOOLS_BENCHMARKS_SEARCH_CORPUS_H_
#define ENSEMBLE_TOOLS_BENCHMARKS_SEARCH_CORPUS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"

namespace ensemble::bench {

// The space the corpus lives in.
inline constexpr char kCorpusSpace[] = "bench";

// Writes `records` records into kCorpusSpace of `db` (migrated, empty): 60%
// tasks (a third with a page of notes, each in one of the projects), 30%
// pages, 6% people, 4% projects. Titles hold 2 to 6 words and texts 10 to
// 120, drawn from a 4,096-word vocabulary with a long tail (a few words are
// everywhere, most are rare); times spread over the 400 days before now_ms.
// Then the search index is built over them.
core::Status SeedSearchCorpus(core::store::Database& db, int records, int64_t now_ms);

// `n` queries of 1 to 6 words from the same vocabulary, a tenth of them
// with a quoted two-word phrase.
std::vector<std::string> SearchCorpusQueries(int n);

// The ids of up to `n` tasks of the corpus with a project, a page, people and
// a task they depend on: a context with every relation to read.
core::Result<std::vector<std::string>> CorpusTasks(core::store::Database& db, int n);

// What the corpus's queries and contexts answer, compact, for the parity
// test (tests/vectors/context/corpus_parity.json) that holds SQLite,
// PostgreSQL and the wasm build to one answer: {search: [{q, near?, results
// ["kind:id", ...], total, more?}] (every fifth query near one of the
// tasks), items: [{kind, id, relations: {rel: {total, ids}}, packet: the
// sha256 of its 5,000-character work packet}] (`tasks` tasks, then the
// project and first person of the first three)}, as of `now_ms`.
core::Result<nlohmann::json> CorpusAnswers(core::store::Database& db, int queries, int tasks,
                                           int64_t now_ms);

// The median milliseconds of one call of `run` over `items` (after one
// warm-up pass over the first tenth), or the first failure.
template <typename Item, typename Run>
core::Result<double> MedianMs(const std::vector<Item>& items, Run run);

}  // namespace ensemble::bench

#include "tools/benchmarks/search_corpus_inl.h"

#endif  // ENSEMBLE_TOOLS_BENCHMARKS_SEARCH_CORPUS_H_
