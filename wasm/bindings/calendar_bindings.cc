// JS API for calendar links in the browser: expand iCalendar files over a
// window, and merge them across calendars, with the same core code (and so
// the same bytes) as `tools/ensemble calendar expand|merge` natively.
// Test-only until the app calls it (ensemble_core_test, wasm/CMakeLists.txt):
// tests/wasm/calendar_parity.test.mjs and the calendar benchmark use it.

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/calendar/ics_calendar.h"
#include "core/calendar/ics_json.h"
#include "wasm/bindings/json_edge.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;
namespace calendar = core::calendar;

core::Result<calendar::TimeWindow> WindowArgs(const val& from_iso, const val& to_iso) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::string from_text, StringArg(from_iso, "fromIso"));
  ENSEMBLE_ASSIGN_OR_RETURN(std::string to_text, StringArg(to_iso, "toIso"));
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t from, calendar::ParseIsoInstant(from_text));
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t to, calendar::ParseIsoInstant(to_text));
  if (to <= from) {
    return core::Status(core::codes::kInvalidArgument, "toIso must be after fromIso");
  }
  return calendar::TimeWindow{from, to};
}

// calendarExpand(filesJson, fromIso, toIso) ->
//   {events: [{uid, recurrenceId, start, end, allDay, summary, calendar}],
//    warnings: [{calendar, message}], truncated: [calendar]}
std::string CalendarExpand(val files_json, val from_iso, val to_iso) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(json files_arg, JsonArg(files_json, "filesJson"));
    ENSEMBLE_ASSIGN_OR_RETURN(auto files, calendar::IcsFilesFromJson(files_arg));
    ENSEMBLE_ASSIGN_OR_RETURN(calendar::TimeWindow window, WindowArgs(from_iso, to_iso));
    return calendar::ExpandIcsFilesJson(files, window);
  });
}

// calendarMerge(filesJson, fromIso, toIso) -> as calendarExpand, with the
// deduped events (each with memberIds and sources).
std::string CalendarMerge(val files_json, val from_iso, val to_iso) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(json files_arg, JsonArg(files_json, "filesJson"));
    ENSEMBLE_ASSIGN_OR_RETURN(auto files, calendar::IcsFilesFromJson(files_arg));
    ENSEMBLE_ASSIGN_OR_RETURN(calendar::TimeWindow window, WindowArgs(from_iso, to_iso));
    return calendar::MergeIcsFilesJson(files, window);
  });
}

// calendarExpandIcs(name, text, fromIso, toIso): calendarExpand for one
// file, without wrapping its text in JSON (a calendar link's body as read).
std::string CalendarExpandIcs(val name, val text, val from_iso, val to_iso) {
  return Guard([&]() -> core::Result<json> {
    calendar::IcsFile file;
    ENSEMBLE_ASSIGN_OR_RETURN(file.name, StringArg(name, "name"));
    ENSEMBLE_ASSIGN_OR_RETURN(file.text, StringArg(text, "text"));
    ENSEMBLE_ASSIGN_OR_RETURN(calendar::TimeWindow window, WindowArgs(from_iso, to_iso));
    return calendar::ExpandIcsFilesJson({std::move(file)}, window);
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_calendar) {
  emscripten::function("calendarExpand", &CalendarExpand);
  emscripten::function("calendarExpandIcs", &CalendarExpandIcs);
  emscripten::function("calendarMerge", &CalendarMerge);
}

}  // namespace ensemble::wasm
