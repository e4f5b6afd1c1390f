// The runs of the hub's five task tools (spec 000 §4, §6; tool list 002):
// hub_list_tasks, hub_list_due, hub_create_tasks, hub_update_task and
// hub_delete_tasks. Their definitions and schemas are in task_tools.cc,
// whose table gives them these hooks.
//
// Every hook takes its ToolContext (core/tools/tool_context.h) from the call: reads go
// to the tasks table of ctx.space_id only (live rows), and every id is
// resolved there, so a task of another space is "no task with id ..."
// (NOT_FOUND) and never evidence of access. Writes are the task record's
// own sync mutations (task.create/update/delete), handed to ctx.write.
//
// A run's result is {summary, data, undo?}: summary is one line of display
// text naming tasks by title (never ids, refs/summary.h); data holds the
// ids and fields, bounded (a list at most kMaxListLimit rows); undo is the
// list of mutations [{name, args}] that reverse the write (create: delete;
// update: update back, based on the new values; delete: restore).
//
// The schema's fields map to the task record's (task_tool_fields.h):
// title, status, due, priority, description, projectId (project), personIds
// (people), labels, dependsOn (depends_on), blocks and pageId (page). Lists
// are complete lists and replace the stored one (spec 000 §8.1). Every id a
// call links to (projectId, personIds, dependsOn, blocks, pageId, and the
// list filters projectId and personId) must be a live record of ctx.space_id:
// otherwise "no project with id ..." (NOT_FOUND), whether it exists in
// another space or not, and nothing is written. hub_list_tasks filters by
// projectId, personId and label; hub_delete_tasks with all: true by status
// and projectId. hub_update_task takes base (schema names) or, without it,
// expectedVersion; a stale one is SAVE_CONFLICT or VERSION_CONFLICT with the
// task's current values in the message. Its Undo writes every changed field
// back, lists whole.
//
// Thread-safety: the hooks are stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_TASKS_TASK_TOOL_RUNS_H_
#define ENSEMBLE_CORE_TASKS_TASK_TOOL_RUNS_H_

#include <string>

#include "core/tools/tool.h"

namespace ensemble::core::tasks {

// The schema's default page (core/tools/tool_schema.cc WithPaging: "default 50"), also
// hub_list_due's default limit.
inline constexpr int kDefaultTaskListLimit = 50;
// hub_list_due without `to`: the week starting at `from` (the spec names no
// window; a week is what "what's due" means in the planner's phrasings).
inline constexpr int kDefaultDueWindowDays = 7;

// The hooks of hub_list_tasks, hub_list_due, hub_create_tasks, hub_update_task, hub_delete_tasks,
// which their tool table gives them (task_tools.cc).
Result<nlohmann::json> RunListTasks(tools::ToolCall& call);
Result<nlohmann::json> RunListDue(tools::ToolCall& call);
Result<std::string> PreviewCreateTasks(const tools::ToolCall& call);
Result<nlohmann::json> RunCreateTasks(tools::ToolCall& call);
Status PrepareUpdateTask(tools::ToolCall& call);
Result<std::string> PreviewUpdateTask(const tools::ToolCall& call);
Result<nlohmann::json> RunUpdateTask(tools::ToolCall& call);
Status PrepareDeleteTasks(tools::ToolCall& call);
Result<std::string> PreviewDeleteTasks(const tools::ToolCall& call);
Result<nlohmann::json> RunDeleteTasks(tools::ToolCall& call);

}  // namespace ensemble::core::tasks

#endif  // ENSEMBLE_CORE_TASKS_TASK_TOOL_RUNS_H_
