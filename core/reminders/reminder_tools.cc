// Reminders and watchers, the space owner's own (playbooks/reminders.md).

#include "core/reminders/reminder_tools.h"

#include <utility>
#include <vector>

#include "core/reminders/reminder.h"
#include "core/reminders/reminder_tool_runs.h"
#include "core/tools/tool_table.h"

namespace ensemble::core::reminders {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

}  // namespace

Status RegisterReminderTools(tools::ToolRegistry& registry) {
  std::vector<tools::ToolDef> defs = {
      Read("hub_list_reminders", areas::kReminders, "List reminders with their times and ids.",
           Object({{"includeDismissed", Bool()}, {"limit", Int(1, kMaxListLimit)}}),
           {.run = RunListReminders}),
      Write("hub_create_reminder", areas::kReminders,
            "Remind the person at a time in their time zone, optionally about a record.",
            Object({{"text", Text(reminders::kMaxReminderChars)},
                    {"at", DateTime()},
                    {"itemKind", RecordKind()},
                    {"itemId", Id()}},
                   {"text", "at"}),
            Risk::kLow, true, {.preview = PreviewCreateReminder, .run = RunCreateReminder}),
      Write("hub_update_reminder", areas::kReminders, "Change, snooze or dismiss a reminder.",
            Object({{"id", Id()},
                    {"text", Text(reminders::kMaxReminderChars)},
                    {"at", DateTime()},
                    {"dismissed", Bool()}},
                   {"id"}),
            Risk::kLow, true, {.preview = PreviewUpdateReminder, .run = RunUpdateReminder}),
      Write("hub_delete_reminder", areas::kReminders, "Delete a reminder.",
            Object({{"id", Id()}}, {"id"}), Risk::kMedium, true,
            {.preview = PreviewDeleteReminder, .run = RunDeleteReminder}),
      Write("hub_create_watcher", areas::kReminders, "Tell the person when a record changes.",
            Object({{"kind", RecordKind()},
                    {"id", Id()},
                    {"condition", Str(reminders::kMaxConditionChars, "What change to watch for")}},
                   {"kind", "id"}),
            Risk::kLow, true, {.preview = PreviewCreateWatcher, .run = RunCreateWatcher}),
      Read("hub_list_watchers", areas::kReminders, "List active watchers with their ids.",
           Object({{"limit", Int(1, kMaxListLimit)}}), {.run = RunListWatchers}),
      Write("hub_cancel_watcher", areas::kReminders, "Stop a watcher.",
            Object({{"id", Id()}}, {"id"}), Risk::kLow, true,
            {.preview = PreviewCancelWatcher, .run = RunCancelWatcher}),
  };
  return tools::RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::reminders
