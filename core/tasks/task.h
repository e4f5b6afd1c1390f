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

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/records/record_kind.h"
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

struct Task {
  std::string id;
  std::string space_id;
  std::string title;
  std::string status;
  std::optional<std::string> due;  // YYYY-MM-DD.
  int64_t version = 0;             // 1 on create, +1 on each update.
  bool deleted = false;
  int64_t created_at = 0;
  int64_t updated_at = 0;
  int64_t row_version = 0;  // Server change that last wrote the row.
};

nlohmann::json ToJson(const Task& task);

// The task fields: title (required), status (todo|doing|done), due (date or null).
extern const records::RecordKind kTaskKind;

// The schema steps for tasks, in the hub's migration list.
extern const store::Migration kCreateTasksTable;

// {id, spaceId, title, status?, due?}
Status CreateTask(sync::MutationContext& ctx, const nlohmann::json& args);
// {id, fields: {title?, status?, due?}, base?: {field: value it was based on}}
// A field that changed since `base` and would now be overwritten with a
// different value fails the whole mutation with SAVE_CONFLICT; the server's
// current values are in ctx.details()["current"]. A task in Trash fails with
// RECORD_DELETED.
Status UpdateTask(sync::MutationContext& ctx, const nlohmann::json& args);

void RegisterMutators(sync::MutatorRegistry& registry);

Result<std::optional<Task>> GetTask(store::Database& db, const std::string& id);
// Live (not deleted) tasks, oldest first (ids are time-ordered).
Result<std::vector<Task>> ListTasks(store::Database& db);

}  // namespace ensemble::core::tasks

#endif  // ENSEMBLE_CORE_TASKS_TASK_H_
