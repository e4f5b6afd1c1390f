#include "core/trash/trash_tool_runs.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/calendar/week_date.h"
#include "core/records/record_kind.h"
#include "core/tools/record_rows.h"
#include "core/tools/tool_context.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::trash {
namespace {

using nlohmann::json;
using tools::ToolCall;
using tools::ToolContext;

struct Trashed {
  std::string kind;
  std::string id;
  std::string title;  // Its title or name, for the summary; may be empty.
};

// The columns that title a record, by kind: the first one a row has.
constexpr const char* kTitleColumns[] = {"title", "name", "text", "note", "value", "condition"};

// The columns hub_list_trash reads of `kind`: id, updated_at and the one
// that titles it, so a page's blocks are not read to list its title.
std::string ListedColumns(const records::RecordKind& kind) {
  for (const char* name : kTitleColumns) {
    if (kind.FindField(name)) return std::string("id, updated_at, ") + name;
  }
  return "id, updated_at";
}

// The title of row `i` of `rows`, or "".
std::string TitleIn(const store::Rows& rows, size_t i) {
  for (const char* name : kTitleColumns) {
    for (size_t c = 0; c < rows.columns.size(); ++c) {
      if (rows.columns[c] == name) return store::AsText(rows.rows[i][c]);
    }
  }
  return "";
}

// The record the call names, in Trash in the call's space.
Result<Trashed> FindTrashed(const ToolCall& call, ToolContext& ctx) {
  const std::string kind = call.input.value("kind", std::string());
  const std::string id = call.input.value("id", std::string());
  const records::RecordKind* table = ctx.record_kinds.Find(kind);
  if (!table) {
    return Status(codes::kInvalidArgument,
                  "a " + kind + " cannot be restored here: Trash holds the hub's own records");
  }
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            ctx.db->Query("SELECT * FROM " + std::string(table->table) +
                                              " WHERE id = $1 AND space_id = $2 AND deleted = 1",
                                          {store::Value(id), store::Value(ctx.space_id)}));
  if (rows.empty()) {
    return Status(codes::kNotFound, "nothing in Trash with id " + id + " (" + kind + ")");
  }
  return Trashed{kind, id, TitleIn(rows, 0)};
}

std::string Named(const Trashed& t) {
  return t.title.empty() ? "the " + t.kind : "“" + t.title + "”";
}

}  // namespace

// hub_list_trash: the space's records in Trash, last deleted first.
Result<json> RunListTrash(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  const std::string kind = call.input.value("kind", std::string());
  const std::string query = call.input.value("query", std::string());
  std::vector<json> rows;
  for (const records::RecordKind* table : ctx->record_kinds.all) {
    if (!kind.empty() && table->kind != kind) continue;
    ENSEMBLE_ASSIGN_OR_RETURN(
        store::Rows found,
        ctx->db->Query("SELECT " + ListedColumns(*table) + " FROM " + std::string(table->table) +
                           " WHERE space_id = $1 AND deleted = 1",
                       {store::Value(ctx->space_id)}));
    for (size_t i = 0; i < found.size(); ++i) {
      json row = {{"kind", std::string(table->kind)}, {"title", TitleIn(found, i)}};
      for (size_t c = 0; c < found.columns.size(); ++c) {
        if (found.columns[c] == "id") row["id"] = store::AsText(found.rows[i][c]);
        if (found.columns[c] == "updated_at") row["at"] = store::AsInt(found.rows[i][c]);
      }
      if (tools::record_rows::MatchesQuery(query, {row["title"].get<std::string>()})) {
        rows.push_back(std::move(row));
      }
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const json& a, const json& b) {
    return a["at"].get<int64_t>() > b["at"].get<int64_t>();
  });
  // The day each went to Trash (its last change), in the person's zone.
  for (json& r : rows) r["deletedOn"] = calendar::TodayIn(r["at"].get<int64_t>(), ctx->time_zone);
  static const tools::record_rows::Noun kTrashed = {"", "record", "records", "title"};
  return tools::record_rows::ListResult(kTrashed, call.input, rows, query, [](const json& r) {
    return json{
        {"kind", r["kind"]}, {"id", r["id"]}, {"title", r["title"]}, {"deletedOn", r["deletedOn"]}};
  });
}

Result<std::string> PreviewRestore(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(Trashed t, FindTrashed(call, *ctx));
  return "Restore " + Named(t) + " from Trash";
}

Result<json> RunRestore(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(Trashed t, FindTrashed(call, *ctx));
  ENSEMBLE_RETURN_IF_ERROR(ctx->write({{t.kind + ".restore", {{"id", t.id}}}}));
  return json{{"summary", "Restored " + Named(t) + " from Trash"},
              {"data", {{"kind", t.kind}, {"id", t.id}}},
              {"undo", json::array({{{"name", t.kind + ".delete"}, {"args", {{"id", t.id}}}}})}};
}

}  // namespace ensemble::core::trash
