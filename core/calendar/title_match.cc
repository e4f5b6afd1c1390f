#include "core/calendar/title_match.h"

#include <algorithm>
#include <array>

#include "core/text/unicode_normalize.h"
#include "core/text/utf8.h"

namespace ensemble::core::calendar {
namespace {

// Prefixes mail clients put before a forwarded or answered invitation's
// subject, lower case, each followed by ':' in the title. Longest first where
// one starts another.
constexpr std::array<std::string_view, 22> kMailPrefixes = {
    "updated invitation with note",
    "updated invitation",
    "invitation with note",
    "invitation",
    "tentatively accepted",
    "accepted",
    "declined",
    "tentative",
    "canceled event",
    "cancelled event",
    "canceled",
    "cancelled",
    "updated event",
    "new event",
    "fwd",
    "fw",
    "re",
    "aw",
    "wg",
    "tr",
    "sv",
    "antw",
};

// The longest prefix plus room for spaces before its colon.
constexpr size_t kMaxPrefixChars = 40;

// HOLIDAY_PHRASES: spellings of one holiday, rewritten to one name. Matched
// as whole words on normalized titles; longer phrases first where one starts
// another.
struct Phrase {
  std::string_view from, to;
};
constexpr Phrase kHolidayPhrases[] = {
    {"christmas day", "christmas"},
    {"xmas", "christmas"},
    {"deepavali", "diwali"},
    {"deepawali", "diwali"},
    {"dipavali", "diwali"},
    {"divali", "diwali"},
    {"chinese new year", "lunar new year"},
    {"spring festival", "lunar new year"},
    {"seollal", "lunar new year"},
    {"new years", "new year"},
    {"chanukkah", "hanukkah"},
    {"chanukah", "hanukkah"},
    {"hanukah", "hanukkah"},
    {"eid ul fitr", "eid al fitr"},
    {"eid el fitr", "eid al fitr"},
    {"eid alfitr", "eid al fitr"},
    {"hari raya puasa", "eid al fitr"},
    {"hari raya aidilfitri", "eid al fitr"},
    {"eid ul adha", "eid al adha"},
    {"eid el adha", "eid al adha"},
    {"eid aladha", "eid al adha"},
    {"bakrid", "eid al adha"},
    {"hari raya haji", "eid al adha"},
    {"martin luther king jr", "martin luther king"},
    {"martin luther king junior", "martin luther king"},
    {"mlk", "martin luther king"},
    {"washingtons birthday", "presidents"},
    {"fourth of july", "independence"},
    {"4th of july", "independence"},
    {"july 4th", "independence"},
    {"labour", "labor"},
    {"saint patricks", "st patricks"},
    {"st paddys", "st patricks"},
    {"easter sunday", "easter"},
    {"yom kipur", "yom kippur"},
    {"rosh hashana", "rosh hashanah"},
    {"pesach", "passover"},
    {"wesak", "vesak"},
};
// HOLIDAY_STOPWORDS: words calendars add around a holiday's name.
constexpr std::string_view kHolidayStopwords[] = {
    "day", "holiday", "observed", "the", "public", "bank", "national", "federal",
};
// Words that make a different holiday of the same name ("Christmas Eve").
constexpr std::string_view kHolidayDistinguishers[] = {"eve"};

// For each ASCII byte: the lower-case letter or digit it is, 1 for an
// apostrophe (dropped, joining the word), 0 for a separator.
constexpr std::array<char, 128> kAsciiWordChar = [] {
  std::array<char, 128> t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = static_cast<char>(c);
  for (int c = 'a'; c <= 'z'; ++c) t[c] = static_cast<char>(c);
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = static_cast<char>(c + 32);
  t['\''] = 1;
  return t;
}();

bool IsApostrophe(char32_t c) { return c == U'\'' || c == 0x2019 || c == 0x2018 || c == 0x02BC; }

// Skips leading mail prefixes of lower-case (or, with fold_case, any-case
// ASCII) text; returns the rest without leading spaces.
std::string_view SkipPrefixes(std::string_view s, bool fold_case) {
  auto lower = [fold_case](char c) {
    return fold_case && c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c;
  };
  for (;;) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    // Most titles have no colon near the start: nothing to drop.
    if (s.substr(0, kMaxPrefixChars).find(':') == std::string_view::npos) return s;
    bool dropped = false;
    for (std::string_view p : kMailPrefixes) {
      if (s.size() <= p.size()) continue;
      size_t i = 0;
      while (i < p.size() && lower(s[i]) == p[i]) ++i;
      if (i < p.size()) continue;
      while (i < s.size() && s[i] == ' ') ++i;
      if (i < s.size() && s[i] == ':') {
        s.remove_prefix(i + 1);
        dropped = true;
        break;
      }
    }
    if (!dropped) return s;
  }
}

// Appends the words of `s` to `out`, separated by single spaces; ASCII
// letters are lower-cased on the way (the rest is lower case already).
void AppendWords(std::string_view s, std::string* out) {
  const size_t start = out->size();
  bool pending_space = false;
  auto begin_char = [&] {
    if (pending_space && out->size() > start) out->push_back(' ');
    pending_space = false;
  };
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      ++i;
      const char mapped = kAsciiWordChar[b];
      if (mapped > 1) {
        begin_char();
        out->push_back(mapped);
      } else if (mapped == 0) {
        pending_space = true;
      }
      continue;
    }
    const text::Utf8Step step = text::DecodeUtf8Step(s, i);
    const char32_t c = step.code_point;
    if (text::IsWordCodePoint(c)) {
      begin_char();
      text::AppendUtf8(c, out);
    } else if (!IsApostrophe(c)) {
      pending_space = true;
    }
    i += step.length;
  }
}

