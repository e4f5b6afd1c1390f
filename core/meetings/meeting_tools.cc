// Meeting notes (playbooks/meetings.md).

#include "core/meetings/meeting_tools.h"

#include "core/tools/tool_table.h"

namespace ensemble::core::meetings {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

constexpr std::size_t kMaxMeetingTitleChars = 500;
constexpr std::size_t kMaxNotesChars = 200000;
constexpr std::size_t kMaxAttendeeIds = 100;

}  // namespace

Status RegisterMeetingTools(tools::ToolRegistry& registry) {
  return RegisterAll(
      registry,
      {
          Read("hub_list_meetings", areas::kMeetings,
               "Find meeting notes by title, date range or person.",
               Object(WithPaging({{"query", Str(kMaxQueryChars)},
                                  {"from", Date()},
                                  {"to", Date()},
                                  {"personId", Id()}}))),
          Read("hub_read_meeting", areas::kMeetings,
               "Read one meeting's notes, attendees and revision.", Object({{"id", Id()}}, {"id"})),
          Write("hub_save_meeting", areas::kMeetings,
                "Write new meeting notes, or change a meeting's notes (give its id and revision).",
                Object({{"id", Id("Omit to create")},
                        {"revision", Int(0, 2000000000)},
                        {"title", Text(kMaxMeetingTitleChars)},
                        {"date", Date()},
                        {"notes", Str(kMaxNotesChars, "Markdown")},
                        {"attendeeIds", Array(Id(), kMaxAttendeeIds)},
                        {"eventId", Id("The calendar event behind it")}}),
                Risk::kLow, true),
          Write("hub_delete_meetings", areas::kMeetings, "Move meeting notes to Trash.",
                Object({{"ids", Ids()}}, {"ids"}), Risk::kHigh, true),
          Read("hub_suggest_meeting_tasks", areas::kMeetings,
               "Suggest tasks quoted from a meeting's text, as proposals to create with "
               "hub_create_tasks.",
               Object({{"id", Id()}}, {"id"})),
          Outside(Hold(
              ForOwner(Write("hub_import_meeting_notes", areas::kMeetings,
                             "Import notes from a connected meeting app; waits for Apply.",
                             Object({{"connectionId", Id("From hub_list_connections")},
                                     {"item", Text(kMaxUrlChars, "The app's meeting id or link")},
                                     {"meetingId", Id("Existing notes to add to")}},
                                    {"connectionId", "item"}),
                             Risk::kMedium, true)))),
      });
}

}  // namespace ensemble::core::meetings
