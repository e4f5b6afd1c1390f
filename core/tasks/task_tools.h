// The task tools' table: each tool's name, schema, flags and hooks
// (task_tool_runs.h), registered by the assistant with every other domain's.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_TASKS_TASK_TOOLS_H_
#define ENSEMBLE_CORE_TASKS_TASK_TOOLS_H_

#include <string_view>

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::tasks {

// The names of the task tools that other parts of the core call by name
// (the local planner); each is written here once.
inline constexpr std::string_view kListTasksTool = "hub_list_tasks";
inline constexpr std::string_view kCreateTasksTool = "hub_create_tasks";
inline constexpr std::string_view kUpdateTaskTool = "hub_update_task";
inline constexpr std::string_view kListDueTool = "hub_list_due";

// Registers the task tools into `registry`; fails on the first refusal.
Status RegisterTaskTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::tasks

#endif  // ENSEMBLE_CORE_TASKS_TASK_TOOLS_H_
