#include "core/context/search_rank.h"

#include <algorithm>
#include <array>
#include <map>

#include "core/text/unicode_normalize.h"
#include "core/text/utf8.h"

namespace ensemble::core::context {
namespace {

// English words too common to tell records apart. Sorted: binary-searched.
constexpr std::array<std::string_view, 64> kStopWords = {
    "a",    "about", "after", "all",  "an",  "and",  "any",  "are",  "as",   "at",    "be",
    "been", "but",   "by",    "can",  "did", "do",   "does", "for",  "from", "had",   "has",
    "have", "how",   "i",     "if",   "in",  "into", "is",   "it",   "its",  "me",    "my",
    "no",   "not",   "of",    "on",   "or",  "our",  "so",   "that", "the",  "their", "them",
    "then", "there", "they",  "this", "to",  "up",   "us",   "was",  "we",   "were",  "what",
    "when", "where", "which", "who",  "why", "will", "with", "you",  "your"};
static_assert(std::is_sorted(kStopWords.begin(), kStopWords.end()));

bool IsStopWord(const std::vector<std::string>& word) {
  return word.size() == 1 &&
         std::binary_search(kStopWords.begin(), kStopWords.end(), std::string_view(word[0]));
}

bool IsQuote(char32_t c) { return c == U'"' || c == U'\u201C' || c == U'\u201D'; }

// Whether `word` is in `tokens`: its tokens in a row, the last as a prefix.
bool Holds(const std::vector<std::string>& tokens, const std::vector<std::string>& word) {
  if (word.empty() || tokens.size() < word.size()) return false;
  const std::size_t last = word.size() - 1;
  for (std::size_t i = 0; i + last < tokens.size(); ++i) {
    bool all = true;
    for (std::size_t j = 0; j < last && all; ++j) all = tokens[i + j] == word[j];
    if (all && tokens[i + last].starts_with(word[last])) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> SearchTokens(std::string_view text) {
  std::vector<std::string> tokens;
  std::string token;
  // Byte by byte where the text is ASCII (most of it): a write tokenizes
  // every searched text of the records it changes.
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      ++i;
      if ((b >= '0' && b <= '9') || (b >= 'a' && b <= 'z')) {
        token += static_cast<char>(b);
        continue;
      }
      if (b >= 'A' && b <= 'Z') {
        token += static_cast<char>(b - 'A' + 'a');
        continue;
      }
    } else {
      const text::Utf8Step step = text::DecodeUtf8Step(text, i);
      i += step.length;
      if (text::IsWordCodePoint(step.code_point)) {
        text::AppendUtf8(text::SimpleLowercase(step.code_point), &token);
        continue;
      }
    }
    if (!token.empty()) {
      tokens.push_back(std::move(token));
      token.clear();
    }
  }
  if (!token.empty()) tokens.push_back(std::move(token));
  return tokens;
}

std::string JoinTokens(const std::vector<std::string>& tokens) {
  std::string out;
  for (const std::string& t : tokens) {
    if (!out.empty()) out += ' ';
    out += t;
  }
  return out;
}

SearchQuery SplitQuery(std::string_view text) {
  std::u32string code_points;
  text::DecodeUtf8(text, &code_points);
  // Raw words: runs without white space outside quotes, whole phrases inside.
  struct Raw {
    std::string text;
    bool quoted;
  };
  std::vector<Raw> raw;
  std::string current;
  bool quoted = false;
  auto finish = [&] {
    if (!current.empty()) raw.push_back({std::move(current), quoted});
    current.clear();
  };
  for (char32_t c : code_points) {
    if (IsQuote(c)) {
      finish();
      quoted = !quoted;
    } else if (!quoted && (c == U' ' || c == U'\t' || c == U'\n' || c == U'\r')) {
      finish();
    } else {
      text::AppendUtf8(c, &current);
    }
  }
  finish();
  SearchQuery query;
  std::vector<std::vector<std::string>> all;
  for (const Raw& r : raw) {
    std::vector<std::string> tokens = SearchTokens(r.text);
    if (tokens.empty()) continue;
    for (const std::string& t : tokens) {
      if (query.phrase.size() < kMaxPhraseTokens) query.phrase.push_back(t);
    }
    if (tokens.size() > kMaxWordTokens) tokens.resize(kMaxWordTokens);
    // A quoted word is asked for on purpose, stop word or not.
    if (r.quoted || !IsStopWord(tokens)) query.words.push_back(tokens);
    all.push_back(std::move(tokens));
  }
  if (query.words.empty()) query.words = std::move(all);
  if (query.words.size() > kMaxQueryWords) query.words.resize(kMaxQueryWords);
  return query;
}

std::set<std::string> ContentTokens(std::string_view text) {
  std::set<std::string> out;
  for (std::string& token : SearchTokens(text)) {
    if (!std::binary_search(kStopWords.begin(), kStopWords.end(), std::string_view(token)))
      out.insert(std::move(token));
  }
  return out;
}

bool HoldsWord(std::string_view text, const std::vector<std::string>& word) {
  return Holds(SearchTokens(text), word);
}

std::string RefKey(std::string_view kind, std::string_view id) {
  std::string key(kind);
  key += ':';
  key += id;
  return key;
}

std::optional<int64_t> ScoreRecord(const SearchQuery& query, const SearchRecord& record,
                                   int64_t now_ms, const NearRecord* near) {
  if (query.words.empty()) return std::nullopt;
  const std::vector<std::string> title = SearchTokens(record.title);
  std::vector<std::vector<std::string>> body;
  body.reserve(record.body.size());
  for (const SearchField& f : record.body) body.push_back(SearchTokens(f.text));
  int64_t points = 0;
  std::size_t matched = 0;
  for (const std::vector<std::string>& word : query.words) {
    const bool in_title = Holds(title, word);
    int64_t best_body = -1;
    for (std::size_t f = 0; f < body.size(); ++f) {
      if (record.body[f].weight > best_body && Holds(body[f], word))
        best_body = record.body[f].weight;
    }
    if (!in_title && best_body < 0) continue;
    ++matched;
    if (in_title) points += kTitleWordPoints;
    if (best_body > 0) points += best_body;
  }
  if (matched == 0) return std::nullopt;
  const std::size_t words = query.words.size();
  if (matched == words) points += kAllWordsPoints;
  if (query.phrase.size() >= 2 && Holds(title, query.phrase)) points += kTitlePhrasePoints;
  const int64_t age = std::max<int64_t>(0, now_ms - record.updated_at);
  if (age < kRecencyWindowMs)
    points += kRecencyPoints * (kRecencyWindowMs - age) / kRecencyWindowMs;
  if (record.open) points += kOpenWorkPoints;
  points = points * static_cast<int64_t>(matched) / static_cast<int64_t>(words);
  if (near != nullptr) {
    const std::string key = RefKey(record.kind, record.id);
    if (near->links.contains(key)) points += kNearLinkPoints;
    if (near->relations.contains(key)) points += kNearRelationPoints;
    if (!near->project.empty() && record.project == near->project) points += kNearProjectPoints;
  }
  return points;
}

std::vector<RankedRecord> RankRecords(const SearchQuery& query,
                                      const std::vector<SearchRecord>& records, int64_t now_ms,
                                      const NearRecord* near, std::size_t limit,
                                      std::size_t* matched) {
  std::vector<RankedRecord> ranked;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (std::optional<int64_t> score = ScoreRecord(query, records[i], now_ms, near))
      ranked.push_back({i, *score});
  }
  if (matched != nullptr) *matched = ranked.size();
  auto before = [&](const RankedRecord& a, const RankedRecord& b) {
    if (a.score != b.score) return a.score > b.score;
    const SearchRecord& x = records[a.index];
    const SearchRecord& y = records[b.index];
    if (x.updated_at != y.updated_at) return x.updated_at > y.updated_at;
    if (x.kind != y.kind) return x.kind < y.kind;
    if (x.id != y.id) return x.id < y.id;
    return a.index < b.index;
  };
  std::sort(ranked.begin(), ranked.end(), before);
  std::map<std::string_view, std::size_t> per_kind;
  std::vector<RankedRecord> out;
  for (const RankedRecord& r : ranked) {
    if (out.size() >= limit) break;
    if (++per_kind[records[r.index].kind] > kCandidatesPerKind) continue;
    out.push_back(r);
  }
  return out;
}

}  // namespace ensemble::core::context
