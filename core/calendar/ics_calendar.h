// Reads an iCalendar feed into CalendarEvent copies: one per occurrence that
// overlaps a window. Handles TZID (IANA, Windows names, VTIMEZONE), floating
// and UTC times, all-day dates (end exclusive), RRULE, RDATE (incl. PERIOD),
// EXDATE and RECURRENCE-ID overrides (a cancelled override removes its
// occurrence). The core has no clock: the caller passes the window, usually
// DefaultWindow(now). Stateless; safe to call from several threads.

#ifndef ENSEMBLE_CORE_CALENDAR_ICS_CALENDAR_H_
#define ENSEMBLE_CORE_CALENDAR_ICS_CALENDAR_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/calendar/event.h"

namespace ensemble::core::calendar {

// The spec's Today window: 14 days back to 42 days ahead of now.
inline constexpr int64_t kWindowDaysBack = 14;
inline constexpr int64_t kWindowDaysAhead = 42;
// At most this many events per calendar per window (the earliest are kept).
inline constexpr size_t kMaxEventsPerWindow = 2000;
// Recurrence periods one calendar may step through in total (all its rules
// and zone definitions), so a hostile feed cannot make expansion slow.
inline constexpr int64_t kMaxRecurrenceWork = 4'000'000;

struct TimeWindow {
  int64_t from = 0;  // UTC seconds, inclusive.
  int64_t to = 0;    // UTC seconds, exclusive.
};

TimeWindow DefaultWindow(int64_t now_utc);

struct ExpandOptions {
  TimeWindow window;
  // Zone for floating times (IANA or Windows name). Empty: the feed's
  // X-WR-TIMEZONE, else UTC.
  std::string floating_zone;
  size_t max_events = kMaxEventsPerWindow;
  bool keep_cancelled = false;  // Keep STATUS:CANCELLED events (not overrides).
};

struct ExpandedCalendar {
  // Sorted by start, then end, uid and id. Timed events overlap the window;
  // all-day events' dates overlap it.
  std::vector<CalendarEvent> events;
  bool truncated = false;             // More than max_events matched.
  std::vector<std::string> warnings;  // Unknown zones, skipped events...
};

// `calendar` names the feed (CalendarEvent::calendar, and part of each id).
// ICS_NOT_CALENDAR when the text is not an iCalendar object.
Result<ExpandedCalendar> ExpandIcs(std::string_view text, std::string_view calendar,
                                   const ExpandOptions& options);

// Parses "2026-03-08T09:00:00-05:00", "...Z", "2026-03-08T09:00" (UTC) or
// "2026-03-08" (midnight UTC) to UTC seconds.
Result<int64_t> ParseIsoInstant(std::string_view text);

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_ICS_CALENDAR_H_
