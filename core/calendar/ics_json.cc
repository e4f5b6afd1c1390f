#include "core/calendar/ics_json.h"

#include <algorithm>

#include "core/calendar/dedupe.h"

namespace ensemble::core::calendar {
namespace {

struct Expanded {
  std::vector<CalendarEvent> events;
  nlohmann::json warnings = nlohmann::json::array();
  nlohmann::json truncated = nlohmann::json::array();
};

Result<Expanded> ExpandAll(const std::vector<IcsFile>& files, TimeWindow window) {
  if (files.size() > kMaxIcsFiles) {
    return Status(core::codes::kInvalidArgument, "at most 20 calendars at a time");
  }
  Expanded out;
  ExpandOptions options;
  options.window = window;
  for (const IcsFile& file : files) {
    auto cal = ExpandIcs(file.text, file.name, options);
    if (!cal.ok()) {
      return Status(cal.status().code(), file.name + ": " + cal.status().message());
    }
    for (std::string& w : cal->warnings) {
      out.warnings.push_back({{"calendar", file.name}, {"message", std::move(w)}});
    }
    if (cal->truncated) out.truncated.push_back(file.name);
    for (CalendarEvent& e : cal->events) out.events.push_back(std::move(e));
  }
  std::stable_sort(out.events.begin(), out.events.end(),
                   [](const CalendarEvent& a, const CalendarEvent& b) {
                     if (a.start != b.start) return a.start < b.start;
                     return a.calendar < b.calendar;
                   });
  return out;
}

}  // namespace

Result<std::vector<IcsFile>> IcsFilesFromJson(const nlohmann::json& files) {
  auto bad = [] {
    return Status(core::codes::kInvalidArgument,
                  "files must be an array of {name, text} with string values");
  };
  if (!files.is_array()) return bad();
  std::vector<IcsFile> out;
  for (const auto& f : files) {
    if (!f.is_object() || !f.contains("name") || !f.contains("text") || !f["name"].is_string() ||
        !f["text"].is_string()) {
      return bad();
    }
    out.push_back({f["name"].get<std::string>(), f["text"].get<std::string>()});
  }
  return out;
}

Result<nlohmann::json> ExpandIcsFilesJson(const std::vector<IcsFile>& files, TimeWindow window) {
  ENSEMBLE_ASSIGN_OR_RETURN(Expanded all, ExpandAll(files, window));
  nlohmann::json events = nlohmann::json::array();
  for (const CalendarEvent& e : all.events) events.push_back(ToJson(e));
  return nlohmann::json{{"events", std::move(events)},
                        {"warnings", std::move(all.warnings)},
                        {"truncated", std::move(all.truncated)}};
}

Result<nlohmann::json> MergeIcsFilesJson(const std::vector<IcsFile>& files, TimeWindow window) {
  ENSEMBLE_ASSIGN_OR_RETURN(Expanded all, ExpandAll(files, window));
  nlohmann::json events = nlohmann::json::array();
  for (const MergedEvent& m : MergeCalendarEvents(std::move(all.events))) {
    events.push_back(ToJson(m));
  }
  return nlohmann::json{{"events", std::move(events)},
                        {"warnings", std::move(all.warnings)},
                        {"truncated", std::move(all.truncated)}};
}

}  // namespace ensemble::core::calendar
