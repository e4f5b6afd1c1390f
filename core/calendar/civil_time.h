// Civil (proleptic Gregorian) calendar arithmetic on plain integers, shared by
// the time-zone rules, the recurrence expander and the iCalendar reader.
// "Local seconds" are a wall-clock date and time counted as if it were UTC:
// days since 1970-01-01 * 86400 + seconds into the day. Stateless.

#ifndef ENSEMBLE_CORE_CALENDAR_CIVIL_TIME_H_
#define ENSEMBLE_CORE_CALENDAR_CIVIL_TIME_H_

#include <cstdint>
#include <cstdio>
#include <string>

namespace ensemble::core::calendar {

inline constexpr int64_t kSecondsPerDay = 86400;

struct CivilDate {
  int64_t year = 1970;
  int month = 1;  // 1..12
  int day = 1;    // 1..31
};

inline int64_t FloorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

inline bool IsLeapYear(int64_t y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }

inline int DaysInMonth(int64_t y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeapYear(y) ? 29 : kDays[m - 1];
}

inline int DaysInYear(int64_t y) { return IsLeapYear(y) ? 366 : 365; }

// Days since 1970-01-01 (H. Hinnant's algorithm); valid for any month 1..12.
inline int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

inline CivilDate CivilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  CivilDate out;
  out.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  out.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  out.year = yoe + era * 400 + (out.month <= 2);
  return out;
}

// "YYYY-MM-DD" (a year outside 0..9999 as it is).
inline std::string IsoDateText(const CivilDate& d) {
  char buf[48];  // Room for any field values, which the compiler cannot rule out.
  std::snprintf(buf, sizeof buf, "%04lld-%02d-%02d", static_cast<long long>(d.year), d.month,
                d.day);
  return buf;
}

// 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday).
inline int WeekdayFromDays(int64_t days) { return static_cast<int>(((days % 7) + 7 + 4) % 7); }

inline int64_t LocalSeconds(int64_t y, int mo, int d, int h, int mi, int s) {
  return DaysFromCivil(y, mo, d) * kSecondsPerDay + h * 3600 + mi * 60 + s;
}

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_CIVIL_TIME_H_
