// The Task record and its mutators ("task.create", "task.update",
// "task.delete", "task.restore", from core/records).
//
// Stored in table `tasks`; times are milliseconds since the epoch taken from
// the mutation's client time, so the browser replica and the server write
// identical rows. Deletion is soft (`deleted` = 1), as Trash requires.
//
// Thread-safety: stateless functions; as the Database given.

#ifndef ENSEMBLE_CORE_TASKS_TASK_H_
#define ENSEMBLE_CORE_TASKS_TASK_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/store/database.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::tasks {

inline constexpr std::string_view kKind = "task";
inline constexpr std::string_view kTable = "tasks";

// The spec names no cap on task titles; 500 characters keeps a title a title
// (longer text belongs in the task's page).
inline constexpr size_t kMaxTitleChars = 500;
inline constexpr size_t kMaxSpaceIdChars = records::kMaxSpaceIdChars;

inline constexpr std::string_view kStatuses[] = {"todo", "doing", "done"};
// The spec gives no priority values; "none" comes first so a task made
// without one has none.
inline constexpr std::string_view kPriorities[] = {"none", "low", "medium", "high", "urgent"};

// The spec names no caps on these; each is far above real use and keeps one
// task row (and one sync message) small.
// A description is notes, not a document (that is the task's page).
inline constexpr size_t kMaxDescriptionChars = 10000;
// People on one task: a team, not a mailing list.
inline constexpr size_t kMaxPeoplePerTask = 20;
// Labels sort and filter; more than 20 on one task no longer does either.
inline constexpr size_t kMaxLabels = 20;
// A label is a word or two ("waiting-on", "deliverable").
inline constexpr size_t kMaxLabelChars = 50;
// depends_on and blocks each: a plan with more links than this is a project.
inline constexpr size_t kMaxTaskLinks = 50;

struct Task {
  std::string id;
  std::string space_id;
  std::string title;
  std::string status;
  std::optional<std::string> due;  // YYYY-MM-DD.
  std::string description;
  std::string priority;                // One of kPriorities.
  std::optional<std::string> project;  // A project id.
  std::vector<std::string> people;     // Person ids.
  std::vector<std::string> labels;
  std::vector<std::string> depends_on;  // Task ids this one waits for.
  std::vector<std::string> blocks;      // Task ids waiting for this one.
  std::optional<std::string> page;      // The task's page id.
  int64_t version = 0;                  // 1 on create, +1 on each update.
  bool deleted = false;
  int64_t created_at = 0;
  int64_t updated_at = 0;
  int64_t row_version = 0;  // Server change that last wrote the row.
};

nlohmann::json ToJson(const Task& task);

// The task fields: title (required), status (todo|doing|done), due (date or
// null), description, priority (kPriorities), project (id or null), people
// (person ids), labels, depends_on and blocks (task ids), page (id or null).
// Links are ids only: the record does not check what they name (a replica
// may not hold it yet); the assistant's tools resolve them in the space.
extern const records::RecordKind kTaskKind;

// The schema steps for tasks, in the hub's migration list.
extern const store::Migration kCreateTasksTable;
// The columns of the fields after due, for the hub's migration 15 (SQLite
// adds one column per ALTER TABLE, so one statement each; the list columns
// hold JSON text, as record_kind.h says).
inline constexpr std::string_view kAddTaskFieldsSql =
    "ALTER TABLE tasks ADD COLUMN description TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE tasks ADD COLUMN priority TEXT NOT NULL DEFAULT 'none';"
    "ALTER TABLE tasks ADD COLUMN project TEXT;"
    "ALTER TABLE tasks ADD COLUMN people TEXT NOT NULL DEFAULT '[]';"
    "ALTER TABLE tasks ADD COLUMN labels TEXT NOT NULL DEFAULT '[]';"
    "ALTER TABLE tasks ADD COLUMN depends_on TEXT NOT NULL DEFAULT '[]';"
    "ALTER TABLE tasks ADD COLUMN blocks TEXT NOT NULL DEFAULT '[]';"
    "ALTER TABLE tasks ADD COLUMN page TEXT;"
    "CREATE INDEX tasks_project ON tasks (space_id, project);";

// {id, spaceId, title, status?, due?, description?, priority?, project?,
//  people?, labels?, depends_on?, blocks?, page?}
Status CreateTask(sync::MutationContext& ctx, const nlohmann::json& args);
// {id, fields: {any of the create fields}, base?: {field: value it was based on}}
// A field that changed since `base` and would now be overwritten with a
// different value fails the whole mutation with SAVE_CONFLICT; the server's
// current values are in ctx.details()["current"]. A task in Trash fails with
// RECORD_DELETED.
Status UpdateTask(sync::MutationContext& ctx, const nlohmann::json& args);

void RegisterMutators(sync::MutatorRegistry& registry);

// The one decoder of task rows: every read below goes through it.
Result<std::optional<Task>> GetTask(store::Database& db, const std::string& id);
// Live (not deleted) tasks, oldest first (ids are time-ordered).
Result<std::vector<Task>> ListTasks(store::Database& db);

// The task `id` of space `space_id` (in Trash or not), or nullopt: a task of
// another space is not found.
Result<std::optional<Task>> GetTaskInSpace(store::Database& db, const std::string& space_id,
                                           const std::string& id);
// Which live tasks of a space ListTasksInSpace returns.
struct TaskFilter {
  std::string status;        // Only tasks of this status, when given.
  bool include_done = true;  // Without a status: false leaves out done ones.
  size_t limit = 0;          // At most this many (the first ones), when not 0.
};
// Live tasks of space `space_id` that pass `filter`, oldest first.
Result<std::vector<Task>> ListTasksInSpace(store::Database& db, const std::string& space_id,
                                           const TaskFilter& filter);

}  // namespace ensemble::core::tasks

#endif  // ENSEMBLE_CORE_TASKS_TASK_H_
