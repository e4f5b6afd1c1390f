#include "core/assistant/local_due_phrase.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include "core/calendar/civil_time.h"

namespace ensemble::core::assistant {
namespace {

int64_t DaysOf(const calendar::WeekDate& d) {
  return calendar::DaysFromCivil(d.year, d.month, d.day);
}

std::string FormatDays(int64_t days) {
  const calendar::CivilDate c = calendar::CivilFromDays(days);
  if (c.year < calendar::kMinYear || c.year > calendar::kMaxYear) return {};
  return calendar::IsoDateText(c);
}

int WeekdayNumberImpl(std::string_view w) {
  static constexpr std::pair<std::string_view, int> kNames[] = {
      {"monday", 1}, {"mon", 1},      {"tuesday", 2}, {"tue", 2},    {"tues", 2},  {"wednesday", 3},
      {"wed", 3},    {"thursday", 4}, {"thu", 4},     {"thur", 4},   {"thurs", 4}, {"friday", 5},
      {"fri", 5},    {"saturday", 6}, {"sat", 6},     {"sunday", 7}, {"sun", 7}};
  for (const auto& [name, n] : kNames) {
    if (w == name) return n;
  }
  return 0;
}

int MonthNumber(std::string_view w) {
  static constexpr std::string_view kLong[] = {"january",   "february", "march",    "april",
                                               "may",       "june",     "july",     "august",
                                               "september", "october",  "november", "december"};
  static constexpr std::string_view kShort[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                                "jul", "aug", "sep", "oct", "nov", "dec"};
  for (int i = 0; i < 12; ++i) {
    if (w == kLong[i] || w == kShort[i]) return i + 1;
  }
  if (w == "sept") return 9;
  return 0;
}

// 1..31 from "3", "03", "3rd", "21st".
int DayOfMonth(std::string_view w) {
  std::size_t i = 0;
  int n = 0;
  while (i < w.size() && i < 2 && w[i] >= '0' && w[i] <= '9') n = n * 10 + (w[i++] - '0');
  if (i == 0) return 0;
  const std::string_view rest = w.substr(i);
  if (!rest.empty() && rest != "st" && rest != "nd" && rest != "rd" && rest != "th") return 0;
  return n >= 1 && n <= 31 ? n : 0;
}

// 1..366 from digits or a number word ("a" counts as one).
int CountImpl(std::string_view w) {
  static constexpr std::string_view kWords[] = {"one", "two",   "three", "four", "five",
                                                "six", "seven", "eight", "nine", "ten"};
  if (w == "a" || w == "an") return 1;
  for (int i = 0; i < 10; ++i) {
    if (w == kWords[i]) return i + 1;
  }
  if (w.empty() || w.size() > 3) return 0;
  int n = 0;
  for (char c : w) {
    if (c < '0' || c > '9') return 0;
    n = n * 10 + (c - '0');
  }
  return n >= 1 && n <= 366 ? n : 0;
}

// The next `month`/`day` on or after today; empty if no such day within a
// year (29 February in a common year).
std::string NextMonthDay(const calendar::WeekDate& today, int month, int day) {
  for (int year = today.year; year <= today.year + 1; ++year) {
    if (day > calendar::DaysInMonth(year, month)) continue;
    const int64_t days = calendar::DaysFromCivil(year, month, day);
    if (days >= DaysOf(today)) return FormatDays(days);
  }
  return {};
}

struct Token {
  std::string_view w;
  std::size_t start = 0;
};

std::vector<Token> SpaceTokens(std::string_view low) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < low.size()) {
    while (i < low.size() && low[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < low.size() && low[i] != ' ') ++i;
    if (i == start) break;
    std::string_view w = low.substr(start, i - start);
    while (!w.empty() && (IsTrailingPunct(w.back()) || w.back() == ':' || w.back() == ')')) {
      w.remove_suffix(1);
    }
    std::size_t lead = 0;
    while (lead < w.size() && w[lead] == '(') ++lead;
    out.push_back({w.substr(lead), start});
  }
  return out;
}

}  // namespace

int WeekdayNumberOf(std::string_view word) { return WeekdayNumberImpl(word); }

int CountWord(std::string_view word) { return CountImpl(word); }

