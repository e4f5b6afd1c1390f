// The search index (spec 004 §5 "Ranked search"): where a search's
// candidates come from. One table, search_terms, holds a row per distinct
// token of each live searched record (space, kind, token, id, whether the
// token is in its title, when the record changed); a search reads the rows of
// each word's tokens and keeps the 30 records per kind holding the most
// words, title matches and later changes first. The ranking
// (search_rank.h) then scores only those.
//
// A write does not touch search_terms: it puts one row per record into
// search_recent (its tokens, title and others, each list as one text), or a
// row with no tokens for a record removed. A record's row there supersedes
// its rows in search_terms; a search reads the few recent rows and matches
// them itself, then the rows of search_terms of the others. Past
// kMaxRecentTerms tokens (or kMaxRecentRecords rows) written, the batch that
// crossed it merges search_recent into search_terms, in key order: a
// record's 10-20 tokens would otherwise each change a page of the large
// table, several times what the rest of its write costs.
//
// The index is kept by the sync machinery's DerivedRows hooks, in the
// transaction of the write, on every path a record changes by: a mutator on
// the server or a replica, a pull, a rebase. Tokens are SearchTokens' own and
// the table is byte-ordered on both stores (COLLATE "C" on PostgreSQL), so
// SQLite, PostgreSQL and the wasm build give the same candidates.
//
// Thread-safety: stateless; as the Database given.

#ifndef ENSEMBLE_CORE_CONTEXT_SEARCH_INDEX_H_
#define ENSEMBLE_CORE_CONTEXT_SEARCH_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/status.h"
#include "core/context/search_rank.h"
#include "core/store/database.h"
#include "core/store/migrations.h"

namespace ensemble::core::context {

// Bytes of a token the index keeps (cut on a whole code point): a pasted
// blob is one enormous token, and a prefix this long already singles a
// record out. The ranking still compares the whole token.
inline constexpr std::size_t kMaxIndexedTokenBytes = 64;

// `token` as the index keeps it: cut to kMaxIndexedTokenBytes on a code
// point's first byte.
std::string_view IndexedToken(std::string_view token);

// One searched text beside a kind's title and what a word found in it is
// worth (search_rank.h), in thousandths. The column "page_text" is a task's
// page's body.
struct SearchedText {
  std::string_view column;
  int64_t weight;
};

// One searched kind: its table, the column that titles it, the texts searched
// beside the title (the first one holding a word gives the snippet), and what
// else a result carries.
struct SearchedKind {
  std::string_view kind;
  std::string_view table;
  std::string_view title;
  std::vector<SearchedText> texts;
  bool has_status;
  bool has_due;
};

// The kinds the hub searches, in the order they are searched.
const std::vector<SearchedKind>& SearchedKinds();

// ", t.<text>, ..." for `k`'s searched texts, in order (a task's page text
// is COALESCE(p.body, '')), and " FROM <table> t" with the page joined where
// a text needs it: what the index and the ranking read of a record.
std::string SearchedTextColumns(const SearchedKind& k);
std::string SearchedFrom(const SearchedKind& k);

// The index's kind for a project's deliverables: their titles, under the id
// of the project holding them.
inline constexpr std::string_view kDeliverableTerms = "deliverable";

// The index's two tables.
inline constexpr std::string_view kMainTerms = "search_terms";
inline constexpr std::string_view kRecentTerms = "search_recent";

// Tokens written to search_recent past which the batch writing them merges
// it into search_terms: about fifteen pushes of 100 tasks, and what a search
// reads of them stays a tenth of a millisecond.
inline constexpr int64_t kMaxRecentTerms = 16384;
// Rows written to search_recent past which it is merged all the same (a row
// of a removed record holds no tokens).
inline constexpr int64_t kMaxRecentRecords = 4096;

// Migration 36: search_terms, tasks by page, and every live record indexed.
extern const store::Migration kCreateSearchIndex;
// Migration 38: search_recent with a row per token, as search_terms.
extern const store::Migration kCreateRecentSearchTerms;
// Migration 39: search_recent with a row per record, its rows of migration
// 38 merged first; search_recent_size, what was written to it since.
extern const store::Migration kRecentTermsByRecord;

// Brings the index up to date with records (kind, id) as the store holds
// them now: each one's recent row written, with no tokens when it is gone or
// in Trash. A page also reindexes the tasks whose page it is. Other kinds:
// nothing. A kind's records are read and written a chunk at a time; past
// the bounds, search_recent is merged.
Status IndexRecords(store::Database& db,
                    std::span<const std::pair<std::string, std::string>> records);

// Moves every row of search_recent into search_terms, in key order, each
// record's rows there replaced. Merges run one at a time (each locks
// search_recent_size's row); a recent row rewritten while one ran stays.
Status MergeRecentTerms(store::Database& db);

// Empties the index (every synced table was emptied).
Status ClearSearchIndex(store::Database& db);

// Empties the index and indexes every live searched record again.
Status RebuildSearchIndex(store::Database& db);

// The candidates of one kind (or kDeliverableTerms) for a query.
struct IndexCandidates {
  // At most kCandidatesPerKind: most words held first, then most of them in
  // the title, then the later changed, then by id. A record holds a word
  // when it holds each of its tokens (the last as a prefix).
  std::vector<std::string> ids;
  // Whether more records hold a word than the bound let in.
  bool more = false;
};

// The records of `kind` in `space_id` that hold a word of `query`.
Result<IndexCandidates> FindCandidates(store::Database& db, const std::string& space_id,
                                       std::string_view kind, const SearchQuery& query);

}  // namespace ensemble::core::context

#endif  // ENSEMBLE_CORE_CONTEXT_SEARCH_INDEX_H_
