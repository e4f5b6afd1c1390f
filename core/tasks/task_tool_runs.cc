// The writes (hub_create_tasks, hub_update_task, hub_delete_tasks) and the
// hooks' attachment; the reads are in task_tool_reads.cc.

#include "core/tasks/task_tool_runs.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/records/record_kind.h"
#include "core/refs/summary.h"
#include "core/tasks/task.h"
#include "core/tasks/task_tool_fields.h"
#include "core/tasks/task_tool_rows.h"
#include "core/text/trim.h"
#include "core/tools/record_rows.h"
#include "core/tools/tool_schema.h"

namespace ensemble::core::tasks {

using nlohmann::json;
using tools::BoolIn;
using tools::DayText;
using tools::Mutation;
using tools::Quoted;
using tools::ReadableContext;
using tools::StringIn;
using tools::ToolCall;
using tools::ToolContext;
using tools::UndoJson;
using tools::WritableContext;
namespace {

// --- hub_create_tasks --------------------------------------------------------

Status CheckNewTasks(const json& in) {
  auto list = in.find("tasks");
  if (list == in.end() || !list->is_array() || list->empty()) {
    return InvalidArgument("tasks must list at least one task");
  }
  for (const json& task : *list) {
    if (!task.is_object() || !task.contains("title") || !task["title"].is_string()) {
      return InvalidArgument("each task needs a title");
    }
    ENSEMBLE_RETURN_IF_ERROR(RecordFields(task).status());
  }
  return Status::Ok();
}

// Each new task's fields under the record's names, its links resolved in the
// space. Precondition: CheckNewTasks passed.
Result<std::vector<json>> NewFields(ToolContext& ctx, const json& in) {
  std::vector<json> out;
  for (const json& task : in["tasks"]) {
    ENSEMBLE_ASSIGN_OR_RETURN(json fields, RecordFields(task));
    ENSEMBLE_RETURN_IF_ERROR(ResolveLinks(ctx, fields, ""));
    out.push_back(std::move(fields));
  }
  return out;
}

// The rows a create would write, without ids.
std::vector<Task> NewRows(const std::vector<json>& fields) {
  std::vector<Task> rows;
  for (const json& given : fields) {
    Task r;
    r.status = std::string(tasks::kStatuses[0]);
    r.priority = std::string(tasks::kPriorities[0]);
    r.version = 1;
    for (const auto& [name, value] : given.items()) SetRecordValue(r, name, value);
    rows.push_back(std::move(r));
  }
  return rows;
}

// " Due 1 Dec." when every task has the same due date.
std::string SharedDue(const std::vector<Task>& rows, const std::string& today) {
  if (rows.empty() || !rows[0].due) return "";
  for (const Task& r : rows) {
    if (r.due != rows[0].due) return "";
  }
  const std::string day = DayText(*rows[0].due, today);
  return day.empty() ? "" : " Due " + day + ".";
}

// --- hub_update_task ---------------------------------------------------------

// The fields under the record's names, checked and normalized; Invalid
// when none is given.
Result<json> UpdateFields(const json& in) {
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, RecordFields(in.value("fields", json::object())));
  if (fields.empty()) {
    return InvalidArgument(
        "fields must name a change: title, status, due, priority, description, projectId, "
        "personIds, labels, dependsOn, blocks or pageId");
  }
  return fields;
}

// The live-or-trashed task the update names, in the space.
Result<Task> UpdateTarget(ToolContext& ctx, const json& in) {
  const std::string id = StringIn(in, "id");
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<Task> row, FindTask(ctx, id));
  if (!row) return NoTask(id);
  return *row;
}

// A SAVE_CONFLICT or VERSION_CONFLICT as the model and the person read it:
// what changed, and what to do.
Status ConflictError(ToolContext& ctx, const Task& before, const json& fields,
                     const Status& refused) {
  std::string now;
  Result<std::optional<Task>> current = FindTask(ctx, before.id);
  if (current.ok() && *current) now = CurrentText(ctx, **current, fields);
  if (refused.code() == codes::kVersionConflict) {
    return Status(codes::kVersionConflict,
                  Quoted(before.title) + " changed since that version was read" +
                      (now.empty() ? "" : " (" + now + ")") +
                      "; read it again and send its new version, or the values read as base");
  }
  return Status(codes::kSaveConflict, Quoted(before.title) +
                                          " was changed elsewhere since it was read" +
                                          (now.empty() ? "" : " (" + now + ")") +
                                          "; read it again and send the new values as base");
}

