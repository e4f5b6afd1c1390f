// Cross-calendar dedupe (spec §2.5): one event, however many calendars have
// it. Copies (CalendarEvent) from Google, Outlook and calendar links are
// joined with a union-find by four fixed rules, strongest first:
//   1. the same iCalendar UID and occurrence (original start, else start)
//      within 2 minutes: the only rule that joins copies of one calendar;
//   2. the same online meeting key (meeting_key.h) at overlapping times; a
//      personal room also needs matching titles;
//   3. timed events whose starts and ends are each within 2 minutes and whose
//      titles match (title_match.h);
//   4. all-day events with the same date span and matching holiday titles.
// Rules 2-4 never join two copies of one calendar, not even through a third
// copy: a union is refused when the two groups already hold a copy from a
// common calendar. A cancelled copy is never joined: it is dropped.
// Rules 1, 2 and 4 compare within buckets and rule 3 compares neighbours in
// start order, so a merge is O(n log n).
//
// Pure functions over values; safe to call from any thread.

#ifndef ENSEMBLE_CORE_CALENDAR_DEDUPE_H_
#define ENSEMBLE_CORE_CALENDAR_DEDUPE_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/calendar/event.h"

namespace ensemble::core::calendar {

// Rule 1 and rule 3: occurrences and starts/ends within this many seconds.
inline constexpr int64_t kDedupeTimeToleranceSeconds = 2 * 60;
// The JSON of a merged event lists at most this many attendees.
inline constexpr size_t kMaxJsonAttendees = 50;

// What a merged event keeps of each copy: enough to name it and its
// calendar (the JSON's sources). Not the whole copy, so that the merge
// moves the copies' text into the merged event instead of allocating it
// twice. Not the UID either: the merged event keeps it once, moved, where a
// copy for each source cost an allocation per event.
struct MergedSource {
  std::string id;
  SourceKind source = SourceKind::kIcs;
  std::string calendar;
};

// One event after the merge.
struct MergedEvent {
  // The merged fields: the earliest-created copy's id; time (start, end,
  // offsets, all_day, original_start, uid) and title (without a mail prefix)
  // from the best copy; other text fields the first non-empty value in
  // `sources` order; attendees the union by address (lower-cased).
  CalendarEvent event;
  // Every copy, best first: Google or Outlook before a calendar link, then
  // the copy with the most fields filled, then the earliest created.
  // Each source's id is a copy's row id (the JSON's memberIds).
  std::vector<MergedSource> sources;
};

// Groups copies: returns, for each input copy, the index of its group
// (0-based, numbered in order of each group's first copy in the input), or
// -1 for a dropped (cancelled) copy. Deterministic for a given input order.
std::vector<int32_t> GroupCalendarEvents(const std::vector<CalendarEvent>& copies);

// Merges copies into events, ordered by start, then end, then id. The
// merged events take their text from `copies` by move, so the caller is left
// with copies whose text may be gone: fit only to be destroyed, which is
// the caller's to do (that is why this takes an rvalue reference and not a
// value: destroying the input is not part of the merge's cost).
std::vector<MergedEvent> MergeCalendarEvents(std::vector<CalendarEvent>&& copies);

// The JSON of one merged event: the fields of ToJson(CalendarEvent) plus
// id, title, joinUrl, location, organizer, status, attendees (at most 50,
// [{email, name}]), memberIds (every source's id, in order) and sources
// [{connector, calendar, id}].
nlohmann::json ToJson(const MergedEvent& merged);

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_DEDUPE_H_
