// Finds the online-meeting link (Google Meet, Microsoft Teams, Zoom, Webex)
// in free text: an event's location, description or conference properties.
// Stateless.

#ifndef ENSEMBLE_CORE_CALENDAR_JOIN_URL_H_
#define ENSEMBLE_CORE_CALENDAR_JOIN_URL_H_

#include <string>
#include <string_view>

namespace ensemble::core::calendar {

// The first Meet, Teams, Zoom or Webex meeting URL in `text`, or empty.
// Trailing punctuation and enclosing <> or quotes are not part of the link.
std::string FindJoinUrl(std::string_view text);

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_JOIN_URL_H_
