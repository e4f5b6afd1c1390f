// Today's date as the turn context states it: a "YYYY-MM-DD" date with its
// weekday and ISO 8601 week. The core has no clock, so the caller passes the
// date (the person's today, in their time zone) and this derives the rest.
//
// Thread-safety: pure functions.

#ifndef ENSEMBLE_CORE_CALENDAR_WEEK_DATE_H_
#define ENSEMBLE_CORE_CALENDAR_WEEK_DATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ensemble::core::calendar {

struct WeekDate {
  int year = 0;
  int month = 0;
  int day = 0;
  int iso_weekday = 0;  // 1 = Monday ... 7 = Sunday
  int iso_year = 0;     // the year its ISO week belongs to (differs near 1 January)
  int iso_week = 0;     // 1..53
};

// The years a "YYYY-MM-DD" date can name.
inline constexpr int kMinYear = 1;
inline constexpr int kMaxYear = 9999;

// The date and its week, or nullopt unless `date` is exactly "YYYY-MM-DD"
// (years kMinYear..kMaxYear) naming a real day.
std::optional<WeekDate> ParseWeekDate(std::string_view date);

// "Monday".
std::string_view WeekdayName(int iso_weekday);

// "2026-W49".
std::string IsoWeekLabel(const WeekDate& date);

// The person's today: the civil date "YYYY-MM-DD" at instant `now_ms` (ms
// since the epoch) in the IANA zone `time_zone`, or in UTC when the name is
// not a known zone (settings only save known ones).
std::string TodayIn(int64_t now_ms, std::string_view time_zone);

// The date `days` days after `date` (before, when negative), "YYYY-MM-DD";
// empty when that falls outside years 1..9999, which ParseWeekDate reads.
// `date` must be valid (ParseWeekDate).
std::string AddDays(const WeekDate& date, int64_t days);

// The instant (ms since the epoch) the civil day `date` starts in the IANA
// zone `time_zone` (UTC when unknown).
int64_t DayStartMs(const WeekDate& date, std::string_view time_zone);

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_WEEK_DATE_H_
