// The JSON edge of calendar expansion and merge, shared by the CLI
// (`tools/ensemble calendar expand|merge`) and the wasm bindings
// (calendarExpand, calendarMerge), so both give the same bytes. Stateless.

#ifndef ENSEMBLE_CORE_CALENDAR_ICS_JSON_H_
#define ENSEMBLE_CORE_CALENDAR_ICS_JSON_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/status.h"
#include "core/calendar/ics_calendar.h"

namespace ensemble::core::calendar {

// Calendar files handed over by one request (a CLI run, a JS call).
inline constexpr size_t kMaxIcsFiles = 20;  // The spec's links per person.

struct IcsFile {
  std::string name;  // Becomes each event's `calendar`.
  std::string text;
};

// Reads [{name, text}]; INVALID_ARGUMENT for any other shape.
Result<std::vector<IcsFile>> IcsFilesFromJson(const nlohmann::json& files);

// {events: [ToJson(CalendarEvent)...] sorted by start, then calendar,
//  warnings: [{calendar, message}], truncated: [calendar names]}.
// A file that is not a calendar fails the whole call, its name in the message.
Result<nlohmann::json> ExpandIcsFilesJson(const std::vector<IcsFile>& files, TimeWindow window);

// As ExpandIcsFilesJson, but `events` holds the deduped events
// (dedupe.h ToJson(MergedEvent)), each with its `sources`.
Result<nlohmann::json> MergeIcsFilesJson(const std::vector<IcsFile>& files, TimeWindow window);

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_ICS_JSON_H_
