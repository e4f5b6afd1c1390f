#include "core/boards/layout_tool_runs.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/boards/board_layout.h"
#include "core/boards/board_tool_rows.h"
#include "core/tasks/task_tool_rows.h"
#include "core/text/trim.h"
#include "core/tools/record_rows.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::boards {
namespace {

using nlohmann::json;
using store::Value;
using tools::Mutation;
using tools::Quoted;
using tools::ToolCall;
using tools::ToolContext;

struct Layout {
  std::string id;  // Empty: the space has none yet.
  int64_t version = 0;
  json tiles = json::array();
};

Result<Layout> ReadLayout(ToolContext& ctx) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      ctx.db->Query("SELECT id, tiles, version FROM " + std::string(kLayoutTable) +
                        " WHERE space_id = $1 AND deleted = 0 ORDER BY id LIMIT 1",
                    {Value(ctx.space_id)}));
  Layout out;
  if (rows.empty()) return out;
  out.id = store::AsText(rows.rows[0][0]);
  out.tiles = json::parse(store::AsText(rows.rows[0][1]), nullptr, /*allow_exceptions=*/false);
  if (!out.tiles.is_array()) out.tiles = json::array();
  out.version = store::AsInt(rows.rows[0][2]);
  return out;
}

// Top to bottom, then left to right: the order people read the overview in.
void SortTiles(json& tiles) {
  std::stable_sort(tiles.begin(), tiles.end(), [](const json& a, const json& b) {
    return std::make_pair(a.value("y", 0), a.value("x", 0)) <
           std::make_pair(b.value("y", 0), b.value("x", 0));
  });
}

std::string Place(const json& tile) {
  return std::to_string(tile.value("x", 0)) + "," + std::to_string(tile.value("y", 0)) + " " +
         std::to_string(tile.value("w", 1)) + "×" + std::to_string(tile.value("h", 1));
}

// The tiles as the layout will keep them: each board resolved among the
// space's live boards, a missing place filled in.
Result<json> ResolveTiles(ToolContext& ctx, const json& given) {
  json out = json::array();
  for (size_t i = 0; i < given.size(); ++i) {
    const json& t = given[i];
    ENSEMBLE_ASSIGN_OR_RETURN(BoardRow board, ResolveBoard(ctx, tools::StringIn(t, "id")));
    out.push_back({{"id", board.id},
                   {"x", t.value("x", 0)},
                   {"y", t.value("y", static_cast<int>(i))},
                   {"w", t.value("w", 1)},
                   {"h", t.value("h", 1)}});
  }
  Status st = CheckLayoutTiles(out);
  if (!st.ok()) return InvalidArgument("tiles: " + st.message());
  return out;
}

// SAVE_CONFLICT unless the layout is still at the version the edit read.
Status CheckVersion(const Layout& layout, const json& input) {
  const int64_t based_on = input.value("version", int64_t{-1});
  if (based_on == layout.version) return Status::Ok();
  return Status(codes::kSaveConflict, "the board overview's layout changed since version " +
                                          std::to_string(based_on) + " (it is at version " +
                                          std::to_string(layout.version) +
                                          "); read it again (hub_read_layout) and retry");
}

Result<std::string> TilesText(ToolContext& ctx, const json& tiles) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<BoardRow> boards, LiveBoards(ctx));
  json sorted = tiles;
  SortTiles(sorted);
  std::vector<std::string> parts;
  for (const json& t : sorted) {
    std::string title = "a board no longer here";
    for (const BoardRow& b : boards) {
      if (b.id == t.value("id", "")) title = Quoted(b.title);
    }
    parts.push_back(title + " at " + Place(t));
  }
  return parts.empty() ? std::string("no boards") : text::JoinWithAnd(parts);
}

}  // namespace