template <typename F>
void ForEachWord(std::string_view s, F&& f) {
  size_t i = 0;
  while (i < s.size()) {
    size_t j = s.find(' ', i);
    if (j == std::string_view::npos) j = s.size();
    if (j > i) f(s.substr(i, j - i));
    i = j + 1;
  }
}

bool HasWord(std::string_view s, std::string_view word) { return ContainsWords(s, word); }

}  // namespace

void AppendNormalizedTitle(std::string_view title, std::string* out) {
  bool ascii = true;
  for (char c : title) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {  // NFKC leaves ASCII as is; AppendWords lower-cases it.
    AppendWords(SkipPrefixes(title, true), out);
    return;
  }
  std::u32string cps;
  cps.reserve(title.size());
  text::DecodeUtf8(title, &cps);
  text::NfkcInPlace(&cps);
  std::string lowered;
  lowered.reserve(title.size() + 8);
  for (char32_t c : cps) text::AppendUtf8(text::SimpleLowercase(c), &lowered);
  AppendWords(SkipPrefixes(lowered, false), out);
}

std::string NormalizeTitle(std::string_view title) {
  std::string out;
  out.reserve(title.size());
  AppendNormalizedTitle(title, &out);
  return out;
}

std::string_view StripMailPrefixes(std::string_view title) {
  const std::string_view rest = SkipPrefixes(title, true);
  return text::Trim(rest).empty() ? text::Trim(title) : text::Trim(rest);
}

size_t AppendWordHashes(std::string_view normalized, std::vector<uint64_t>* out) {
  const size_t begin = out->size();
  constexpr uint64_t kBasis = 1469598103934665603ull;  // FNV-1a.
  uint64_t h = kBasis;
  bool in_word = false;
  for (char c : normalized) {
    if (c == ' ') {
      if (in_word) out->push_back(h);
      h = kBasis;
      in_word = false;
      continue;
    }
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
    in_word = true;
  }
  if (in_word) out->push_back(h);
  const auto first = out->begin() + static_cast<std::ptrdiff_t>(begin);
  if (out->end() - first > 1) {
    std::sort(first, out->end());
    out->erase(std::unique(first, out->end()), out->end());
  }
  return out->size() - begin;
}

size_t SharedWords(std::span<const uint64_t> a, std::span<const uint64_t> b) {
  size_t i = 0, j = 0, shared = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] < b[j]) {
      ++i;
    } else if (b[j] < a[i]) {
      ++j;
    } else {
      ++shared, ++i, ++j;
    }
  }
  return shared;
}

double WordJaccard(std::span<const uint64_t> a, std::span<const uint64_t> b) {
  const size_t shared = SharedWords(a, b);
  const size_t all = a.size() + b.size() - shared;
  return all == 0 ? 0.0 : static_cast<double>(shared) / static_cast<double>(all);
}

bool ContainsWords(std::string_view outer, std::string_view inner) {
  if (inner.empty() || inner.size() > outer.size()) return false;
  for (size_t pos = outer.find(inner); pos != std::string_view::npos;
       pos = outer.find(inner, pos + 1)) {
    const size_t end = pos + inner.size();
    if ((pos == 0 || outer[pos - 1] == ' ') && (end == outer.size() || outer[end] == ' ')) {
      return true;
    }
  }
  return false;
}

bool NormalizedTitlesMatch(std::string_view a, std::span<const uint64_t> a_words,
                           std::string_view b, std::span<const uint64_t> b_words) {
  if (a.empty() || b.empty()) return false;
  if (a == b) return true;
  const std::string_view inner = a.size() < b.size() ? a : b;
  const std::string_view outer = a.size() < b.size() ? b : a;
  if (text::CountCodePoints(inner) >= kMinContainedTitleChars && ContainsWords(outer, inner)) {
    return true;
  }
  return WordJaccard(a_words, b_words) >= kTitleJaccardThreshold;
}

bool TitlesMatch(std::string_view a, std::string_view b) {
  const std::string na = NormalizeTitle(a), nb = NormalizeTitle(b);
  std::vector<uint64_t> wa, wb;
  AppendWordHashes(na, &wa);
  AppendWordHashes(nb, &wb);
  return NormalizedTitlesMatch(na, wa, nb, wb);
}

std::string HolidayKey(std::string_view normalized) {
  std::vector<std::string_view> words;
  ForEachWord(normalized, [&](std::string_view w) { words.push_back(w); });
  std::string out;
  auto emit = [&out](std::string_view w) {
    if (!out.empty()) out.push_back(' ');
    out.append(w);
  };
  size_t i = 0;
  while (i < words.size()) {
    bool rewritten = false;
    for (const Phrase& phrase : kHolidayPhrases) {
      size_t k = i;
      bool match = true;
      ForEachWord(phrase.from, [&](std::string_view w) {
        if (!match) return;
        if (k < words.size() && words[k] == w) {
          ++k;
        } else {
          match = false;
        }
      });
      if (match) {
        emit(phrase.to);
        i = k;
        rewritten = true;
        break;
      }
    }
    if (rewritten) continue;
    if (std::find(std::begin(kHolidayStopwords), std::end(kHolidayStopwords), words[i]) ==
        std::end(kHolidayStopwords)) {
      emit(words[i]);
    }
    ++i;
  }
  return out;
}

bool HolidayKeysMatch(std::string_view a, std::string_view b) {
  for (std::string_view w : kHolidayDistinguishers) {
    if (HasWord(a, w) != HasWord(b, w)) return false;
  }
  std::vector<uint64_t> wa, wb;
  AppendWordHashes(a, &wa);
  AppendWordHashes(b, &wb);
  return NormalizedTitlesMatch(a, wa, b, wb);
}

}  // namespace ensemble::core::calendar