// --- hub_delete_tasks --------------------------------------------------------

// The live tasks the input means, in its order: its ids, each in the space
// (one in Trash already is left out), or with all: true every task matching
// its status and project.
Result<std::vector<Task>> DeleteTargets(ToolContext& ctx, const json& in) {
  const bool all = BoolIn(in, "all", false);
  const bool has_ids = in.contains("ids") && in["ids"].is_array();
  if (has_ids && all) return InvalidArgument("give ids or all: true, not both");
  std::vector<Task> out;
  if (has_ids) {
    if (!StringIn(in, "status").empty() || !StringIn(in, "projectId").empty()) {
      return InvalidArgument("status and projectId filter all: true, not ids");
    }
    std::vector<std::string> seen;
    for (const json& id : in["ids"]) {
      if (!id.is_string()) return InvalidArgument("ids must be task ids");
      const std::string s = id.get<std::string>();
      if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
      seen.push_back(s);
      ENSEMBLE_ASSIGN_OR_RETURN(std::optional<Task> row, FindTask(ctx, s));
      if (!row) return NoTask(s);
      if (!row->deleted) out.push_back(std::move(*row));
    }
    return out;
  }
  if (!all) {
    return InvalidArgument(
        "name the tasks to delete: ids from hub_list_tasks, or all: true with a status");
  }
  ENSEMBLE_ASSIGN_OR_RETURN(out, LiveTasks(ctx, StringIn(in, "status"), true));
  const std::string project = StringIn(in, "projectId");
  if (!project.empty()) {
    ENSEMBLE_RETURN_IF_ERROR(ResolveLinks(ctx, json{{"project", project}}, ""));
    std::erase_if(out, [&](const Task& r) { return r.project != project; });
  }
  if (out.size() > tools::schema::kMaxIdsPerCall) {
    return InvalidArgument(text::FormatCount(out.size()) + " tasks match; delete at most " +
                           std::to_string(tools::schema::kMaxIdsPerCall) + " in one call");
  }
  return out;
}

json IdsOf(const std::vector<Task>& rows) {
  json ids = json::array();
  for (const Task& r : rows) ids.push_back(r.id);
  return ids;
}

}  // namespace

