#include "core/meetings/dates.h"

#include <array>
#include <cstdio>

#include "core/calendar/civil_time.h"
#include "core/meetings/scan.h"

namespace ensemble::core::meetings::internal {
namespace {

using scan::IsAsciiAlpha;
using scan::IsDigit;
using scan::IsWordByte;
using scan::Lower;
using scan::Trim;

std::string TwoDigits(int v) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "%02d", v);
  return buffer;
}

std::string IsoDate(int y, int m, int d) { return calendar::IsoDateText({y, m, d}); }

bool ValidDate(int y, int m, int d) {
  return y >= 1970 && y <= 2200 && m >= 1 && m <= 12 && d >= 1 && d <= 31;
}

// Reads up to `max` digits at `i`; returns the count.
size_t Digits(std::string_view s, size_t i, size_t max, int* value) {
  size_t n = 0;
  int v = 0;
  while (i + n < s.size() && n < max && IsDigit(s[i + n])) {
    v = v * 10 + (s[i + n] - '0');
    ++n;
  }
  *value = v;
  return n;
}

// Month names, matched as a whole word or its first three letters (and "Sept").
int MonthAt(std::string_view s, size_t i, size_t* len) {
  static constexpr std::array<std::string_view, 12> kMonths = {
      "january", "february", "march",     "april",   "may",      "june",
      "july",    "august",   "september", "october", "november", "december"};
  for (int m = 0; m < 12; ++m) {
    std::string_view full = kMonths[m];
    size_t n = 0;
    if (scan::StartsWithIgnoreCase(s.substr(i), full)) {
      n = full.size();
    } else if (m == 8 && scan::StartsWithIgnoreCase(s.substr(i), "sept")) {
      n = 4;
    } else if (scan::StartsWithIgnoreCase(s.substr(i), full.substr(0, 3))) {
      n = 3;
    } else {
      continue;
    }
    if (i + n < s.size() && IsAsciiAlpha(s[i + n])) continue;
    if (i + n < s.size() && s[i + n] == '.') ++n;
    *len = n;
    return m + 1;
  }
  return 0;
}

size_t SkipSpaces(std::string_view s, size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return i;
}

// A time right after a date: "9:01AM", "9:01 am", "10:01", "10:01:02".
size_t TimeAt(std::string_view s, size_t i, std::string* out) {
  int h = 0, m = 0, sec = 0;
  size_t n = Digits(s, i, 2, &h);
  if (n == 0 || i + n >= s.size() || (s[i + n] != ':' && s[i + n] != '.')) return 0;
  size_t j = i + n + 1;
  if (Digits(s, j, 2, &m) != 2) return 0;
  j += 2;
  if (j < s.size() && s[j] == ':' && Digits(s, j + 1, 2, &sec) == 2) j += 3;
  size_t k = SkipSpaces(s, j);
  if (k + 1 < s.size() && (Lower(s[k]) == 'a' || Lower(s[k]) == 'p') && Lower(s[k + 1]) == 'm' &&
      (k + 2 >= s.size() || !IsAsciiAlpha(s[k + 2]))) {
    if (h < 1 || h > 12) return 0;
    bool pm = Lower(s[k]) == 'p';
    h = (h % 12) + (pm ? 12 : 0);
    j = k + 2;
  }
  if (h > 23 || m > 59) return 0;
  if (j < s.size() && IsDigit(s[j])) return 0;
  *out = TwoDigits(h) + ":" + TwoDigits(m);
  return j - i;
}

