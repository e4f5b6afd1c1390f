// libFuzzer target for the iCalendar reader: whatever the bytes (a calendar
// link can return anything), parsing and expansion must not crash, trip a
// sanitizer or run away, and what comes out must respect the window and cap.
// The same bytes go through what a calendar link brings in (its people: one
// per address, each an address, within the cap) and the link check itself.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "core/calendar/ics_calendar.h"
#include "core/calendar/ics_json.h"
#include "core/calendar/recurrence_rule.h"
#include "core/connections/calendar_people.h"
#include "core/connections/connection.h"

namespace {

namespace calendar = ensemble::core::calendar;
namespace connections = ensemble::core::connections;

// 2026-03-15T12:00:00Z; the first input byte shifts the window by weeks so
// rules far from "now" are reached too.
constexpr int64_t kNow = 1773576000;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const int64_t shift = (static_cast<int64_t>(data[0]) - 128) * 7 * 86400 * 4;
  calendar::ExpandOptions options;
  options.window = calendar::DefaultWindow(kNow + shift);
  options.max_events = 200;
  options.keep_cancelled = data[0] & 1;
  auto result = calendar::ExpandIcs(text, "fuzz", options);
  if (result.ok()) {
    if (result->events.size() > options.max_events) std::abort();
    for (const auto& e : result->events) {
      if (e.end < e.start) std::abort();
      const bool overlaps = e.end == e.start
                                ? e.start >= options.window.from && e.start < options.window.to
                                : e.start < options.window.to && e.end > options.window.from;
      if (!overlaps) std::abort();
      (void)calendar::ToJson(e).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
  }
  auto people = connections::PeopleInCalendar(text, (kNow + shift) * 1000, "me@example.com");
  if (people.ok()) {
    if (people->people.size() > connections::kMaxImportPeople) std::abort();
    std::set<std::string> seen;
    for (const auto& p : people->people) {
      if (p.email.find('@') == std::string::npos || p.name.empty() || p.email == "me@example.com")
        std::abort();
      if (!seen.insert(p.email).second) std::abort();
    }
  }
  if (size < 4096) {
    auto link = connections::NormalizeCalendarLink(text);
    if (link.ok() && !link->starts_with("http://") && !link->starts_with("https://")) std::abort();
  }
  // The rule parser on its own, on the same bytes (RRULE values are short).
  if (size < 512) {
    auto rule = calendar::ParseRecurrenceRule(text);
    if (rule.ok()) {
      calendar::ExpansionRange range;
      range.from = options.window.from;
      range.to = options.window.to;
      range.max_occurrences = 500;
      int64_t budget = 200000;
      auto out = calendar::ExpandRule(*rule, kNow - 400 * 86400, range, &budget);
      for (size_t i = 1; i < out.size(); ++i) {
        if (out[i] <= out[i - 1]) std::abort();  // Strictly ascending.
      }
      if (out.size() > range.max_occurrences) std::abort();
    }
  }
  return 0;
}
