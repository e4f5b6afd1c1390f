#include "core/context/surface_tool_run.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/base/id.h"
#include "core/boards/board.h"
#include "core/records/record_mutators.h"
#include "core/tasks/task_tool_rows.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/tool_context.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::context {
namespace {

using nlohmann::json;
using tools::ToolCall;
using tools::ToolContext;

constexpr std::string_view kKinds[] = {"desk", "board", "context", "widgets"};

Result<std::string> ShortText(const json& v, const std::string& field) {
  if (!v.is_string() || !text::IsValidUtf8(v.get_ref<const std::string&>()) ||
      text::CountCodePoints(v.get_ref<const std::string&>()) > kMaxSurfaceTextChars) {
    return InvalidArgument("surface." + field + " must be text of at most " +
                           std::to_string(kMaxSurfaceTextChars) + " characters");
  }
  return v.get<std::string>();
}

Result<json> Ids(const json& v, const std::string& field) {
  if (!v.is_array() || v.size() > kMaxSurfaceIds) {
    return InvalidArgument("surface." + field + " must be a list of at most " +
                           std::to_string(kMaxSurfaceIds) + " record ids");
  }
  json out = json::array();
  std::set<std::string> seen;
  for (const json& id : v) {
    if (!id.is_string() || !IsValidId(id.get_ref<const std::string&>())) {
      return InvalidArgument("surface." + field + " must hold record ids");
    }
    if (seen.insert(id.get<std::string>()).second) out.push_back(id);
  }
  return out;
}

// The live tasks of the space among `ids`, in their order, as rows.
Result<json> TasksAmong(ToolContext& ctx, const json& ids, std::size_t limit, std::size_t* total) {
  json out = json::array();
  *total = 0;
  for (const json& id : ids) {
    ENSEMBLE_ASSIGN_OR_RETURN(std::optional<tasks::Task> row,
                              tasks::FindTask(ctx, id.get<std::string>()));
    if (!row || row->deleted) continue;
    ++*total;
    if (out.size() < limit) out.push_back(tasks::RowJson(*row));
  }
  return out;
}

}  // namespace

Result<json> CheckSurface(const json& surface) {
  if (surface.is_null() || (surface.is_object() && surface.empty())) return json();
  if (!surface.is_object()) return InvalidArgument("surface must be an object");
  json out = json::object();
  for (const auto& [key, value] : surface.items()) {
    if (value.is_null()) continue;
    if (key == "path") {
      ENSEMBLE_ASSIGN_OR_RETURN(std::string path, ShortText(value, key));
      if (path.empty() || path[0] != '/') return InvalidArgument("surface.path must start with /");
      out[key] = path;
    } else if (key == "kind") {
      ENSEMBLE_ASSIGN_OR_RETURN(std::string kind, ShortText(value, key));
      if (std::find(std::begin(kKinds), std::end(kKinds), kind) == std::end(kKinds)) {
        return InvalidArgument("surface.kind must be desk, board, context or widgets");
      }
      out[key] = kind;
    } else if (key == "boardId") {
      if (!value.is_string() || !IsValidId(value.get_ref<const std::string&>())) {
        return InvalidArgument("surface.boardId must be a record id");
      }
      out[key] = value;
    } else if (key == "shownIds" || key == "selectedIds") {
      ENSEMBLE_ASSIGN_OR_RETURN(out[key], Ids(value, key));
    } else if (key == "filters") {
      if (!value.is_array() || value.size() > kMaxSurfaceFilters) {
        return InvalidArgument("surface.filters must be a list of at most " +
                               std::to_string(kMaxSurfaceFilters));
      }
      json filters = json::array();
      for (const json& f : value) {
        if (!f.is_object() || f.size() != 2 || !f.contains("name") || !f.contains("value")) {
          return InvalidArgument("each surface filter must be {name, value}");
        }
        ENSEMBLE_ASSIGN_OR_RETURN(std::string name, ShortText(f["name"], "filters.name"));
        ENSEMBLE_ASSIGN_OR_RETURN(std::string v, ShortText(f["value"], "filters.value"));
        filters.push_back({{"name", name}, {"value", v}});
      }
      out[key] = std::move(filters);
    } else {
      return InvalidArgument("surface has no field '" + key + "'");
    }
  }
  return out.empty() ? json() : out;
}

Result<json> RunReadSurface(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  const json& s = ctx->surface;
  if (!s.is_object()) {
    return json{{"summary", "No view is open beside the chat."}, {"data", {{"open", false}}}};
  }
  const std::size_t limit =
      static_cast<std::size_t>(tools::IntIn(call.input, "limit", kMaxSurfaceIds));
  json data = {{"open", true},
               {"path", s.value("path", "")},
               {"kind", s.value("kind", "")},
               {"filters", s.value("filters", json::array())}};
  std::string summary = "The open view is " + s.value("path", std::string("unnamed"));
  if (s.contains("boardId")) {
    ENSEMBLE_ASSIGN_OR_RETURN(
        std::optional<json> board,
        records::ReadRecord(boards::kBoardKind, *ctx->db, s["boardId"].get<std::string>()));
    if (board && board->value("space_id", "") == ctx->space_id &&
        board->value("deleted", int64_t{0}) == 0) {
      data["board"] = {{"id", (*board)["id"]}, {"title", (*board)["title"]}};
      summary += ", the board " + tools::Quoted((*board)["title"].get<std::string>());
    }
  }
  std::size_t shown_total = 0, selected_total = 0;
  ENSEMBLE_ASSIGN_OR_RETURN(
      data["shown"], TasksAmong(*ctx, s.value("shownIds", json::array()), limit, &shown_total));
  ENSEMBLE_ASSIGN_OR_RETURN(
      data["selected"],
      TasksAmong(*ctx, s.value("selectedIds", json::array()), limit, &selected_total));
  data["shownTotal"] = shown_total;
  summary +=
      ": " + text::FormatCount(shown_total) + (shown_total == 1 ? " task" : " tasks") + " shown";
  if (selected_total > 0) summary += ", " + text::FormatCount(selected_total) + " selected";
  if (!data["filters"].empty()) {
    summary += ", filtered by";
    for (const json& f : data["filters"]) {
      summary += " " + f["name"].get<std::string>() + " " + f["value"].get<std::string>();
    }
  }
  return json{{"summary", summary + "."}, {"data", std::move(data)}};
}

}  // namespace ensemble::core::context
