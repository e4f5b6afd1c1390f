// The time zones one iCalendar object refers to: its TZIDs resolved to the
// built-in IANA data, the calendar's own VTIMEZONE definitions, or Windows
// names, plus the zone floating times are read in. One instance per parsed
// calendar; not thread-safe (it caches).

#ifndef ENSEMBLE_CORE_CALENDAR_ICS_ZONES_H_
#define ENSEMBLE_CORE_CALENDAR_ICS_ZONES_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "core/calendar/ics_parser.h"
#include "core/calendar/time_zone.h"

namespace ensemble::core::calendar {

// Transitions one VTIMEZONE observance (STANDARD or DAYLIGHT) may yield.
inline constexpr size_t kMaxObservanceTransitions = 1000;

// A VTIMEZONE's offsets: its observances' onsets within [from, to] (UTC
// seconds, widened by a year each side), with every one-off onset kept.
// nullptr when the definition has no usable observance.
std::shared_ptr<const TimeZone> BuildVTimezone(const IcsComponent& vtimezone, int64_t from,
                                               int64_t to, int64_t* budget);

class CalendarZones {
 public:
  // `from`/`to` bound the instants VTIMEZONE transitions are computed for.
  CalendarZones(const IcsComponent& vcalendar, int64_t from, int64_t to,
                std::string_view floating_zone, int64_t* budget);

  // The zone a TZID names: an exact IANA name first, then the calendar's
  // VTIMEZONE, then Windows names and vendor-prefixed names. nullptr if none.
  const TimeZone* Find(std::string_view tzid);
  const TimeZone& floating() const { return *floating_; }

 private:
  std::map<std::string, const IcsComponent*, std::less<>> definitions_;
  std::map<std::string, std::shared_ptr<const TimeZone>, std::less<>> cache_;
  std::shared_ptr<const TimeZone> floating_;
  int64_t from_, to_;
  int64_t* budget_;
};

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_ICS_ZONES_H_