std::string ResolveDuePhrase(std::string_view text, const calendar::WeekDate& today,
                             std::size_t* phrase_start) {
  const std::vector<Token> toks = SpaceTokens(text);
  const int n = static_cast<int>(toks.size());
  auto at = [&](int i) -> std::string_view { return i >= 0 && i < n ? toks[i].w : ""; };
  if (n == 0) return {};
  const int wd = today.iso_weekday;
  int k = n;
  int ahead = -1;  // Days from today.
  std::string date;
  bool needs_preposition = false;
  const std::string_view last = at(n - 1);
  if (last == "today" || last == "tonight" || last == "eod") {
    ahead = 0;
    k = n - 1;
  } else if ((last == "morning" || last == "afternoon" || last == "evening") &&
             at(n - 2) == "this") {
    ahead = 0;
    k = n - 2;
  } else if (last == "day" && at(n - 2) == "of" && at(n - 3) == "end") {
    ahead = 0;
    k = n - 3;
  } else if (last == "day" && at(n - 2) == "the" && at(n - 3) == "of" && at(n - 4) == "end") {
    ahead = 0;
    k = n - 4;
  } else if (last == "tomorrow") {
    if (at(n - 2) == "after" && at(n - 3) == "day") {
      ahead = 2;
      k = at(n - 4) == "the" ? n - 4 : n - 3;
    } else {
      ahead = 1;
      k = n - 1;
    }
  } else if (last == "week" && at(n - 2) == "next") {
    ahead = 8 - wd;
    k = n - 2;
  } else if (last == "week" && at(n - 2) == "this") {
    ahead = 7 - wd;
    k = n - 2;
  } else if (last == "week" && at(n - 2) == "the" && at(n - 3) == "of" && at(n - 4) == "end") {
    ahead = 7 - wd;
    k = n - 4;
  } else if (last == "week" && at(n - 2) == "of" && at(n - 3) == "end") {
    ahead = 7 - wd;
    k = n - 3;
  } else if ((last == "week" || last == "weeks" || last == "day" || last == "days") &&
             at(n - 3) == "in" && CountImpl(at(n - 2)) > 0) {
    const int per = (last == "week" || last == "weeks") ? 7 : 1;
    if (CountImpl(at(n - 2)) * per <= 366) {
      ahead = CountImpl(at(n - 2)) * per;
      k = n - 3;
    }
  } else if (const int w = WeekdayNumberImpl(last); w > 0) {
    if (at(n - 2) == "next") {
      ahead = 8 - wd + w - 1;
      k = n - 2;
    } else if (at(n - 2) == "this") {
      ahead = (w - wd + 7) % 7;
      k = n - 2;
    } else {
      ahead = (w - wd + 7) % 7;
      if (ahead == 0) ahead = 7;
      k = n - 1;
      needs_preposition = true;
    }
  } else if (last.size() == 10 && calendar::ParseWeekDate(last)) {
    date = std::string(last);
    k = n - 1;
  } else if (MonthNumber(at(n - 2)) > 0 && DayOfMonth(last) > 0) {
    date = NextMonthDay(today, MonthNumber(at(n - 2)), DayOfMonth(last));
    k = n - 2;
  } else if (MonthNumber(last) > 0 && DayOfMonth(at(n - 2)) > 0) {
    date = NextMonthDay(today, MonthNumber(last), DayOfMonth(at(n - 2)));
    k = at(n - 3) == "the" ? n - 3 : n - 2;
  } else if (MonthNumber(last) > 0 && at(n - 2) == "of" && DayOfMonth(at(n - 3)) > 0) {
    date = NextMonthDay(today, MonthNumber(last), DayOfMonth(at(n - 3)));
    k = at(n - 4) == "the" ? n - 4 : n - 3;
  }
  if (ahead >= 0) date = calendar::AddDays(today, ahead);
  if (date.empty()) return {};
  int p = k;
  if (at(p - 1) == "the" && at(p) == "end") --p;
  static constexpr std::string_view kPrepositions[] = {"by",   "on",  "due", "before", "until",
                                                       "till", "til", "for", "at"};
  if (std::find(std::begin(kPrepositions), std::end(kPrepositions), at(p - 1)) !=
      std::end(kPrepositions)) {
    --p;
    if (at(p - 1) == "due") --p;
  }
  if (needs_preposition && p == k) return {};
  *phrase_start = toks[p].start;
  return date;
}

}  // namespace ensemble::core::assistant
