// The reminders tools' table: each tool's name, schema, flags and hooks
// (reminder_tool_runs.h), registered by the assistant with every other domain's.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_REMINDERS_REMINDER_TOOLS_H_
#define ENSEMBLE_CORE_REMINDERS_REMINDER_TOOLS_H_

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::reminders {

// Registers the reminders tools into `registry`; fails on the first refusal.
Status RegisterReminderTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::reminders

#endif  // ENSEMBLE_CORE_REMINDERS_REMINDER_TOOLS_H_
