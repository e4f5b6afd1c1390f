// The runs of the project tools (spec 002 §2 "Projects and deliverables",
// 004 §8): hub_list_projects, hub_create_project, hub_update_project and
// hub_delete_projects. Their definitions and schemas are in
// project_tools.cc, whose table gives them these hooks.
//
// Reads go to the projects of ctx.space_id only; every id (a project's, a
// person's in personIds) is resolved there among live records, so one of
// another space is "no project with id ..." (NOT_FOUND). Writes are the
// project record's sync mutations handed to ctx.write; each result is
// {summary, data, undo?} as the task tools' (task_tool_runs.h): create is
// undone by project.delete, update by project.update back (based on the new
// values), delete by project.restore.
//
// Deliverables are the complete list (spec 000 §8.1): one without an id is
// new and gets one; done defaults to false. "Complete a project" is a status
// change to done. The schema's personIds is the record's `people`.
// deleteTasks: true is refused (INVALID_ARGUMENT): the prepared call could
// not carry the tasks it would remove; hub_delete_tasks removes them.
//
// Thread-safety: the hooks are stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_PROJECTS_PROJECT_TOOL_RUNS_H_
#define ENSEMBLE_CORE_PROJECTS_PROJECT_TOOL_RUNS_H_

#include <string>

#include "core/tools/tool.h"

namespace ensemble::core::projects {

// The hooks of hub_list_projects, hub_create_project, hub_update_project, hub_delete_projects,
// which their tool table gives them (project_tools.cc).
Result<nlohmann::json> RunListProjects(tools::ToolCall& call);
Result<std::string> PreviewCreateProject(const tools::ToolCall& call);
Result<nlohmann::json> RunCreateProject(tools::ToolCall& call);
Status PrepareUpdateProject(tools::ToolCall& call);
Result<std::string> PreviewUpdateProject(const tools::ToolCall& call);
Result<nlohmann::json> RunUpdateProject(tools::ToolCall& call);
Status PrepareDeleteProjects(tools::ToolCall& call);
Result<std::string> PreviewDeleteProjects(const tools::ToolCall& call);
Result<nlohmann::json> RunDeleteProjects(tools::ToolCall& call);

}  // namespace ensemble::core::projects

#endif  // ENSEMBLE_CORE_PROJECTS_PROJECT_TOOL_RUNS_H_
