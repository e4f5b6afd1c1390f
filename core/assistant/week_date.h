// Today's date as the turn context states it: a "YYYY-MM-DD" date with its
// weekday and ISO 8601 week. The core has no clock, so the caller passes the
// date (the person's today, in their time zone) and this derives the rest.
//
// Thread-safety: pure functions.

#ifndef ENSEMBLE_CORE_ASSISTANT_WEEK_DATE_H_
#define ENSEMBLE_CORE_ASSISTANT_WEEK_DATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ensemble::core::assistant {

struct WeekDate {
  int year = 0;
  int month = 0;
  int day = 0;
  int iso_weekday = 0;  // 1 = Monday ... 7 = Sunday
  int iso_year = 0;     // the year its ISO week belongs to (differs near 1 January)
  int iso_week = 0;     // 1..53
};

// The date and its week, or nullopt unless `date` is exactly "YYYY-MM-DD"
// (years 0001..9999) naming a real day.
std::optional<WeekDate> ParseWeekDate(std::string_view date);

// "Monday".
std::string_view WeekdayName(int iso_weekday);

// "2026-W49".
std::string IsoWeekLabel(const WeekDate& date);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_WEEK_DATE_H_
