// The calendar match of an imported meeting (spec §2.3, meetings/match.ts):
// which merged event (dedupe.h; copies of one event from several calendars
// are one candidate) a meeting from a notes vendor or a transcript belongs
// to. Conservative: an ambiguous meeting stays unmatched.
//
//  1. The vendor's calendar event id wins when it names an event: the merged
//     event's id or any copy's id, also as "outlook:<id>" (the Graph id).
//  2. Otherwise every timed event starting within 12 hours of the meeting
//     that fits in time (overlap of at least half the shorter of the two, or
//     starts within 10 minutes of each other) is scored
//       0.5 * time + 0.3 * attendees + 0.2 * title, each in [0, 1]:
//       time      = (overlap / shorter duration, capped at 1) / 2
//                   + max(0, 1 - |start difference| / 30 minutes) / 2;
//                   a meeting with no end counts as fully overlapping an
//                   event it starts within;
//       attendees = shared addresses / the smaller list, both lists
//                   lower-cased, without my addresses (the event's organizer
//                   counts as an attendee); 0 when either list is empty;
//       title     = 2 * shared words / (words of one + words of the other),
//                   on titles normalized as in title_match.h (Dice).
//     The best event also needs a shared attendee, a title of at least 0.3,
//     or to be the only candidate; a runner-up within 0.1 of the best leaves
//     the meeting unmatched.
//
// Pure functions; safe to call from any thread.

#ifndef ENSEMBLE_CORE_CALENDAR_MEETING_MATCH_H_
#define ENSEMBLE_CORE_CALENDAR_MEETING_MATCH_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/calendar/dedupe.h"

namespace ensemble::core::calendar {

inline constexpr int64_t kMatchSearchWindowSeconds = 12 * 3600;
inline constexpr double kMatchMinOverlapOfShorter = 0.5;
inline constexpr int64_t kMatchStartToleranceSeconds = 10 * 60;
// The start difference at which the start half of the time score reaches 0.
inline constexpr int64_t kMatchStartScoreScaleSeconds = 30 * 60;
inline constexpr double kMatchTimeWeight = 0.5;
inline constexpr double kMatchAttendeeWeight = 0.3;
inline constexpr double kMatchTitleWeight = 0.2;
inline constexpr double kMatchMinTitleOverlap = 0.3;
inline constexpr double kMatchRunnerUpMargin = 0.1;

// A meeting as a vendor or a transcript reports it.
struct Meeting {
  std::string vendor_event_id;  // The vendor's calendar event id; may be empty.
  int64_t start = 0;            // Seconds since the epoch (UTC).
  int64_t end = 0;              // 0 (or <= start) when unknown.
  std::string title;
  std::vector<std::string> attendees;     // Addresses.
  std::vector<std::string> my_addresses;  // The person's own addresses.
};

struct MeetingMatch {
  int32_t index = -1;  // Into the events; -1 when unmatched.
  // "vendorId" or "score" when matched; "" when not.
  std::string via;
  // When unmatched: "noCandidate", "weak" (the best qualifies in no way) or
  // "ambiguous" (a runner-up within 0.1).
  std::string reason;
  double score = 0;      // The chosen (or best) candidate's score.
  double runner_up = 0;  // The second best score; 0 with one candidate.
  int32_t candidates = 0;
};

// The score parts of one event against a meeting (exposed for tests).
struct MatchScore {
  bool fits = false;  // Within the window and fits in time.
  double time = 0, attendees = 0, title = 0;
  int32_t shared_attendees = 0;
  double total() const {
    return kMatchTimeWeight * time + kMatchAttendeeWeight * attendees + kMatchTitleWeight * title;
  }
};

MatchScore ScoreMeetingAgainstEvent(const Meeting& meeting, const CalendarEvent& event);

MeetingMatch MatchMeeting(const Meeting& meeting, const std::vector<MergedEvent>& events);

// {matched, eventId, via, reason, score, runnerUp, candidates}; eventId is
// the merged event's id, or null.
nlohmann::json ToJson(const MeetingMatch& match, const std::vector<MergedEvent>& events);

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_MEETING_MATCH_H_