Result<json> RunReadLayout(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(Layout layout, ReadLayout(*ctx));
  const std::string asked = tools::StringIn(call.input, "layoutId");
  if (!asked.empty() && asked != layout.id) {
    return Status(codes::kNotFound, "no board overview layout with id " + asked);
  }
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<BoardRow> boards, LiveBoards(*ctx));
  std::map<std::string, const BoardRow*> by_id;
  for (const BoardRow& b : boards) by_id[b.id] = &b;
  json tiles = json::array();
  std::vector<std::string> placed;
  for (json tile : layout.tiles) {
    auto board = by_id.find(tile.value("id", ""));
    if (board == by_id.end()) continue;  // Deleted since: its tile waits for the next edit.
    tile["title"] = board->second->title;
    tiles.push_back(std::move(tile));
    by_id.erase(board);
  }
  SortTiles(tiles);
  for (const json& t : tiles) placed.push_back(Quoted(t["title"].get<std::string>()));
  json unplaced = json::array();
  std::vector<std::string> unplaced_titles;
  for (const BoardRow& b : boards) {
    if (!by_id.count(b.id)) continue;
    unplaced.push_back({{"id", b.id}, {"title", b.title}});
    unplaced_titles.push_back(Quoted(b.title));
  }
  std::string summary = layout.id.empty() ? "The board overview has no layout yet (version 0)"
                                          : "The board overview's layout (version " +
                                                std::to_string(layout.version) + ")";
  summary += placed.empty() ? " places no boards" : " shows " + text::JoinWithAnd(placed);
  if (!unplaced_titles.empty()) summary += "; not placed: " + text::JoinWithAnd(unplaced_titles);
  summary += ".";
  return json{{"summary", summary},
              {"data",
               {{"layout",
                 {{"id", layout.id.empty() ? json() : json(layout.id)},
                  {"version", layout.version},
                  {"tiles", std::move(tiles)}}},
                {"unplaced", std::move(unplaced)}}}};
}

Status PrepareEditLayout(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(call.input["tiles"],
                            ResolveTiles(*ctx, call.input.value("tiles", json::array())));
  return Status::Ok();
}

Result<std::string> PreviewEditLayout(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json tiles,
                            ResolveTiles(*ctx, call.input.value("tiles", json::array())));
  ENSEMBLE_ASSIGN_OR_RETURN(std::string text, TilesText(*ctx, tiles));
  return "Lay out the board overview: " + text + ".";
}

Result<json> RunEditLayout(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableBoardContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json tiles,
                            ResolveTiles(*ctx, call.input.value("tiles", json::array())));
  ENSEMBLE_ASSIGN_OR_RETURN(Layout layout, ReadLayout(*ctx));
  ENSEMBLE_RETURN_IF_ERROR(CheckVersion(layout, call.input));
  std::vector<Mutation> undo;
  std::string id = layout.id;
  if (id.empty()) {
    ENSEMBLE_ASSIGN_OR_RETURN(id, tools::record_rows::NewRecordId(*ctx));
    ENSEMBLE_RETURN_IF_ERROR(ctx->write(
        {{"board_layout.create", {{"id", id}, {"spaceId", ctx->space_id}, {"tiles", tiles}}}}));
    undo.push_back({"board_layout.delete", {{"id", id}}});
  } else {
    Status st = ctx->write(
        {{"board_layout.update",
          {{"id", id}, {"fields", {{"tiles", tiles}}}, {"expectedVersion", layout.version}}}});
    // Another device changed it between the read above and the write.
    if (st.code() == codes::kSaveConflict || st.code() == codes::kVersionConflict) {
      return Status(codes::kSaveConflict,
                    "the board overview's layout changed meanwhile; read it again "
                    "(hub_read_layout) and retry");
    }
    ENSEMBLE_RETURN_IF_ERROR(st);
    undo.push_back({"board_layout.update", {{"id", id}, {"fields", {{"tiles", layout.tiles}}}}});
  }
  ENSEMBLE_ASSIGN_OR_RETURN(std::string text, TilesText(*ctx, tiles));
  return json{
      {"summary", "Laid out the board overview: " + text + "."},
      {"data", {{"layout", {{"id", id}, {"version", layout.version + 1}, {"tiles", tiles}}}}},
      {"undo", tools::UndoJson(std::move(undo))}};
}

}  // namespace ensemble::core::boards
