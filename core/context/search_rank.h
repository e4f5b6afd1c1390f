// The ranking of the shared search (spec 004 §5 "Ranked search"): how a
// query splits into words and how a candidate record scores against them.
// Scores are whole thousandths of a point, added and scaled in integers, so
// the native server, the wasm build in the browser and either store give the
// same order and the same numbers for the same rows (the vectors in
// tests/vectors/context/search_rank.json hold all three to it).
//
// Where candidates come from (an index, a scan) is the caller's business:
// this file only scores what it is given.
//
// Thread-safety: stateless; the stop-word table is constant.

#ifndef ENSEMBLE_CORE_CONTEXT_SEARCH_RANK_H_
#define ENSEMBLE_CORE_CONTEXT_SEARCH_RANK_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ensemble::core::context {

// Words of a query the search keeps; the rest are dropped (spec §5).
inline constexpr std::size_t kMaxQueryWords = 6;
// Tokens one word (a quoted phrase) keeps, and the phrase of the whole
// query: a bound of ours, so a pasted paragraph in quotes cannot make every
// record's text a long phrase match.
inline constexpr std::size_t kMaxWordTokens = 8;
inline constexpr std::size_t kMaxPhraseTokens = 16;
// Rows one kind gives the ranking at most (spec §5 "up to 30 rows").
inline constexpr std::size_t kCandidatesPerKind = 30;
// Recency counts over this window: a record changed now gets all of
// kRecencyPoints, one changed 120 days ago or earlier none.
inline constexpr int64_t kRecencyWindowMs = int64_t{120} * 24 * 60 * 60 * 1000;

// Points, in thousandths (spec §5).
inline constexpr int64_t kPoint = 1000;
inline constexpr int64_t kTitleWordPoints = 3 * kPoint;
inline constexpr int64_t kAllWordsPoints = 2 * kPoint;
inline constexpr int64_t kTitlePhrasePoints = 4 * kPoint;
inline constexpr int64_t kRecencyPoints = 1 * kPoint;
inline constexpr int64_t kOpenWorkPoints = kPoint / 2;
inline constexpr int64_t kNearLinkPoints = 3 * kPoint;
inline constexpr int64_t kNearRelationPoints = kPoint * 3 / 2;
inline constexpr int64_t kNearProjectPoints = kPoint * 3 / 2;

// A query split for the search. A word is one or more tokens: a plain word
// is usually one ("launch"), a quoted phrase or a hyphenated word several
// ("launch plan", "e-mail"); its tokens must follow each other in a text,
// the last one as a prefix ("plan" finds "planning").
struct SearchQuery {
  std::vector<std::vector<std::string>> words;
  // Every token of the query in order, stop words included: the phrase whose
  // presence in a title earns kTitlePhrasePoints (when it has two or more).
  std::vector<std::string> phrase;
};

// Splits `text` (spec §5): words at white space, a "quoted phrase" (straight
// or curly quotes; an unclosed quote runs to the end) kept whole, tokens
// lower-cased, punctuation dropped, stop words dropped unless nothing else is
// left, then at most kMaxQueryWords words of at most kMaxWordTokens tokens.
// An empty result matches nothing.
SearchQuery SplitQuery(std::string_view text);

// The lower-cased tokens of `text`: runs of letters, marks and digits.
std::vector<std::string> SearchTokens(std::string_view text);

// `tokens` joined by single spaces (which no token holds).
std::string JoinTokens(const std::vector<std::string>& tokens);

// The distinct tokens of `text` that are not stop words: what two titles
// share when they are about the same thing.
std::set<std::string> ContentTokens(std::string_view text);

// Whether `word` (a word of a SearchQuery) is in `text`.
bool HoldsWord(std::string_view text, const std::vector<std::string>& word);

// One searched text beside the title, with what each word found in it is
// worth (in thousandths).
struct SearchField {
  std::string text;
  int64_t weight = kPoint;
};

// A candidate as the ranking sees it.
struct SearchRecord {
  std::string kind;
  std::string id;
  std::string title;
  std::vector<SearchField> body;
  int64_t updated_at = 0;  // Unix ms.
  bool open = false;       // Open work: a task not done, an active project.
  std::string project;     // The project it belongs to (a project: itself).
};

// What the record a search is "near" reaches, as "kind:id" refs.
struct NearRecord {
  std::set<std::string> links;      // Linked directly, either way.
  std::set<std::string> relations;  // Named by its scored relations.
  std::string project;              // Its project's id, "" when none.
};

// "kind:id", the key NearRecord's sets hold.
std::string RefKey(std::string_view kind, std::string_view id);

// The score of `record`, or nullopt when no word of `query` is in it:
// kTitleWordPoints for each word in the title, the best weight of the body
// fields holding it for each word in the body, kAllWordsPoints when every
// word matched, kTitlePhrasePoints for the phrase in the title, recency as of
// `now_ms`, kOpenWorkPoints for open work, all scaled by the share of words
// matched (rounded down); then `near`'s points on top.
std::optional<int64_t> ScoreRecord(const SearchQuery& query, const SearchRecord& record,
                                   int64_t now_ms, const NearRecord* near);

struct RankedRecord {
  std::size_t index;  // Into the records given.
  int64_t score;
};

// The matching `records` best first, at most kCandidatesPerKind of each kind
// and `limit` in all. Ties go to the later changed, then by kind, then id
// (then the order given, for records that share all three). `matched`, when
// given, is set to how many records matched, before either bound.
std::vector<RankedRecord> RankRecords(const SearchQuery& query,
                                      const std::vector<SearchRecord>& records, int64_t now_ms,
                                      const NearRecord* near, std::size_t limit,
                                      std::size_t* matched = nullptr);

}  // namespace ensemble::core::context

#endif  // ENSEMBLE_CORE_CONTEXT_SEARCH_RANK_H_
