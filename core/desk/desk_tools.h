// The desk tools' table: each tool's name, schema, flags and hooks
// (desk_tool_runs.h), registered by the assistant with every other domain's.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_DESK_DESK_TOOLS_H_
#define ENSEMBLE_CORE_DESK_DESK_TOOLS_H_

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::desk {

// Registers the desk tools into `registry`; fails on the first refusal.
Status RegisterDeskTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::desk

#endif  // ENSEMBLE_CORE_DESK_DESK_TOOLS_H_
