#include "core/tasks/task.h"

#include <algorithm>
#include <string>

#include "core/base/id.h"
#include "core/text/utf8.h"

namespace ensemble::core::tasks {
namespace {

using nlohmann::json;
using store::Value;

constexpr std::string_view kColumns =
    "id, space_id, title, status, due, version, deleted, created_at, updated_at, row_version";

Status Invalid(std::string message) { return Status(codes::kInvalidArgument, std::move(message)); }

bool IsLeap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

bool IsIsoDate(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  int y = std::stoi(std::string(s.substr(0, 4)));
  int m = std::stoi(std::string(s.substr(5, 2)));
  int d = std::stoi(std::string(s.substr(8, 2)));
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1) return false;
  int max = kDays[m - 1] + (m == 2 && IsLeap(y) ? 1 : 0);
  return d <= max;
}

Status CheckTitle(const json& v) {
  if (!v.is_string()) return Invalid("title must be a string");
  const auto& s = v.get_ref<const std::string&>();
  if (!text::IsValidUtf8(s)) return Invalid("title is not valid UTF-8");
  if (text::Trim(s).empty()) return Invalid("title must not be empty");
  if (text::CountCodePoints(s) > kMaxTitleChars) {
    return Invalid("title is longer than " + std::to_string(kMaxTitleChars) + " characters");
  }
  return Status::Ok();
}

Status CheckStatus(const json& v) {
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (std::find(std::begin(kStatuses), std::end(kStatuses), s) != std::end(kStatuses)) {
      return Status::Ok();
    }
  }
  return Invalid("status must be one of todo, doing, done");
}

Status CheckDue(const json& v) {
  if (v.is_null() || (v.is_string() && IsIsoDate(v.get_ref<const std::string&>()))) {
    return Status::Ok();
  }
  return Invalid("due must be a date (YYYY-MM-DD) or null");
}

Status CheckField(const std::string& name, const json& v) {
  if (name == "title") return CheckTitle(v);
  if (name == "status") return CheckStatus(v);
  if (name == "due") return CheckDue(v);
  return Invalid("unknown task field '" + name + "'");
}

// The stored form of a field, for comparing with `base` and new values.
json StoredField(const Task& t, const std::string& name) {
  if (name == "title") return t.title;
  if (name == "status") return t.status;
  if (name == "due") return t.due ? json(*t.due) : json(nullptr);
  return nullptr;
}

json NormalizedField(const std::string& name, const json& v) {
  if (name == "title") return std::string(text::Trim(v.get_ref<const std::string&>()));
  return v;
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
  return t;
}

