// The people on a calendar's events (spec 004 §2 "Sync people": contact
// metadata only): attendees and organizers with an address, one entry per
// address, read from the events of the Today window (14 days back to 42
// ahead). Nothing else of the events is kept.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_CONNECTIONS_CALENDAR_PEOPLE_H_
#define ENSEMBLE_CORE_CONNECTIONS_CALENDAR_PEOPLE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace ensemble::core::connections {

// One import brings in at most this many people: those on the most events.
inline constexpr size_t kMaxImportPeople = 200;

struct AppPerson {
  std::string email;  // Normalized (people::NormalizeEmail).
  std::string name;   // The first non-empty CN, else the address.
  size_t events = 0;  // How many of the window's events they are on.
};

struct CalendarPeople {
  std::vector<AppPerson> people;  // Sorted by name, then address.
  size_t left_out = 0;            // Past kMaxImportPeople.
};

// The people of iCalendar `feed` around `now_ms`, without `own_email` (the
// asking person) and calendar resources (rooms, group calendars).
// ICS_NOT_CALENDAR when `feed` is not an iCalendar object.
Result<CalendarPeople> PeopleInCalendar(std::string_view feed, int64_t now_ms,
                                        std::string_view own_email);

}  // namespace ensemble::core::connections

#endif  // ENSEMBLE_CORE_CONNECTIONS_CALENDAR_PEOPLE_H_
