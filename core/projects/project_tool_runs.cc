#include "core/projects/project_tool_runs.h"

#include <string>
#include <utility>
#include <vector>

#include "core/projects/project.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/record_rows.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::projects {
namespace {

using namespace tools::record_rows;  // NOLINT: the shared pieces of the record tools.

// Input name -> field name: the schema says personIds, the record people.
std::string FieldName(const std::string& input_name) {
  return input_name == "personIds" ? "people" : input_name;
}
std::string InputName(const std::string& field) { return field == "people" ? "personIds" : field; }

json ProjectShape(const json& row) {
  return {{"id", row["id"]},
          {"title", row["title"]},
          {"status", row["status"]},
          {"description", row["description"]},
          {"start", row["start"]},
          {"due", row["due"]},
          {"personIds", row["people"]},
          {"deliverables", row["deliverables"]}};
}

// --- hub_list_projects -------------------------------------------------------

// --- fields shared by create and update --------------------------------------

// The record's fields from the tool's: personIds renamed, deliverables given
// ids, each checked as the record checks it; people resolved in the space.
Result<json> RecordFields(ToolContext& ctx, const json& given) {
  json fields = json::object();
  int64_t new_ids = 0;
  for (const auto& [input_name, value] : given.items()) {
    const std::string name = FieldName(input_name);
    const records::FieldSpec* f = projects::kProjectKind.FindField(name);
    if (!f) return InvalidArgument("projects do not keep " + input_name);
    json v = value;
    if (name == "deliverables" && v.is_array()) {
      for (json& d : v) {
        if (!d.is_object()) continue;
        if (!d.contains("id")) {
          ENSEMBLE_ASSIGN_OR_RETURN(std::string id, NewRecordId(ctx, ++new_ids));
          d["id"] = id;
        }
        if (d.contains("title") && d["title"].is_string()) {
          d["title"] = std::string(text::Trim(d["title"].get<std::string>()));
        }
        if (!d.contains("due")) d["due"] = nullptr;
        if (!d.contains("done")) d["done"] = false;
      }
    }
    if (name == "people") ENSEMBLE_RETURN_IF_ERROR(CheckLiveIds(ctx, kPerson, v));
    Status st = records::CheckField(*f, v);
    if (!st.ok()) return InvalidArgument(input_name + ": " + st.message());
    fields[name] = records::NormalizeField(*f, v);
  }
  return fields;
}

std::string DeliverablesText(const json& list) {
  std::size_t done = 0;
  for (const json& d : list) done += d.value("done", false) ? 1 : 0;
  return text::FormatCount(list.size()) + (list.size() == 1 ? " deliverable" : " deliverables") +
         (done > 0 ? " (" + text::FormatCount(done) + " done)" : "");
}

// "status to done, due to 3 Dec, 2 deliverables (1 done)".
std::string ChangesText(const json& fields, const std::string& today) {
  std::string out;
  for (const auto& [name, value] : fields.items()) {
    std::string part;
    if (name == "start" || name == "due") {
      part = value.is_null() ? "no " + name + " date"
                             : name + " to " + tools::DayText(value.get<std::string>(), today);
    } else if (name == "title") {
      part = "title to " + Quoted(value.get<std::string>());
    } else if (name == "description") {
      part = value.get<std::string>().empty() ? "no description" : "a new description";
    } else if (name == "people") {
      part = value.empty()
                 ? "no people"
                 : text::FormatCount(value.size()) + (value.size() == 1 ? " person" : " people");
    } else if (name == "deliverables") {
      part = DeliverablesText(value);
    } else {
      part = name + " to " + (value.is_string() ? value.get<std::string>() : value.dump());
    }
    out += (out.empty() ? "" : ", ") + part;
  }
  return out;
}

// --- hub_create_project ------------------------------------------------------

// --- hub_update_project ------------------------------------------------------

// The project the update names: in the space, live (RECORD_DELETED in Trash).
Result<json> ProjectUpdateTarget(ToolContext& ctx, const json& in) {
  const std::string id = tools::StringIn(in, "id");
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<json> row, FindInSpace(ctx, kProject, id));
  if (!row) return NotFound(kProject, id);
  if (row->value("deleted", int64_t{0}) != 0) {
    return Status(codes::kRecordDeleted, Quoted(row->value("title", std::string())) +
                                             " is in Trash; restore it to apply the edit");
  }
  return *row;
}

Result<json> UpdateFields(ToolContext& ctx, const json& in) {
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, RecordFields(ctx, in.value("fields", json::object())));
  if (fields.empty()) return InvalidArgument("fields must name a change");
  return fields;
}

// --- hub_delete_projects -----------------------------------------------------