Value DueValue(const json& v) {
  return v.is_string() ? Value(v.get<std::string>()) : Value(store::Null{});
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

Status CreateTask(sync::MutationContext& ctx, const json& args) {
  if (!args.is_object()) return Invalid("task.create takes an object");
  for (const auto& [key, _] : args.items()) {
    if (key != "id" && key != "spaceId" && key != "title" && key != "status" && key != "due") {
      return Invalid("unknown argument '" + key + "' for task.create");
    }
  }
  if (!args.contains("id") || !args["id"].is_string() ||
      !IsValidId(args["id"].get_ref<const std::string&>())) {
    return Invalid("id must be a record id");
  }
  if (!args.contains("spaceId") || !args["spaceId"].is_string() ||
      args["spaceId"].get_ref<const std::string&>().empty() ||
      args["spaceId"].get_ref<const std::string&>().size() > kMaxSpaceIdChars) {
    return Invalid("spaceId must name a space");
  }
  if (!args.contains("title")) return Invalid("title is required");
  ENSEMBLE_RETURN_IF_ERROR(CheckTitle(args["title"]));
  json status = args.value("status", json("todo"));
  ENSEMBLE_RETURN_IF_ERROR(CheckStatus(status));
  json due = args.value("due", json(nullptr));
  ENSEMBLE_RETURN_IF_ERROR(CheckDue(due));

  const std::string& id = args["id"].get_ref<const std::string&>();
  ENSEMBLE_ASSIGN_OR_RETURN(auto existing, GetTask(ctx.db(), id));
  if (existing) return Status(codes::kAlreadyExists, "a task with id " + id + " already exists");
  ENSEMBLE_RETURN_IF_ERROR(ctx.WillWrite(kKind, id));
  return ctx.db().Exec(
      "INSERT INTO tasks (id, space_id, title, status, due, version, deleted, created_at,"
      " updated_at, row_version) VALUES ($1, $2, $3, $4, $5, 1, 0, $6, $6, 0)",
      {Value(id), Value(args["spaceId"].get<std::string>()),
       Value(std::string(text::Trim(args["title"].get_ref<const std::string&>()))),
       Value(status.get<std::string>()), DueValue(due), Value(ctx.now_ms())});
}

Status UpdateTask(sync::MutationContext& ctx, const json& args) {
  if (!args.is_object()) return Invalid("task.update takes an object");
  for (const auto& [key, _] : args.items()) {
    if (key != "id" && key != "fields" && key != "base") {
      return Invalid("unknown argument '" + key + "' for task.update");
    }
  }
  if (!args.contains("id") || !args["id"].is_string()) return Invalid("id must be a record id");
  if (!args.contains("fields") || !args["fields"].is_object() || args["fields"].empty()) {
    return Invalid("fields must name at least one field to change");
  }
  const json& fields = args["fields"];
  const json base = args.value("base", json::object());
  if (!base.is_object()) return Invalid("base must be an object");
  for (const auto& [name, value] : fields.items()) ENSEMBLE_RETURN_IF_ERROR(CheckField(name, value));
  for (const auto& [name, value] : base.items()) {
    if (!fields.contains(name)) return Invalid("base names '" + name + "', which is not changed");
    Status st = CheckField(name, value);
    if (!st.ok()) return Invalid("base." + name + ": " + st.message());
  }

  const std::string& id = args["id"].get_ref<const std::string&>();
  ENSEMBLE_ASSIGN_OR_RETURN(auto found, GetTask(ctx.db(), id));
  if (!found || found->deleted) return Status(codes::kNotFound, "no task with id " + id);
  const Task& task = *found;

  // The _base rule: disjoint fields merge; an overwritten concurrent change conflicts.
  json conflicts = json::array();
  for (const auto& [name, value] : fields.items()) {
    if (!base.contains(name)) continue;
    json current = StoredField(task, name);
    if (current != NormalizedField(name, base[name]) && current != NormalizedField(name, value)) {
      conflicts.push_back(name);
    }
  }
  if (!conflicts.empty()) {
    json current = json::object();
    for (const auto& name : conflicts) current[name.get<std::string>()] = StoredField(task, name);
    ctx.details() = json{{"fields", conflicts}, {"current", current}, {"version", task.version}};
    return Status(codes::kSaveConflict,
                  "this task was changed elsewhere since you started editing it");
  }

  ENSEMBLE_RETURN_IF_ERROR(ctx.WillWrite(kKind, id));
  Task next = task;
  for (const auto& [name, value] : fields.items()) {
    json v = NormalizedField(name, value);
    if (name == "title") next.title = v.get<std::string>();
    if (name == "status") next.status = v.get<std::string>();
    if (name == "due") next.due = v.is_null() ? std::nullopt : std::optional(v.get<std::string>());
  }
  return ctx.db().Exec(
      "UPDATE tasks SET title = $2, status = $3, due = $4, version = version + 1,"
      " updated_at = $5 WHERE id = $1",
      {Value(id), Value(next.title), Value(next.status),
       next.due ? Value(*next.due) : Value(store::Null{}), Value(ctx.now_ms())});
}

void RegisterMutators(sync::MutatorRegistry& registry) {
  registry.Register("task.create", CreateTask);
  registry.Register("task.update", UpdateTask);
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
