#include "core/calendar/ics_values.h"

#include "core/calendar/civil_time.h"

namespace ensemble::core::calendar {
namespace {

bool Digits(std::string_view s, size_t at, size_t n, int64_t* out) {
  if (at + n > s.size()) return false;
  int64_t v = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

// Largest DURATION component accepted: about 27 years in seconds.
constexpr int64_t kMaxDurationComponent = 1'000'000'000;

}  // namespace

std::optional<IcsDateTime> ParseIcsDateTime(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  int64_t y, mo, d;
  if (!Digits(s, 0, 4, &y) || !Digits(s, 4, 2, &mo) || !Digits(s, 6, 2, &d)) return std::nullopt;
  if (mo < 1 || mo > 12 || d < 1 || d > DaysInMonth(y, static_cast<int>(mo))) return std::nullopt;
  IcsDateTime out;
  if (s.size() == 8) {
    out.is_date = true;
    out.local = DaysFromCivil(y, static_cast<int>(mo), static_cast<int>(d)) * kSecondsPerDay;
    return out;
  }
  int64_t h, mi, sec;
  if (s.size() < 15 || (s[8] != 'T' && s[8] != 't') || !Digits(s, 9, 2, &h) ||
      !Digits(s, 11, 2, &mi) || !Digits(s, 13, 2, &sec) || h > 24 || mi > 59 || sec > 60) {
    return std::nullopt;
  }
  if (s.size() == 16) {
    if (s[15] != 'Z' && s[15] != 'z') return std::nullopt;
    out.is_utc = true;
  } else if (s.size() != 15) {
    return std::nullopt;
  }
  if (sec == 60) sec = 59;  // A leap second reads as the second before.
  out.local = LocalSeconds(y, static_cast<int>(mo), static_cast<int>(d), static_cast<int>(h),
                           static_cast<int>(mi), static_cast<int>(sec));
  return out;
}

std::optional<IcsDuration> ParseIcsDuration(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  int sign = 1;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    sign = s[0] == '-' ? -1 : 1;
    s.remove_prefix(1);
  }
  if (s.empty() || (s[0] != 'P' && s[0] != 'p')) return std::nullopt;
  s.remove_prefix(1);
  IcsDuration out;
  bool in_time = false, any = false;
  int64_t n = 0;
  int digits = 0;
  for (char c : s) {
    if (c >= '0' && c <= '9') {
      if (++digits > 10) return std::nullopt;
      n = n * 10 + (c - '0');
      continue;
    }
    const char u = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    if (u == 'T') {
      if (in_time || digits) return std::nullopt;
      in_time = true;
      continue;
    }
    if (!digits || n > kMaxDurationComponent) return std::nullopt;
    if (!in_time && u == 'W') {
      out.days += n * 7;
    } else if (!in_time && u == 'D') {
      out.days += n;
    } else if (in_time && u == 'H') {
      out.seconds += n * 3600;
    } else if (in_time && u == 'M') {
      out.seconds += n * 60;
    } else if (in_time && u == 'S') {
      out.seconds += n;
    } else {
      return std::nullopt;
    }
    any = true;
    n = 0;
    digits = 0;
  }
  if (!any || digits) return std::nullopt;
  out.days *= sign;
  out.seconds *= sign;
  return out;
}

std::optional<int32_t> ParseUtcOffset(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  if (s.size() != 5 && s.size() != 7) return std::nullopt;
  if (s[0] != '+' && s[0] != '-') return std::nullopt;
  int64_t h, m, sec = 0;
  if (!Digits(s, 1, 2, &h) || !Digits(s, 3, 2, &m) || (s.size() == 7 && !Digits(s, 5, 2, &sec))) {
    return std::nullopt;
  }
  if (h > 23 || m > 59 || sec > 59) return std::nullopt;
  const int32_t v = static_cast<int32_t>(h * 3600 + m * 60 + sec);
  return s[0] == '-' ? -v : v;
}

}  // namespace ensemble::core::calendar