// A named zone: "UTC", "GMT+1", "UTC+05:30", "CET", "Europe/Berlin".
size_t ZoneAt(std::string_view s, size_t i, std::string* out) {
  size_t j = i;
  bool paren = j < s.size() && s[j] == '(';
  if (paren) ++j;
  size_t start = j;
  if (scan::StartsWithIgnoreCase(s.substr(j), "utc") ||
      scan::StartsWithIgnoreCase(s.substr(j), "gmt")) {
    j += 3;
    if (j < s.size() && (s[j] == '+' || s[j] == '-') && j + 1 < s.size() && IsDigit(s[j + 1])) {
      ++j;
      int v = 0;
      j += Digits(s, j, 2, &v);
      if (j + 2 < s.size() && s[j] == ':' && IsDigit(s[j + 1]) && IsDigit(s[j + 2])) j += 3;
    }
    if (j < s.size() && IsAsciiAlpha(s[j])) return 0;
  } else {
    // Area/City (IANA) or an all-capital abbreviation.
    size_t k = j;
    while (k < s.size() && (IsAsciiAlpha(s[k]) || s[k] == '_' || s[k] == '/' || s[k] == '-')) ++k;
    std::string_view word = s.substr(j, k - j);
    size_t slash = word.find('/');
    if (slash != std::string_view::npos && slash > 0 && slash + 1 < word.size() && word[0] >= 'A' &&
        word[0] <= 'Z' && word[slash + 1] >= 'A' && word[slash + 1] <= 'Z') {
      j = k;
    } else {
      if (word.size() < 2 || word.size() > 5) return 0;
      for (char c : word) {
        if (c < 'A' || c > 'Z') return 0;
      }
      if (word == "AM" || word == "PM") return 0;
      j = k;
    }
  }
  *out = std::string(s.substr(start, j - start));
  if (paren && j < s.size() && s[j] == ')') ++j;
  return j - i;
}

// After a date at [.., i): an optional time, then an optional zone.
size_t TimeAndZone(std::string_view s, size_t i, WhenFound* when) {
  size_t j = i;
  size_t k = SkipSpaces(s, j);
  if (k < s.size() && (s[k] == ',' || s[k] == 'T' || s[k] == '@')) k = SkipSpaces(s, k + 1);
  if (scan::StartsWithIgnoreCase(s.substr(k), "at ")) k = SkipSpaces(s, k + 3);
  size_t n = TimeAt(s, k, &when->time);
  if (n == 0) return j;
  j = k + n;
  k = SkipSpaces(s, j);
  std::string zone;
  size_t z = ZoneAt(s, k, &zone);
  if (z > 0) {
    when->zone = zone;
    j = k + z;
  }
  return j;
}

bool WordStart(std::string_view s, size_t i) { return i == 0 || !IsWordByte(s[i - 1]); }

}  // namespace

