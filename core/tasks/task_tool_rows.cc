#include "core/tasks/task_tool_rows.h"

#include <utility>

#include "core/store/database.h"
#include "core/sync/authorization.h"
#include "core/tasks/task.h"
#include "core/text/trim.h"
#include "core/text/typography.h"

namespace ensemble::core::tasks {

using nlohmann::json;
using tools::ToolContext;

using store::Value;

using text::kCloseQuote;
using text::kOpenQuote;

Status NoTask(const std::string& id) { return Status(codes::kNotFound, "no task with id " + id); }

namespace {

constexpr std::string_view kRowColumns =
    "id, title, status, due, deleted, description, priority, project, people, labels, "
    "depends_on, blocks, page, version";

std::optional<std::string> OptionalText(const Value& v) {
  if (store::IsNull(v)) return std::nullopt;
  return store::AsText(v);
}

std::vector<std::string> Strings(const json& list) {
  std::vector<std::string> out;
  if (!list.is_array()) return out;
  for (const json& item : list) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

// A list column (JSON text) as its strings.
std::vector<std::string> ListAt(std::string_view field, const Value& v) {
  if (store::IsNull(v)) return {};
  return Strings(records::FromColumn(TaskField(field), json(store::AsText(v))));
}

json OptionalJson(const std::optional<std::string>& v) { return v ? json(*v) : json(nullptr); }

TaskRow RowAt(const store::Rows& rows, std::size_t i) {
  const auto& r = rows.rows[i];
  TaskRow t;
  t.id = store::AsText(r[0]);
  t.title = store::AsText(r[1]);
  t.status = store::AsText(r[2]);
  t.due = OptionalText(r[3]);
  t.deleted = store::AsInt(r[4]) != 0;
  t.description = store::AsText(r[5]);
  t.priority = store::AsText(r[6]);
  t.project = OptionalText(r[7]);
  t.people = ListAt("people", r[8]);
  t.labels = ListAt("labels", r[9]);
  t.depends_on = ListAt("depends_on", r[10]);
  t.blocks = ListAt("blocks", r[11]);
  t.page = OptionalText(r[12]);
  t.version = store::AsInt(r[13]);
  return t;
}

}  // namespace

json RowJson(const TaskRow& t) {
  json row = {{"id", t.id},
              {"title", t.title},
              {"status", t.status},
              {"due", OptionalJson(t.due)},
              {"priority", t.priority},
              {"description", text::TruncateChars(t.description, kMaxRowDescriptionChars)},
              {"projectId", OptionalJson(t.project)},
              {"personIds", t.people},
              {"labels", t.labels},
              {"dependsOn", t.depends_on},
              {"blocks", t.blocks},
              {"pageId", OptionalJson(t.page)},
              {"version", t.version}};
  if (row["description"].get_ref<const std::string&>().size() < t.description.size()) {
    row["descriptionCut"] = true;
  }
  return row;
}

json RecordValue(const TaskRow& t, std::string_view field) {
  if (field == "title") return t.title;
  if (field == "status") return t.status;
  if (field == "due") return OptionalJson(t.due);
  if (field == "description") return t.description;
  if (field == "priority") return t.priority;
  if (field == "project") return OptionalJson(t.project);
  if (field == "people") return t.people;
  if (field == "labels") return t.labels;
  if (field == "depends_on") return t.depends_on;
  if (field == "blocks") return t.blocks;
  if (field == "page") return OptionalJson(t.page);
  return nullptr;
}

void SetRecordValue(TaskRow& t, std::string_view field, const json& v) {
  auto optional = [&v] {
    return v.is_string() ? std::optional<std::string>(v.get<std::string>()) : std::nullopt;
  };
  auto text = [&v] { return v.is_string() ? v.get<std::string>() : std::string(); };
  if (field == "title") t.title = text();
  if (field == "status") t.status = text();
  if (field == "due") t.due = optional();
  if (field == "description") t.description = text();
  if (field == "priority") t.priority = text();
  if (field == "project") t.project = optional();
  if (field == "people") t.people = Strings(v);
  if (field == "labels") t.labels = Strings(v);
  if (field == "depends_on") t.depends_on = Strings(v);
  if (field == "blocks") t.blocks = Strings(v);
  if (field == "page") t.page = optional();
}

refs::SummaryItem ItemOf(const TaskRow& t) { return {t.title, t.due.value_or("")}; }

Result<std::optional<TaskRow>> FindTask(ToolContext& ctx, const std::string& id) {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            ctx.db->Query("SELECT " + std::string(kRowColumns) +
                                              " FROM tasks WHERE id = $1 AND space_id = $2",
                                          {Value(id), Value(ctx.space_id)}));
  if (rows.empty()) return std::optional<TaskRow>();
  return std::optional<TaskRow>(RowAt(rows, 0));
}

Result<std::vector<TaskRow>> LiveTasks(ToolContext& ctx, const std::string& status,
                                       bool include_done) {
  std::string sql = "SELECT ";
  sql.append(kRowColumns).append(" FROM tasks WHERE space_id = $1 AND deleted = 0");
  std::vector<Value> params = {Value(ctx.space_id)};
  if (!status.empty()) {
    params.push_back(Value(status));
    sql += " AND status = $2";
  } else if (!include_done) {
    sql += " AND status <> 'done'";
  }
  sql += " ORDER BY id";
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, ctx.db->Query(sql, params));
  std::vector<TaskRow> out;
  out.reserve(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) out.push_back(RowAt(rows, i));
  return out;
}

const records::FieldSpec& TaskField(std::string_view name) {
  return *tasks::kTaskKind.FindField(name);
}

std::vector<refs::SummaryItem> ItemsOf(const std::vector<TaskRow>& rows) {
  std::vector<refs::SummaryItem> items;
  for (const TaskRow& r : rows) items.push_back(ItemOf(r));
  return items;
}

}  // namespace ensemble::core::tasks
