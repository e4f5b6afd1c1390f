// The online meeting behind a join link (spec §2.5 rule 2, "meetingKey"): two
// copies with the same key at overlapping times are one event. Keys:
//   Teams   "teams:<thread id>" (meetup-join links) or "teams:meet:<id>";
//   Meet    "meet:<code>";
//   Zoom    "zoom:<meeting id>", personal rooms "zoom:my:<name>";
//   Webex   "webex:<MTID>" (j.php), "webex:<host>/meet/<name>" for personal
//           rooms, else "webex:<host><path>".
// Percent-encoding and query strings are ignored (Webex's MTID, the meeting
// itself, is the one query value kept).
//
// Pure functions; safe to call from any thread.

#ifndef ENSEMBLE_CORE_CALENDAR_MEETING_KEY_H_
#define ENSEMBLE_CORE_CALENDAR_MEETING_KEY_H_

#include <string>
#include <string_view>

namespace ensemble::core::calendar {

struct MeetingKey {
  std::string key;  // Empty when the text names no known meeting.
  // A personal room (Zoom /my/, Webex /meet/): the same link hosts every
  // meeting its owner holds, so it only joins copies whose titles match.
  bool personal_room = false;
};

// The key of the first Teams, Meet, Zoom or Webex link in `text` (a join URL,
// or a location or description that contains one).
MeetingKey ExtractMeetingKey(std::string_view text);
// The same, appending the key (nothing when none) to `out`; allocation-free
// for callers that keep every key in one buffer. Returns whether a key was
// appended.
bool AppendMeetingKey(std::string_view text, std::string* out, bool* personal_room);

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_MEETING_KEY_H_
