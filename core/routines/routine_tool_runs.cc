#include "core/routines/routine_tool_runs.h"

#include <string>
#include <utility>
#include <vector>

#include "core/routines/routine.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/record_rows.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::routines {
namespace {

using namespace tools::record_rows;  // NOLINT: the shared pieces of the record tools.

const Noun kRoutine = {routines::kRoutineKind.kind, "routine", "routines", "title"};

json RoutineJson(const json& row) {
  return {{"id", row["id"]},
          {"title", row["title"]},
          {"instruction", row["instruction"]},
          {"schedule", row["schedule"]},
          {"paused", row.value("paused", int64_t{0}) != 0}};
}

std::string Named(const json& row) { return Quoted(row.value("title", std::string())); }

// The record fields a create or an update names, checked as the record
// checks them (so a preview refuses what Apply would).
Result<json> FieldsOfInput(const json& in) {
  json fields = json::object();
  for (const char* name : {"title", "instruction", "schedule"}) {
    if (!in.contains(name)) continue;
    Status st = records::CheckField(*routines::kRoutineKind.FindField(name), in[name]);
    if (!st.ok()) return InvalidArgument(st.message());
    fields[name] = records::NormalizeField(*routines::kRoutineKind.FindField(name), in[name]);
  }
  if (in.contains("paused")) fields["paused"] = in.value("paused", false) ? 1 : 0;
  return fields;
}

Result<json> NewRoutine(const json& in) {
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, FieldsOfInput(in));
  for (const char* name : {"title", "instruction", "schedule"}) {
    if (!fields.contains(name)) return InvalidArgument(std::string("a routine needs its ") + name);
  }
  return fields;
}

std::string Described(const json& fields) {
  return Named(fields) + ", " + routines::ScheduleText(fields["schedule"]);
}

std::string RoutineChangesText(const json& fields) {
  std::vector<std::string> parts;
  if (fields.contains("title")) parts.push_back("title " + Named(fields));
  if (fields.contains("instruction")) parts.push_back("new instruction");
  if (fields.contains("schedule")) parts.push_back(routines::ScheduleText(fields["schedule"]));
  if (fields.contains("paused")) parts.push_back(fields["paused"] == 1 ? "paused" : "resumed");
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

Result<std::pair<json, json>> UpdateOf(ToolContext& ctx, const json& in) {
  ENSEMBLE_ASSIGN_OR_RETURN(json row, LiveInSpace(ctx, kRoutine, tools::StringIn(in, "id")));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, FieldsOfInput(in));
  if (fields.empty())
    return InvalidArgument("name a change: title, instruction, schedule or paused");
  return std::make_pair(std::move(row), std::move(fields));
}

}  // namespace

Result<json> RunListRoutines(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<json> rows, AllLive(*ctx, kRoutine));
  if (!tools::BoolIn(call.input, "includePaused", true)) {
    std::erase_if(rows, [](const json& r) { return r.value("paused", int64_t{0}) != 0; });
  }
  return ListResult(kRoutine, call.input, rows, "", RoutineJson);
}

Result<std::string> PreviewCreateRoutine(const ToolCall& call) {
  ENSEMBLE_RETURN_IF_ERROR(ReadableContext(call).status());
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, NewRoutine(call.input));
  return "Add the routine " + Described(fields);
}

Result<json> RunCreateRoutine(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json args, NewRoutine(call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(std::string id, NewRecordId(*ctx));
  args["id"] = id;
  args["spaceId"] = ctx->space_id;
  ENSEMBLE_RETURN_IF_ERROR(ctx->write({{"routine.create", args}}));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, LiveInSpace(*ctx, kRoutine, id));
  return json{{"summary", "Added the routine " + Described(row) + "."},
              {"data", {{"routine", RoutineJson(row)}}},
              {"undo", UndoJson({{"routine.delete", {{"id", id}}}})}};
}

Result<std::string> PreviewUpdateRoutine(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(auto update, UpdateOf(*ctx, call.input));
  return "Change the routine " + Named(update.first) + ": " + RoutineChangesText(update.second);
}

Result<json> RunUpdateRoutine(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(auto update, UpdateOf(*ctx, call.input));
  auto& [row, fields] = update;
  json previous = json::object();
  for (const auto& [name, _] : fields.items()) previous[name] = row[name];
  const std::string id = row["id"].get<std::string>();
  Status st =
      ctx->write({{"routine.update", {{"id", id}, {"fields", fields}, {"base", previous}}}});
  if (st.code() == codes::kSaveConflict) return ConflictError(*ctx, kRoutine, row, fields, st);
  ENSEMBLE_RETURN_IF_ERROR(st);
  ENSEMBLE_ASSIGN_OR_RETURN(json after, LiveInSpace(*ctx, kRoutine, id));
  return json{
      {"summary", "Changed the routine " + Named(row) + ": " + RoutineChangesText(fields) + "."},
      {"data", {{"routine", RoutineJson(after)}}},
      {"undo", UndoJson({UpdateBack(kRoutine, id, previous, fields)})}};
}

Result<std::string> PreviewDeleteRoutine(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json row,
                            LiveInSpace(*ctx, kRoutine, tools::StringIn(call.input, "id")));
  return "Delete the routine " + Named(row);
}

Result<json> RunDeleteRoutine(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json row,
                            LiveInSpace(*ctx, kRoutine, tools::StringIn(call.input, "id")));
  const std::string id = row["id"].get<std::string>();
  ENSEMBLE_RETURN_IF_ERROR(ctx->write({{"routine.delete", {{"id", id}}}}));
  return json{{"summary", "Deleted the routine " + Named(row) + "."},
              {"data", {{"id", id}}},
              {"undo", UndoJson({{"routine.restore", {{"id", id}}}})}};
}

}  // namespace ensemble::core::routines
