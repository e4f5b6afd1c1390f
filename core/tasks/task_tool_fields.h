// Internal to the task tools (task_tool_runs.h): the task fields as the
// tools' schemas name them (camelCase: projectId, personIds, dependsOn,
// pageId, ...) against the task record's fields (project, people,
// depends_on, page, ...), the check that every id a call links to is a live
// record of the turn's space, and the text that says what a change does.
//
// Thread-safety: stateless functions; as the ToolContext given.

#ifndef ENSEMBLE_CORE_TASKS_TASK_TOOL_FIELDS_H_
#define ENSEMBLE_CORE_TASKS_TASK_TOOL_FIELDS_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/tasks/task_tool_rows.h"
#include "core/tools/tool.h"

namespace ensemble::core::tasks {

// The record field a schema name stands for ("projectId" -> "project"), or
// "" for a name that is not a task field.
std::string_view RecordFieldOf(std::string_view input_name);
// The schema name of a record field ("depends_on" -> "dependsOn").
std::string_view InputNameOf(std::string_view record_field);

// The task fields `input` gives, under the record's names, each checked
// (INVALID_ARGUMENT "<schema name>: ...") and normalized as the record stores
// it. Names that are not task fields are left out; a null priority is "none".
Result<nlohmann::json> RecordFields(const nlohmann::json& input);

// OK when every id `fields` (record names) links to is a live record of the
// turn's space: project, people, depends_on and blocks (tasks) and page.
// Otherwise NOT_FOUND "no <project|person|task|page> with id ...", the same
// for an id of another space as for none. A task never links to itself
// (`self_id`, empty on create).
Status ResolveLinks(tools::ToolContext& ctx, const nlohmann::json& fields,
                    const std::string& self_id);

// "due to 3 Dec, project to “Launch”, no labels": what writing `fields`
// (record names, normalized) does, naming linked records by title, never id.
std::string ChangesText(tools::ToolContext& ctx, const nlohmann::json& fields);

// "status is now doing, labels is now empty": the task's current values of
// `fields`' names, for a conflict message.
std::string CurrentText(tools::ToolContext& ctx, const Task& current, const nlohmann::json& fields);

}  // namespace ensemble::core::tasks

#endif  // ENSEMBLE_CORE_TASKS_TASK_TOOL_FIELDS_H_
