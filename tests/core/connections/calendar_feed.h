// Builds small iCalendar feeds for the connected-app tests: one VEVENT per
// Meeting, all on days around Monday 30 November 2026.

#ifndef ENSEMBLE_TESTS_CORE_CONNECTIONS_CALENDAR_FEED_H_
#define ENSEMBLE_TESTS_CORE_CONNECTIONS_CALENDAR_FEED_H_

#include <string>
#include <utility>
#include <vector>

namespace ensemble::calendar_feed_test {

struct Meeting {
  std::string start;  // "20261201T100000Z"
  std::string organizer;
  std::vector<std::pair<std::string, std::string>> attendees;  // {address, CN}
  bool cancelled = false;
};

inline std::string Feed(const std::vector<Meeting>& meetings) {
  std::string out = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n";
  int n = 0;
  for (const Meeting& m : meetings) {
    const std::string number = std::to_string(++n);
    out += "BEGIN:VEVENT\r\nUID:m" + number + "@test\r\nDTSTART:" + m.start +
           "\r\nDURATION:PT30M\r\nSUMMARY:Meeting " + number + "\r\n";
    if (m.cancelled) out += "STATUS:CANCELLED\r\n";
    if (!m.organizer.empty()) out += "ORGANIZER:mailto:" + m.organizer + "\r\n";
    for (const auto& [address, cn] : m.attendees) {
      out +=
          "ATTENDEE" + (cn.empty() ? std::string() : ";CN=" + cn) + ":mailto:" + address + "\r\n";
    }
    out += "END:VEVENT\r\n";
  }
  return out + "END:VCALENDAR\r\n";
}

}  // namespace ensemble::calendar_feed_test

#endif  // ENSEMBLE_TESTS_CORE_CONNECTIONS_CALENDAR_FEED_H_
