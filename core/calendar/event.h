// CalendarEvent: one copy of one occurrence of an event, as read from one
// calendar (an expanded iCalendar VEVENT, or a row from Google or Outlook).
// The iCalendar parser produces these; dedupe and the meeting match consume
// them. Plain data: safe to copy and to share read-only between threads.

#ifndef ENSEMBLE_CORE_CALENDAR_EVENT_H_
#define ENSEMBLE_CORE_CALENDAR_EVENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ensemble::core::calendar {

struct Attendee {
  std::string email;  // As written; compare lower-cased.
  std::string name;
};

// Which kind of calendar a copy came from; the order ranks copies when a
// merged event picks its best copy (Google or Outlook before a link).
enum class SourceKind { kGoogle, kOutlook, kIcs };

struct CalendarEvent {
  // Row id of this copy (for ICS: "ics:<calendar>:<hash>"); a merged event
  // keeps the earliest-created copy's id.
  std::string id;
  SourceKind source = SourceKind::kIcs;
  std::string calendar;  // The calendar this copy was read from.
  std::string uid;       // iCalendar UID; empty when unknown.
  // A recurring occurrence's original start, seconds since the epoch (UTC);
  // 0 for an event that does not recur.
  int64_t original_start = 0;

  bool all_day = false;
  // Timed: UTC instants in seconds since the epoch. All-day: the start date's
  // midnight UTC and the end date's (exclusive), so end - start is whole days.
  int64_t start = 0;
  int64_t end = 0;
  // Offsets east of UTC in seconds, in the event's own zone, for display
  // (ISO 8601 with offset); 0 for UTC, floating and all-day events.
  int32_t start_offset = 0;
  int32_t end_offset = 0;

  std::string title;
  std::string description;
  std::string location;
  std::string join_url;  // Meet, Teams, Zoom or Webex link; empty if none.
  std::string organizer;
  std::string status;  // "CONFIRMED", "TENTATIVE", "CANCELLED" or empty.
  int64_t created = 0;  // Seconds since the epoch; 0 when unknown.
  std::vector<Attendee> attendees;

  bool cancelled() const { return status == "CANCELLED"; }
};

std::string SourceKindName(SourceKind kind);  // "google", "outlook", "ics".

// Formats seconds since the epoch plus an offset as ISO 8601 with that
// offset ("2026-03-08T09:00:00-05:00"; "Z" for offset 0 when utc_z is set).
std::string FormatIsoTime(int64_t utc_seconds, int32_t offset_seconds, bool utc_z = true);
// Formats the date of a midnight-UTC instant as "2026-12-25".
std::string FormatIsoDate(int64_t utc_midnight_seconds);

// The JSON the CLI and the wasm bindings return for one copy:
// {uid, recurrenceId, start, end, allDay, summary, calendar}, times in ISO
// 8601 with their offset, all-day dates as plain dates (end exclusive).
nlohmann::json ToJson(const CalendarEvent& event);

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_EVENT_H_