bool FindDateTime(std::string_view s, WhenFound* when, size_t* begin, size_t* end) {
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (IsDigit(c) && (i == 0 || !IsDigit(s[i - 1]))) {
      int y = 0, m = 0, d = 0;
      size_t n = Digits(s, i, 9, &y);
      if (n == 4 && i + 5 < s.size() && (s[i + 4] == '-' || s[i + 4] == '/' || s[i + 4] == '.')) {
        char sep = s[i + 4];
        size_t a = Digits(s, i + 5, 2, &m);
        if (a == 0 || i + 5 + a >= s.size() || s[i + 5 + a] != sep) continue;
        size_t b = Digits(s, i + 6 + a, 2, &d);
        size_t stop = i + 6 + a + b;
        if (b == 0 || (stop < s.size() && IsDigit(s[stop])) || !ValidDate(y, m, d)) continue;
        WhenFound found{IsoDate(y, m, d), "", ""};
        *end = TimeAndZone(s, stop, &found);
        *begin = i;
        *when = std::move(found);
        return true;
      }
      if (n == 8) {
        int v = 0;
        Digits(s, i, 8, &v);
        y = v / 10000, m = (v / 100) % 100, d = v % 100;
        if (!ValidDate(y, m, d)) continue;
        WhenFound found{IsoDate(y, m, d), "", ""};
        size_t stop = i + 8;
        // Teams and Zoom name files "...-20250314_100102-..." / "GMT20250314-090103".
        if (stop + 4 < s.size() && (s[stop] == '_' || s[stop] == '-' || s[stop] == 'T')) {
          int t = 0;
          size_t tn = Digits(s, stop + 1, 7, &t);
          if (tn == 4 || tn == 6) {
            int hh = tn == 6 ? t / 10000 : t / 100, mm = tn == 6 ? (t / 100) % 100 : t % 100;
            if (hh < 24 && mm < 60) {
              found.time = TwoDigits(hh) + ":" + TwoDigits(mm);
              stop += 1 + tn;
            }
          }
        }
        *begin = i;
        if (i >= 3 && scan::EqualsIgnoreCase(s.substr(i - 3, 3), "gmt")) {
          found.zone = "UTC";
          *begin = i - 3;
        }
        *end = stop;
        *when = std::move(found);
        return true;
      }
      // "14 March 2025".
      if (n <= 2 && WordStart(s, i)) {
        d = y;
        size_t j = SkipSpaces(s, i + n);
        if (j == i + n) continue;
        size_t len = 0;
        m = MonthAt(s, j, &len);
        if (m == 0) continue;
        j = SkipSpaces(s, j + len);
        if (j < s.size() && s[j] == ',') j = SkipSpaces(s, j + 1);
        size_t yn = Digits(s, j, 5, &y);
        if (yn != 4 || !ValidDate(y, m, d)) continue;
        WhenFound found{IsoDate(y, m, d), "", ""};
        *end = TimeAndZone(s, j + 4, &found);
        *begin = i;
        *when = std::move(found);
        return true;
      }
    } else if (IsAsciiAlpha(c) && WordStart(s, i)) {
      // "March 14, 2025", "Mar 14 2025", "Mar 14th, 2025".
      size_t len = 0;
      int m = MonthAt(s, i, &len);
      if (m == 0) continue;
      size_t j = SkipSpaces(s, i + len);
      int d = 0, y = 0;
      size_t dn = Digits(s, j, 2, &d);
      if (dn == 0 || j == i + len) continue;
      j += dn;
      if (j + 1 < s.size() && IsAsciiAlpha(s[j]) && IsAsciiAlpha(s[j + 1])) j += 2;  // 14th
      if (j < s.size() && s[j] == ',') ++j;
      j = SkipSpaces(s, j);
      size_t yn = Digits(s, j, 5, &y);
      if (yn != 4 || !ValidDate(y, m, d)) continue;
      WhenFound found{IsoDate(y, m, d), "", ""};
      *end = TimeAndZone(s, j + 4, &found);
      *begin = i;
      *when = std::move(found);
      return true;
    }
  }
  return false;
}

bool ParseDurationText(std::string_view s, int64_t* seconds) {
  s = Trim(s);
  if (s.empty() || !IsDigit(s[0])) return false;
  int64_t total = 0;
  size_t parts = 0;
  size_t i = 0;
  while (i < s.size()) {
    i = SkipSpaces(s, i);
    if (i >= s.size()) break;
    int v = 0;
    size_t n = Digits(s, i, 4, &v);
    if (n == 0) return false;
    i = SkipSpaces(s, i + n);
    size_t start = i;
    while (i < s.size() && IsAsciiAlpha(s[i])) ++i;
    std::string_view unit = s.substr(start, i - start);
    int64_t scale = 0;
    for (auto [names, value] : {std::pair<std::array<std::string_view, 5>, int64_t>{
                                    {"h", "hr", "hrs", "hour", "hours"}, 3600},
                                {{"m", "min", "mins", "minute", "minutes"}, 60},
                                {{"s", "sec", "secs", "second", "seconds"}, 1}}) {
      for (std::string_view name : names) {
        if (scan::EqualsIgnoreCase(unit, name)) scale = value;
      }
    }
    if (scale == 0) return false;
    total += v * scale;
    ++parts;
    if (i < s.size() && s[i] == ',') ++i;
  }
  if (parts == 0) return false;
  *seconds = total;
  return true;
}

}  // namespace ensemble::core::meetings::internal