Result<std::string> PreviewCreateTasks(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_RETURN_IF_ERROR(CheckNewTasks(call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<json> fields, NewFields(*ctx, call.input));
  const std::vector<Task> rows = NewRows(fields);
  std::vector<refs::SummaryItem> items;
  for (const Task& r : rows) items.push_back(ItemOf(r));
  return refs::SummarizeRecords("Add", "task", "tasks", items) + SharedDue(rows, ctx->today);
}

Result<json> RunCreateTasks(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  if (!ctx->random) return Status(codes::kFailedPrecondition, "this turn cannot make new ids");
  ENSEMBLE_RETURN_IF_ERROR(CheckNewTasks(call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<json> fields, NewFields(*ctx, call.input));
  std::vector<Task> rows = NewRows(fields);
  std::vector<Mutation> writes;
  std::vector<Mutation> undo;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    // One millisecond apart, so they list in the order the call gave them.
    ENSEMBLE_ASSIGN_OR_RETURN(rows[i].id,
                              tools::record_rows::NewRecordId(*ctx, static_cast<int64_t>(i)));
    json args = {{"id", rows[i].id}, {"spaceId", ctx->space_id}};
    args.update(fields[i]);
    writes.push_back({"task.create", std::move(args)});
    undo.push_back({"task.delete", {{"id", rows[i].id}}});
  }
  ENSEMBLE_RETURN_IF_ERROR(ctx->write(writes));
  json tasks = json::array();
  std::vector<refs::SummaryItem> items;
  for (const Task& r : rows) {
    tasks.push_back(RowJson(r));
    items.push_back(ItemOf(r));
  }
  return json{{"summary", refs::SummarizeRecords("Added", "task", "tasks", items) +
                              SharedDue(rows, ctx->today)},
              {"data", {{"tasks", std::move(tasks)}}},
              {"undo", UndoJson(std::move(undo))}};
}

// Pins the values the change is based on (tools::record_rows::PinBase), so a held
// edit does not overwrite a field someone changed before Apply. A task in
// Trash is left for the run to report.
Status PrepareUpdateTask(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, UpdateFields(call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(Task row, UpdateTarget(*ctx, call.input));
  if (row.deleted) return Status::Ok();
  json current = json::object();
  for (const auto& [name, _] : fields.items())
    current[std::string(InputNameOf(name))] = RecordValue(row, name);
  tools::record_rows::PinBase(call.input, current);
  return Status::Ok();
}

Result<std::string> PreviewUpdateTask(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, UpdateFields(call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(Task row, UpdateTarget(*ctx, call.input));
  ENSEMBLE_RETURN_IF_ERROR(ResolveLinks(*ctx, fields, row.id));
  return "Change " + Quoted(row.title) + ": " + ChangesText(*ctx, fields) + ".";
}

Result<json> RunUpdateTask(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, UpdateFields(call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(Task row, UpdateTarget(*ctx, call.input));
  if (row.deleted) {
    return Status(codes::kRecordDeleted,
                  Quoted(row.title) + " is in Trash; restore it to apply the edit");
  }
  ENSEMBLE_RETURN_IF_ERROR(ResolveLinks(*ctx, fields, row.id));
  // The _base rule only reads the changed fields; other values the model
  // read and sent along say nothing about this change. Base is given under
  // the schema's names, like the rows the model read.
  json base = json::object();
  const json given_base = call.input.value("base", json::object());
  for (const auto& [name, value] : given_base.items()) {
    const std::string field(RecordFieldOf(name));
    if (!field.empty() && fields.contains(field)) base[field] = value;
  }
  json args = {{"id", row.id}, {"fields", fields}};
  if (!base.empty()) args["base"] = base;
  if (call.input.contains("expectedVersion"))
    args["expectedVersion"] = call.input["expectedVersion"];

  Status st = ctx->write({{"task.update", args}});
  if (st.code() == codes::kSaveConflict || st.code() == codes::kVersionConflict) {
    return ConflictError(*ctx, row, fields, st);
  }
  ENSEMBLE_RETURN_IF_ERROR(st);

  // Undo writes every changed field back (lists whole), based on what this
  // call wrote, so a later change by someone else is not overwritten.
  Task after = row;
  ++after.version;
  json previous = json::object();
  for (const auto& [name, value] : fields.items()) {
    previous[name] = RecordValue(row, name);
    SetRecordValue(after, name, value);
  }
  std::vector<Mutation> undo = {
      {"task.update", {{"id", row.id}, {"fields", previous}, {"base", fields}}}};
  return json{{"summary", "Updated " + Quoted(row.title) + ": " + ChangesText(*ctx, fields) + "."},
              {"data", {{"task", RowJson(after)}}},
              {"undo", UndoJson(std::move(undo))}};
}

// Fixes the exact tasks: the input becomes {ids}, so Apply deletes only
// what the preview named.
Status PrepareDeleteTasks(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<Task> rows, DeleteTargets(*ctx, call.input));
  call.input = {{"ids", IdsOf(rows)}};
  return Status::Ok();
}

Result<std::string> PreviewDeleteTasks(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<Task> rows, DeleteTargets(*ctx, call.input));
  if (rows.empty()) return std::string("No tasks to move to Trash.");
  return refs::SummarizeRecords("Move", "task to Trash", "tasks to Trash", ItemsOf(rows));
}

Result<json> RunDeleteTasks(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_RETURN_IF_ERROR(PrepareDeleteTasks(call));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<Task> rows, DeleteTargets(*ctx, call.input));
  if (rows.empty()) {
    return json{{"summary", "No tasks to move to Trash."}, {"data", {{"tasks", json::array()}}}};
  }
  std::vector<Mutation> writes;
  std::vector<Mutation> undo;
  json tasks = json::array();
  for (const Task& r : rows) {
    writes.push_back({"task.delete", {{"id", r.id}}});
    undo.push_back({"task.restore", {{"id", r.id}}});
    tasks.push_back(RowJson(r));
  }
  ENSEMBLE_RETURN_IF_ERROR(ctx->write(writes));
  return json{{"summary",
               refs::SummarizeRecords("Moved", "task to Trash", "tasks to Trash", ItemsOf(rows))},
              {"data", {{"tasks", std::move(tasks)}}},
              {"undo", UndoJson(std::move(undo))}};
}

}  // namespace ensemble::core::tasks
