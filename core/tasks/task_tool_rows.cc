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

using text::kCloseQuote;
using text::kOpenQuote;

Status NoTask(const std::string& id) { return Status(codes::kNotFound, "no task with id " + id); }

namespace {

std::vector<std::string> Strings(const json& list) {
  std::vector<std::string> out;
  if (!list.is_array()) return out;
  for (const json& item : list) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

json OptionalJson(const std::optional<std::string>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

json RowJson(const Task& t) {
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

json RecordValue(const Task& t, std::string_view field) {
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

void SetRecordValue(Task& t, std::string_view field, const json& v) {
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

refs::SummaryItem ItemOf(const Task& t) { return {t.title, t.due.value_or("")}; }

Result<std::optional<Task>> FindTask(ToolContext& ctx, const std::string& id) {
  return GetTaskInSpace(*ctx.db, ctx.space_id, id);
}

Result<std::vector<Task>> LiveTasks(ToolContext& ctx, const std::string& status,
                                    bool include_done) {
  return ListTasksInSpace(*ctx.db, ctx.space_id, {.status = status, .include_done = include_done});
}

const records::FieldSpec& TaskField(std::string_view name) {
  return *tasks::kTaskKind.FindField(name);
}

std::vector<refs::SummaryItem> ItemsOf(const std::vector<Task>& rows) {
  std::vector<refs::SummaryItem> items;
  for (const Task& r : rows) items.push_back(ItemOf(r));
  return items;
}

}  // namespace ensemble::core::tasks
