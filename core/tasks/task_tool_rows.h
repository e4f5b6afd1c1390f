// Internal to the task tools (task_tool_runs.h): how their hooks read the
// tasks of the turn's space, and the pieces the reads (task_tool_reads.cc)
// and the writes (task_tool_runs.cc) share beyond every tool's
// (core/tools/tool_runs.h).
//
// Thread-safety: stateless functions; as the ToolContext given.

#ifndef ENSEMBLE_CORE_TASKS_TASK_TOOL_ROWS_H_
#define ENSEMBLE_CORE_TASKS_TASK_TOOL_ROWS_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/refs/summary.h"
#include "core/tasks/task.h"
#include "core/tools/tool.h"
#include "core/tools/tool_context.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::tasks {

// A list row shows this much of a description: enough to tell tasks apart,
// while a page of 200 rows stays small; a cut one says so (descriptionCut),
// so it is not sent back as a base.
inline constexpr std::size_t kMaxRowDescriptionChars = 200;

// The one answer for an id that is not a task of the turn's space, whether
// it exists elsewhere or not.
Status NoTask(const std::string& id);

// The task `id` in the context's space (in Trash or not), or nullopt.
Result<std::optional<Task>> FindTask(tools::ToolContext& ctx, const std::string& id);
// Live tasks of the space, oldest first: those of `status` when given, else
// all but done ones unless `include_done`.
Result<std::vector<Task>> LiveTasks(tools::ToolContext& ctx, const std::string& status,
                                    bool include_done);

// {id, title, status, due, priority, description, projectId, personIds,
// labels, dependsOn, blocks, pageId, version}: what a result's data says of
// a task, under the schema's names.
nlohmann::json RowJson(const Task& row);
// The value of record field `field` of the row, as the record stores it.
nlohmann::json RecordValue(const Task& row, std::string_view field);
// Sets record field `field` to `value` (normalized).
void SetRecordValue(Task& row, std::string_view field, const nlohmann::json& value);
// Title and due date, for refs::SummarizeRecords.
refs::SummaryItem ItemOf(const Task& row);
std::vector<refs::SummaryItem> ItemsOf(const std::vector<Task>& rows);

const records::FieldSpec& TaskField(std::string_view name);

}  // namespace ensemble::core::tasks

#endif  // ENSEMBLE_CORE_TASKS_TASK_TOOL_ROWS_H_
