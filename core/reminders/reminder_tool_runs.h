// The runs of the reminder and watcher tools (spec 002 §2 "Reminders and
// watchers", the space owner's own): hub_list_reminders,
// hub_create_reminder, hub_update_reminder, hub_delete_reminder,
// hub_create_watcher, hub_list_watchers and hub_cancel_watcher (with Undo,
// §3). Definitions are in reminder_tools.cc, whose table gives them these hooks.
//
// Times: a reminder's `at` is an ISO 8601 date-time; one without an offset
// is the person's wall-clock time in their zone (ToolContext::time_zone),
// and replies give times back in that zone. A time already past is refused.
// Every id (reminder, watcher, the record one is about) is resolved among the
// live records of ctx.space_id; the mutations are the records'
// (core/reminders), so only the space's owner can write them.
//
// Thread-safety: the hooks are stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_REMINDERS_REMINDER_TOOL_RUNS_H_
#define ENSEMBLE_CORE_REMINDERS_REMINDER_TOOL_RUNS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/tools/tool.h"

namespace ensemble::core::reminders {

// A reminder may be set this far in the past (the turn's own minute), so
// "remind me now" is not refused.
inline constexpr int64_t kReminderPastSlackMs = 60'000;

// The instant (ms) `text` names: with an offset or Z as written, without one
// as wall-clock time in IANA zone `time_zone` (UTC when unknown).
// INVALID_ARGUMENT for text that is not an ISO 8601 date-time.
Result<int64_t> ParseReminderTime(std::string_view text, std::string_view time_zone);
// `at_ms` in `time_zone` as ISO 8601 with its offset, to the second.
std::string IsoInZone(int64_t at_ms, std::string_view time_zone);

// The hooks of hub_list_reminders, hub_create_reminder, hub_update_reminder, hub_delete_reminder,
// hub_create_watcher, hub_list_watchers, hub_cancel_watcher, which their tool table gives them
// (reminder_tools.cc).
Result<nlohmann::json> RunListReminders(tools::ToolCall& call);
Result<std::string> PreviewCreateReminder(const tools::ToolCall& call);
Result<nlohmann::json> RunCreateReminder(tools::ToolCall& call);
Result<std::string> PreviewUpdateReminder(const tools::ToolCall& call);
Result<nlohmann::json> RunUpdateReminder(tools::ToolCall& call);
Result<std::string> PreviewDeleteReminder(const tools::ToolCall& call);
Result<nlohmann::json> RunDeleteReminder(tools::ToolCall& call);
Result<std::string> PreviewCreateWatcher(const tools::ToolCall& call);
Result<nlohmann::json> RunCreateWatcher(tools::ToolCall& call);
Result<nlohmann::json> RunListWatchers(tools::ToolCall& call);
Result<std::string> PreviewCancelWatcher(const tools::ToolCall& call);
Result<nlohmann::json> RunCancelWatcher(tools::ToolCall& call);

}  // namespace ensemble::core::reminders

#endif  // ENSEMBLE_CORE_REMINDERS_REMINDER_TOOL_RUNS_H_
