// The calendar tools' table (calendars): each tool's name, schema and flags,
// registered by the assistant with every other domain's. The tools are
// declared ahead of the part of the product that runs them, so no turn is
// offered them yet (assistant::TurnCanRun).
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_CALENDAR_TOOLS_CALENDAR_TOOLS_H_
#define ENSEMBLE_CORE_CALENDAR_TOOLS_CALENDAR_TOOLS_H_

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::calendar {

// Registers the calendar tools into `registry`; fails on the first refusal.
Status RegisterCalendarTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_TOOLS_CALENDAR_TOOLS_H_
