// The task tools' table: each tool's name, schema, flags and hooks
// (task_tool_runs.h), registered by the assistant with every other domain's.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_TASKS_TASK_TOOLS_H_
#define ENSEMBLE_CORE_TASKS_TASK_TOOLS_H_

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::tasks {

// Registers the task tools into `registry`; fails on the first refusal.
Status RegisterTaskTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::tasks

#endif  // ENSEMBLE_CORE_TASKS_TASK_TOOLS_H_
