#include "core/tasks/task.h"

#include <string>

#include "core/records/record_mutators.h"

namespace ensemble::core::tasks {
namespace {

using nlohmann::json;
using store::Value;

constexpr std::string_view kColumns =
    "id, space_id, title, status, due, version, deleted, created_at, updated_at, row_version, "
    "description, priority, project, people, labels, depends_on, blocks, page";

std::optional<std::string> OptionalText(const Value& v) {
  if (store::IsNull(v)) return std::nullopt;
  return store::AsText(v);
}

// A list column (JSON text) as strings; what does not parse reads as empty.
std::vector<std::string> ListColumn(std::string_view field, const Value& v) {
  std::vector<std::string> out;
  if (store::IsNull(v)) return out;
  const json list =
      records::FromColumn(*kTaskKind.FindField(field), json(std::string(store::AsText(v))));
  if (!list.is_array()) return out;
  for (const json& item : list) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

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
  t.description = store::AsText(r[10]);
  t.priority = store::AsText(r[11]);
  t.project = OptionalText(r[12]);
  t.people = ListColumn("people", r[13]);
  t.labels = ListColumn("labels", r[14]);
  t.depends_on = ListColumn("depends_on", r[15]);
  t.blocks = ListColumn("blocks", r[16]);
  t.page = OptionalText(r[17]);
  return t;
}

// The tasks `where` (a SQL condition, then any ORDER BY) selects.
Result<std::vector<Task>> Select(store::Database& db, const std::string& where,
                                 const std::vector<Value>& params) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT " + std::string(kColumns) + " FROM tasks WHERE " + where, params));
  std::vector<Task> out;
  out.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) out.push_back(FromRow(rows, i));
  return out;
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
  auto optional = [](const std::optional<std::string>& v) { return v ? json(*v) : json(nullptr); };
  return json{{"id", t.id},
              {"spaceId", t.space_id},
              {"title", t.title},
              {"status", t.status},
              {"due", optional(t.due)},
              {"description", t.description},
              {"priority", t.priority},
              {"project", optional(t.project)},
              {"people", t.people},
              {"labels", t.labels},
              {"dependsOn", t.depends_on},
              {"blocks", t.blocks},
              {"page", optional(t.page)},
              {"version", t.version},
              {"deleted", t.deleted},
              {"createdAt", t.created_at},
              {"updatedAt", t.updated_at}};
}

const records::FieldSpec kTaskFields[] = {
    {.name = "title", .required = true, .trim = true, .max_chars = kMaxTitleChars},
    {.name = "status", .type = records::FieldType::kEnum, .values = kStatuses},
    {.name = "due", .type = records::FieldType::kDate, .nullable = true},
    {.name = "description", .max_chars = kMaxDescriptionChars},
    {.name = "priority", .type = records::FieldType::kEnum, .values = kPriorities},
    {.name = "project", .type = records::FieldType::kId, .nullable = true},
    {.name = "people", .type = records::FieldType::kIdList, .max_items = kMaxPeoplePerTask},
    {.name = "labels",
     .type = records::FieldType::kTextList,
     .max_chars = kMaxLabelChars,
     .max_items = kMaxLabels},
    {.name = "depends_on", .type = records::FieldType::kIdList, .max_items = kMaxTaskLinks},
    {.name = "blocks", .type = records::FieldType::kIdList, .max_items = kMaxTaskLinks},
    {.name = "page", .type = records::FieldType::kId, .nullable = true},
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
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<Task> found, Select(db, "id = $1", {Value(id)}));
  if (found.empty()) return std::optional<Task>();
  return std::optional<Task>(std::move(found[0]));
}

Result<std::vector<Task>> ListTasks(store::Database& db) {
  return Select(db, "deleted = 0 ORDER BY id", {});
}

Result<std::optional<Task>> GetTaskInSpace(store::Database& db, const std::string& space_id,
                                           const std::string& id) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<Task> found,
                            Select(db, "id = $1 AND space_id = $2", {Value(id), Value(space_id)}));
  if (found.empty()) return std::optional<Task>();
  return std::optional<Task>(std::move(found[0]));
}

Result<std::vector<Task>> ListTasksInSpace(store::Database& db, const std::string& space_id,
                                           const TaskFilter& filter) {
  std::string where = "space_id = $1 AND deleted = 0";
  std::vector<Value> params = {Value(space_id)};
  if (!filter.status.empty()) {
    params.push_back(Value(filter.status));
    where += " AND status = $2";
  } else if (!filter.include_done) {
    where += " AND status <> 'done'";
  }
  where += " ORDER BY id";
  if (filter.limit > 0) where += " LIMIT " + std::to_string(filter.limit);
  return Select(db, where, params);
}

}  // namespace ensemble::core::tasks
