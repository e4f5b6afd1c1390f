// Tasks on the Ensemble board (playbooks/tasks.md).

#include "core/tasks/task_tools.h"

#include <limits>
#include <utility>
#include <vector>

#include "core/tasks/task.h"
#include "core/tasks/task_tool_runs.h"
#include "core/tools/tool_table.h"

namespace ensemble::core::tasks {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

// The spec names no cap; 50 tasks is a long request, and one Apply.
constexpr std::size_t kMaxTasksPerCreate = 50;

json TaskStatusEnum() { return Enum({"todo", "doing", "done"}); }
json Priority() { return Enum({"none", "low", "medium", "high", "urgent"}); }

json TaskFields(bool for_update) {
  json title = Text(tasks::kMaxTitleChars);
  json due = Date("Due date, YYYY-MM-DD, in the person's time zone");
  json project = Id("Project id from hub_list_projects");
  json page = Id("The task's page id");
  if (for_update) {
    due = Nullable(due);
    project = Nullable(project);
    page = Nullable(page);
  }
  return {{"title", title},
          {"status", TaskStatusEnum()},
          {"due", due},
          {"priority", for_update ? Nullable(Priority()) : Priority()},
          {"projectId", project},
          {"personIds", Array(Id(), tasks::kMaxPeoplePerTask, "People ids; the complete list")},
          {"labels", Array(Str(tasks::kMaxLabelChars), tasks::kMaxLabels,
                           "Labels, e.g. waiting-on; the complete list")},
          {"dependsOn",
           Array(Id(), tasks::kMaxTaskLinks, "Ids of tasks this one waits for; the complete list")},
          {"blocks", Array(Id(), tasks::kMaxTaskLinks,
                           "Ids of tasks waiting for this one; the complete list")},
          {"pageId", page},
          {"description", Str(tasks::kMaxDescriptionChars)}};
}

}  // namespace

Status RegisterTaskTools(tools::ToolRegistry& registry) {
  std::vector<tools::ToolDef> defs = {
      Read(kListTasksTool, areas::kTasks,
           "List tasks with their ids, filtered by status, project, person, label or text.",
           Object(WithPaging({{"status", TaskStatusEnum()},
                              {"projectId", Id()},
                              {"personId", Id()},
                              {"label", Str(tasks::kMaxLabelChars)},
                              {"query", Str(kMaxQueryChars, "Words in the title")},
                              {"includeDone", Bool()}})),
           {.run = RunListTasks}),
      ForGuests(Write(kCreateTasksTool, areas::kTasks,
                      "Create one or more tasks in one call; set only the fields the person gave.",
                      Object({{"tasks", Array(Object(TaskFields(false), {"title"}),
                                              kMaxTasksPerCreate, {}, 1)}},
                             {"tasks"}),
                      Risk::kLow, true, {.preview = PreviewCreateTasks, .run = RunCreateTasks})),
      ForGuests(Write(
          kUpdateTaskTool, areas::kTasks,
          "Change a task's status, title, due date, priority, description, project, people, "
          "labels, dependencies or page; send the values you read as base (or the version "
          "you read as expectedVersion).",
          Object({{"id", Id()},
                  {"fields", Object(TaskFields(true))},
                  {"expectedVersion", Int(1, std::numeric_limits<int>::max(),
                                          "The version you read, when you send no base")},
                  {"base",
                   {{"type", "object"},
                    {"maxProperties", 11},
                    {"description", "The values the change was based on"}}}},
                 {"id", "fields"}),
          Risk::kLow, true,
          {.prepare = PrepareUpdateTask, .preview = PreviewUpdateTask, .run = RunUpdateTask})),
      Write("hub_delete_tasks", areas::kTasks,
            "Move tasks to Trash, by ids or all tasks matching a filter.",
            Object({{"ids", Ids()},
                    {"all", Bool("Every task matching status and projectId")},
                    {"status", TaskStatusEnum()},
                    {"projectId", Id()}}),
            Risk::kHigh, true,
            {.prepare = PrepareDeleteTasks, .preview = PreviewDeleteTasks, .run = RunDeleteTasks}),
      Read(kListDueTool, areas::kTasks,
           "What is due or overdue in a date range, with today's items first.",
           Object({{"from", Date()},
                   {"to", Date()},
                   {"includeOverdue", Bool()},
                   {"limit", Int(1, kMaxListLimit)}}),
           {.run = RunListDue}),
  };
  return tools::RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::tasks