Status RefuseDeleteTasks(const json& in) {
  if (in.value("deleteTasks", false)) {
    return InvalidArgument(
        "hub_delete_projects cannot remove a project's tasks (deleteTasks); leave it out and "
        "delete them with hub_delete_tasks");
  }
  return Status::Ok();
}

}  // namespace

Result<json> RunListProjects(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  const std::string query = tools::StringIn(call.input, "query");
  const std::string status = tools::StringIn(call.input, "status");
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<json> rows, AllLive(*ctx, kProject));
  // Archived projects are out of the way unless asked for by status.
  std::erase_if(rows, [&](const json& r) {
    const std::string s = r.value("status", std::string());
    if (status.empty() ? s == "archived" : s != status) return true;
    return !MatchesQuery(query,
                         {r.value("title", std::string()), r.value("description", std::string())});
  });
  return ListResult(kProject, call.input, rows, query, ProjectShape);
}

Result<std::string> PreviewCreateProject(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, RecordFields(*ctx, call.input));
  if (!fields.contains("title")) return InvalidArgument("a project needs a title");
  const std::string title = fields["title"].get<std::string>();
  fields.erase("title");
  return "Add project " + Quoted(title) +
         (fields.empty() ? "" : " with " + ChangesText(fields, ctx->today)) + ".";
}

Result<json> RunCreateProject(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, RecordFields(*ctx, call.input));
  if (!fields.contains("title")) return InvalidArgument("a project needs a title");
  ENSEMBLE_ASSIGN_OR_RETURN(std::string id, NewRecordId(*ctx));
  json args = fields;
  args["id"] = id;
  args["spaceId"] = ctx->space_id;
  ENSEMBLE_RETURN_IF_ERROR(ctx->write({{"project.create", args}}));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, LiveInSpace(*ctx, kProject, id));
  return json{{"summary", "Added project " + Quoted(row["title"].get<std::string>()) + "."},
              {"data", {{"project", ProjectShape(row)}}},
              {"undo", UndoJson({{"project.delete", {{"id", id}}}})}};
}

// Pins the values the change is based on (PinBase), so a held edit does not
// overwrite a field someone changed before Apply.
Status PrepareUpdateProject(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, ProjectUpdateTarget(*ctx, call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, UpdateFields(*ctx, call.input));
  json current = json::object();
  for (const auto& [name, _] : fields.items()) current[InputName(name)] = row[name];
  PinBase(call.input, current);
  return Status::Ok();
}

Result<std::string> PreviewUpdateProject(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, ProjectUpdateTarget(*ctx, call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, UpdateFields(*ctx, call.input));
  return "Change " + Quoted(row["title"].get<std::string>()) + ": " +
         ChangesText(fields, ctx->today) + ".";
}

Result<json> RunUpdateProject(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, ProjectUpdateTarget(*ctx, call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, UpdateFields(*ctx, call.input));
  // The _base rule reads only the changed fields.
  json base = json::object();
  const json given_base = call.input.value("base", json::object());
  for (const auto& [input_name, value] : given_base.items()) {
    const std::string name = FieldName(input_name);
    if (fields.contains(name)) base[name] = value;
  }
  json args = {{"id", row["id"]}, {"fields", fields}};
  if (!base.empty()) args["base"] = base;
  Status st = ctx->write({{"project.update", args}});
  if (st.code() == codes::kSaveConflict) return ConflictError(*ctx, kProject, row, fields, st);
  ENSEMBLE_RETURN_IF_ERROR(st);
  json previous = json::object();
  for (const auto& [name, _] : fields.items()) previous[name] = row[name];
  ENSEMBLE_ASSIGN_OR_RETURN(json after, LiveInSpace(*ctx, kProject, row["id"].get<std::string>()));
  return json{{"summary", "Updated " + Quoted(row["title"].get<std::string>()) + ": " +
                              ChangesText(fields, ctx->today) + "."},
              {"data", {{"project", ProjectShape(after)}}},
              {"undo", UndoJson({UpdateBack(kProject, row["id"], previous, fields)})}};
}

Status PrepareDeleteProjects(ToolCall& call) {
  ENSEMBLE_RETURN_IF_ERROR(RefuseDeleteTasks(call.input));
  return PrepareDelete(kProject, call);
}

Result<std::string> PreviewDeleteProjects(const ToolCall& call) {
  ENSEMBLE_RETURN_IF_ERROR(RefuseDeleteTasks(call.input));
  return PreviewDelete(kProject, call);
}

Result<json> RunDeleteProjects(ToolCall& call) {
  ENSEMBLE_RETURN_IF_ERROR(RefuseDeleteTasks(call.input));
  return RunDelete(kProject, call);
}

}  // namespace ensemble::core::projects
