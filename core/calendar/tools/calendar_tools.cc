// Calendars: saved events and connected Google and Outlook calendars
// (playbooks/calendar.md). Both reads reach connected calendars over the
// network.

#include "core/calendar/tools/calendar_tools.h"

#include "core/tools/tool_table.h"

namespace ensemble::core::calendar {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

constexpr std::size_t kMaxCalendars = 50;
constexpr int kMaxMeetingMinutes = 8 * 60;

}  // namespace

Status RegisterCalendarTools(tools::ToolRegistry& registry) {
  return RegisterAll(
      registry,
      {
          Outside(Read("hub_list_events", areas::kCalendar,
                       "List events in a date range from saved events and connected calendars, one "
                       "copy per meeting.",
                       Object({{"from", Date()},
                               {"to", Date()},
                               {"query", Str(kMaxQueryChars)},
                               {"calendarIds", Array(Id(), kMaxCalendars)},
                               {"limit", Int(1, kMaxListLimit)}},
                              {"from", "to"}))),
          Outside(Read("hub_find_free_time", areas::kCalendar,
                       "Find free slots of a given length; unknown free/busy is never free.",
                       Object({{"from", Date()},
                               {"to", Date()},
                               {"durationMinutes", Int(5, kMaxMeetingMinutes)},
                               {"personIds", Array(Id(), kMaxCalendars)},
                               {"workingHoursOnly", Bool()}},
                              {"from", "to", "durationMinutes"}))),
      });
}

}  // namespace ensemble::core::calendar
