// The meeting tools' table (meeting notes): each tool's name, schema and flags,
// registered by the assistant with every other domain's. The tools are
// declared ahead of the part of the product that runs them, so no turn is
// offered them yet (assistant::TurnCanRun).
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_MEETINGS_MEETING_TOOLS_H_
#define ENSEMBLE_CORE_MEETINGS_MEETING_TOOLS_H_

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::meetings {

// Registers the meeting tools into `registry`; fails on the first refusal.
Status RegisterMeetingTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::meetings

#endif  // ENSEMBLE_CORE_MEETINGS_MEETING_TOOLS_H_
