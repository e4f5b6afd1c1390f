// Helpers for the iCalendar tests: wrap VEVENT lines in a calendar, expand
// it over a window, and list occurrences as ISO strings.

#ifndef ENSEMBLE_TESTS_CORE_CALENDAR_ICS_TEST_UTIL_H_
#define ENSEMBLE_TESTS_CORE_CALENDAR_ICS_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/calendar/event.h"
#include "core/calendar/ics_calendar.h"

namespace ensemble::core::calendar::testing {

inline int64_t Iso(const std::string& text) {
  auto r = ParseIsoInstant(text);
  EXPECT_TRUE(r.ok()) << text;
  return r.ok() ? *r : 0;
}

// A VCALENDAR holding one VEVENT with `lines` (CRLF-separated here).
inline std::string OneEvent(const std::string& lines, const std::string& extra = "") {
  return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + extra +
         "BEGIN:VEVENT\r\nUID:event-1\r\nSUMMARY:Test\r\n" + lines +
         "END:VEVENT\r\nEND:VCALENDAR\r\n";
}

inline ExpandedCalendar Expand(const std::string& ics, const std::string& from,
                               const std::string& to) {
  ExpandOptions options;
  options.window = {Iso(from), Iso(to)};
  auto r = ExpandIcs(ics, "test", options);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : ExpandedCalendar();
}

// Starts as ISO 8601 with the event's offset ("1997-09-02T09:00:00-04:00").
inline std::vector<std::string> Starts(const ExpandedCalendar& cal) {
  std::vector<std::string> out;
  for (const CalendarEvent& e : cal.events) {
    out.push_back(e.all_day ? FormatIsoDate(e.start) : FormatIsoTime(e.start, e.start_offset));
  }
  return out;
}

// The occurrences of one America/New_York event whose DTSTART is `dtstart`
// ("19970902T090000") with `rule_lines`, from 1996 to 2008.
inline std::vector<std::string> NewYork(const std::string& dtstart, const std::string& rule_lines) {
  return Starts(Expand(OneEvent("DTSTART;TZID=America/New_York:" + dtstart +
                                "\r\nDURATION:PT1H\r\n" + rule_lines),
                       "1996-01-01T00:00:00Z", "2008-01-01T00:00:00Z"));
}

}  // namespace ensemble::core::calendar::testing

#endif  // ENSEMBLE_TESTS_CORE_CALENDAR_ICS_TEST_UTIL_H_
