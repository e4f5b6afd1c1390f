#include "core/calendar/posix_tz.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "core/calendar/civil_time.h"

namespace ensemble::core::calendar {
namespace {

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}
  bool done() const { return pos_ >= s_.size(); }
  char peek() const { return done() ? '\0' : s_[pos_]; }
  bool Eat(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  bool Name() {
    if (Eat('<')) {
      const size_t end = s_.find('>', pos_);
      if (end == std::string_view::npos) return false;
      pos_ = end + 1;
      return true;
    }
    const size_t start = pos_;
    while (!done() && std::isalpha(static_cast<unsigned char>(peek()))) ++pos_;
    return pos_ - start >= 3;
  }
  // [+-]hh[:mm[:ss]] in seconds.
  bool Hms(int32_t* out) {
    int sign = 1;
    if (Eat('-')) {
      sign = -1;
    } else {
      Eat('+');
    }
    int32_t parts[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
      if (i > 0 && !Eat(':')) break;
      int32_t n = 0;
      int digits = 0;
      while (!done() && std::isdigit(static_cast<unsigned char>(peek())) && digits < 3) {
        n = n * 10 + (s_[pos_++] - '0');
        ++digits;
      }
      if (digits == 0) return false;
      parts[i] = n;
    }
    if (parts[0] > 167 || parts[1] > 59 || parts[2] > 59) return false;
    *out = sign * (parts[0] * 3600 + parts[1] * 60 + parts[2]);
    return true;
  }
  bool Number(int* out, int max) {
    int n = 0, digits = 0;
    while (!done() && std::isdigit(static_cast<unsigned char>(peek())) && digits < 4) {
      n = n * 10 + (s_[pos_++] - '0');
      ++digits;
    }
    if (digits == 0 || n > max) return false;
    *out = n;
    return true;
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

std::optional<PosixTz> PosixTz::Parse(std::string_view spec) {
  Reader r(spec);
  PosixTz tz;
  int32_t std_west = 0;
  if (!r.Name() || !r.Hms(&std_west)) return std::nullopt;
  tz.std_offset_ = -std_west;
  if (r.done()) return tz;
  if (!r.Name()) return std::nullopt;
  tz.has_dst_ = true;
  tz.dst_offset_ = tz.std_offset_ + 3600;
  if (r.peek() != ',') {
    int32_t dst_west = 0;
    if (!r.Hms(&dst_west)) return std::nullopt;
    tz.dst_offset_ = -dst_west;
  }
  for (Rule* rule : {&tz.start_, &tz.end_}) {
    if (!r.Eat(',')) return std::nullopt;
    if (r.Eat('M')) {
      rule->kind = 'M';
      if (!r.Number(&rule->month, 12) || rule->month < 1 || !r.Eat('.') ||
          !r.Number(&rule->week, 5) || rule->week < 1 || !r.Eat('.') ||
          !r.Number(&rule->day, 6)) {
        return std::nullopt;
      }
    } else if (r.Eat('J')) {
      rule->kind = 'J';
      if (!r.Number(&rule->day, 365) || rule->day < 1) return std::nullopt;
    } else {
      rule->kind = 'N';
      if (!r.Number(&rule->day, 365)) return std::nullopt;
    }
    if (r.Eat('/') && !r.Hms(&rule->time)) return std::nullopt;
  }
  if (!r.done()) return std::nullopt;
  return tz;
}

int64_t PosixTz::RuleLocal(int64_t year, const Rule& rule) {
  const int64_t jan1 = DaysFromCivil(year, 1, 1);
  int64_t day;
  if (rule.kind == 'J') {
    // Julian day 1..365, February 29 never counted.
    day = jan1 + rule.day - 1 + (IsLeapYear(year) && rule.day >= 60 ? 1 : 0);
  } else if (rule.kind == 'N') {
    day = jan1 + rule.day;
  } else {
    const int64_t first = DaysFromCivil(year, rule.month, 1);
    day = first + (rule.day - WeekdayFromDays(first) + 7) % 7 + (rule.week - 1) * 7;
    while (day >= first + DaysInMonth(year, rule.month)) day -= 7;  // Week 5: the last.
  }
  return day * kSecondsPerDay + rule.time;
}

int32_t PosixTz::OffsetAt(int64_t utc) const {
  int64_t from, to;
  return OffsetSpan(utc, &from, &to);
}

int32_t PosixTz::OffsetSpan(int64_t utc, int64_t* from, int64_t* to) const {
  *from = utc;
  *to = utc + 1;
  if (!has_dst_) {
    *from = INT64_MIN;
    *to = INT64_MAX;
    return std_offset_;
  }
  const int64_t year = CivilFromDays(FloorDiv(utc + std_offset_, kSecondsPerDay)).year;
  // Fast path: both of this year's transitions well inside the year, and the
  // instant not near New Year, so the neighbouring years cannot matter.
  {
    constexpr int64_t kMargin = 14 * kSecondsPerDay;
    const int64_t year_start = DaysFromCivil(year, 1, 1) * kSecondsPerDay - std_offset_;
    const int64_t year_end = DaysFromCivil(year + 1, 1, 1) * kSecondsPerDay - std_offset_;
    const int64_t start = RuleLocal(year, start_) - std_offset_;
    const int64_t end = RuleLocal(year, end_) - dst_offset_;
    if (start != end && start > year_start + kMargin && start < year_end - kMargin &&
        end > year_start + kMargin && end < year_end - kMargin && utc > year_start + kMargin &&
        utc < year_end - kMargin) {
      const bool dst = start < end ? (utc >= start && utc < end) : (utc >= start || utc < end);
      // The span between the transitions (or the year's safe edges) around utc.
      const int64_t lo = std::min(start, end), hi = std::max(start, end);
      if (utc < lo) {
        *from = year_start + kMargin;
        *to = lo;
      } else if (utc < hi) {
        *from = lo;
        *to = hi;
      } else {
        *from = hi;
        *to = year_end - kMargin;
      }
      return dst ? dst_offset_ : std_offset_;
    }
  }
  // Check this year's and the neighbours' transitions: a rule near New Year
  // can move an instant into the adjacent year's DST period.
  int32_t offset = std_offset_;
  int64_t latest = INT64_MIN;
  for (int64_t y = year - 1; y <= year + 1; ++y) {
    const int64_t start = RuleLocal(y, start_) - std_offset_;
    const int64_t end = RuleLocal(y, end_) - dst_offset_;
    if (start <= utc && start >= latest) {  // >=: all-year DST ends as it restarts.
      latest = start;
      offset = dst_offset_;
    }
    if (end <= utc && end > latest) {
      latest = end;
      offset = std_offset_;
    }
  }
  return offset;
}

}  // namespace ensemble::core::calendar
