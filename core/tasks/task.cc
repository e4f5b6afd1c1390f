#include "core/tasks/task.h"

#include <string>

#include "core/records/record_mutators.h"

namespace ensemble::core::tasks {
namespace {

using nlohmann::json;
using store::Value;

constexpr std::string_view kColumns =
    "id, space_id, title, status, due, version, deleted, created_at, updated_at, row_version";

Task FromRow(const store::Rows& rows, size_t i) {
  const auto& r = rows.rows[i];
  Task t;
  t.id = store::AsText(r[0]);
  t.space_id = store::AsText(r[1]);
  t.title = store::AsText(r[2]);
  t.status = store::AsText(r[3]);
  if (!store::IsNull(r[4])) t.due = store::AsText(r[4]);
  t.version = store::AsInt(r[5]);
  t.deleted = store::AsInt(r[6]) != 0;
  t.created_at = store::AsInt(r[7]);
  t.updated_at = store::AsInt(r[8]);
  t.row_version = store::AsInt(r[9]);
  return t;
}

}  // namespace

const store::Migration kCreateTasksTable = {
    1, "create tasks",
    "CREATE TABLE tasks ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " title TEXT NOT NULL,"
    " status TEXT NOT NULL,"
    " due TEXT,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX tasks_space ON tasks (space_id, id);"
    "CREATE INDEX tasks_row_version ON tasks (row_version);"};

json ToJson(const Task& t) {
  return json{{"id", t.id},
              {"spaceId", t.space_id},
              {"title", t.title},
              {"status", t.status},
              {"due", t.due ? json(*t.due) : json(nullptr)},
              {"version", t.version},
              {"deleted", t.deleted},
              {"createdAt", t.created_at},
              {"updatedAt", t.updated_at}};
}

const records::FieldSpec kTaskFields[] = {
    {.name = "title", .required = true, .trim = true, .max_chars = kMaxTitleChars},
    {.name = "status", .type = records::FieldType::kEnum, .values = kStatuses},
    {.name = "due", .type = records::FieldType::kDate, .nullable = true},
};
const records::RecordKind kTaskKind = {kKind, kTable, kTaskFields};

Status CreateTask(sync::MutationContext& ctx, const json& args) {
  return records::CreateRecord(kTaskKind, ctx, args);
}

Status UpdateTask(sync::MutationContext& ctx, const json& args) {
  return records::UpdateRecord(kTaskKind, ctx, args);
}

void RegisterMutators(sync::MutatorRegistry& registry) {
  records::RegisterRecordMutators(kTaskKind, registry);
}

Result<std::optional<Task>> GetTask(store::Database& db, const std::string& id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT " + std::string(kColumns) + " FROM tasks WHERE id = $1", {Value(id)}));
  if (rows.empty()) return std::optional<Task>();
  return std::optional<Task>(FromRow(rows, 0));
}

Result<std::vector<Task>> ListTasks(store::Database& db) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT " + std::string(kColumns) + " FROM tasks WHERE deleted = 0 ORDER BY id"));
  std::vector<Task> out;
  out.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) out.push_back(FromRow(rows, i));
  return out;
}

}  // namespace ensemble::core::tasks
