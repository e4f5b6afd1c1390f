// The routines tools' table: each tool's name, schema, flags and hooks
// (routine_tool_runs.h), registered by the assistant with every other domain's.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_ROUTINES_ROUTINE_TOOLS_H_
#define ENSEMBLE_CORE_ROUTINES_ROUTINE_TOOLS_H_

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::routines {

// Registers the routines tools into `registry`; fails on the first refusal.
Status RegisterRoutineTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::routines

#endif  // ENSEMBLE_CORE_ROUTINES_ROUTINE_TOOLS_H_
