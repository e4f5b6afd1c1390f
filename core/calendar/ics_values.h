// iCalendar value types (RFC 5545 §3.3): DATE, DATE-TIME, DURATION, PERIOD
// and UTC-OFFSET, parsed to plain integers. Stateless.

#ifndef ENSEMBLE_CORE_CALENDAR_ICS_VALUES_H_
#define ENSEMBLE_CORE_CALENDAR_ICS_VALUES_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace ensemble::core::calendar {

struct IcsDateTime {
  int64_t local = 0;     // Local seconds (civil_time.h); for a DATE, its midnight.
  bool is_date = false;  // VALUE=DATE ("20261225").
  bool is_utc = false;   // Ends in "Z": `local` is then UTC.
};

// "20261225", "20261225T090000" or "20261225T090000Z"; nullopt if invalid.
std::optional<IcsDateTime> ParseIcsDateTime(std::string_view text);

// A DURATION split into its nominal days (weeks count 7; added on the wall
// clock) and exact seconds.
struct IcsDuration {
  int64_t days = 0;
  int64_t seconds = 0;
};
// "P1D", "PT1H30M", "-PT15M", "P2W", "P1DT2H"; nullopt if invalid.
std::optional<IcsDuration> ParseIcsDuration(std::string_view text);

// "+0100", "-0530", "+013045" to seconds east of UTC; nullopt if invalid.
std::optional<int32_t> ParseUtcOffset(std::string_view text);

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_ICS_VALUES_H_
