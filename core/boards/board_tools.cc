// Custom boards and the board overview's layout (playbooks/boards.md). Board
// changes have no Undo (spec 002 §3); deleting one always waits for Apply.

#include "core/boards/board_tools.h"

#include <utility>
#include <vector>

#include "core/boards/board.h"
#include "core/boards/board_layout.h"
#include "core/boards/board_tool_runs.h"
#include "core/boards/card.h"
#include "core/boards/layout_tool_runs.h"
#include "core/tools/tool_table.h"

namespace ensemble::core::boards {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

json BoardRef() { return Text(600, "Board id, pasted /board?board=<id> link, or title"); }

json Columns() {
  return Array(
      Object({{"id", Id("Keep an existing column's id")}, {"title", Text(kMaxColumnTitleChars)}},
             {"title"}),
      kMaxColumns, "The complete list of columns, in order");
}

}  // namespace

Status RegisterBoardTools(tools::ToolRegistry& registry) {
  std::vector<tools::ToolDef> defs = {
      Read("hub_list_boards", areas::kBoards, "List custom boards with their ids and titles.",
           Object(WithPaging({{"query", Str(kMaxQueryChars)}})), {.run = RunListBoards}),
      Read("hub_read_board", areas::kBoards,
           "Read a custom board by id, link or title: its columns and cards with their ids.",
           Object({{"board", BoardRef()}}, {"board"}), {.run = RunReadBoard}),
      Write("hub_create_board", areas::kBoards, "Make a custom board with a title and columns.",
            Object({{"title", Text(kMaxTitleChars)},
                    {"description", Str(kMaxDescriptionChars)},
                    {"columns", Columns()}},
                   {"title"}),
            Risk::kLow, false, {.preview = PreviewCreateBoard, .run = RunCreateBoard}),
      Write("hub_update_board", areas::kBoards,
            "Change a board's title, description, tiles or columns (columns are the complete "
            "list).",
            Object({{"board", Id()},
                    {"title", Text(kMaxTitleChars)},
                    {"description", Str(kMaxDescriptionChars)},
                    {"columns", Columns()},
                    {"tiles", Array(Object({{"kind", Text(kMaxTileKindChars)},
                                            {"title", Str(kMaxTileTitleChars)}},
                                           {"kind"}),
                                    kMaxTiles)},
                    {"base",
                     {{"type", "object"},
                      {"maxProperties", 4},
                      {"description", "The values the change was based on"}}}},
                   {"board"}),
            Risk::kMedium, false,
            {.prepare = PrepareUpdateBoard, .preview = PreviewUpdateBoard, .run = RunUpdateBoard}),
      Hold(Write(
          "hub_delete_board", areas::kBoards,
          "Delete a custom board; always waits for Apply, and its cards stay.",
          Object({{"board", Id()}}, {"board"}), Risk::kHigh, false,
          {.prepare = PrepareBoardOnly, .preview = PreviewDeleteBoard, .run = RunDeleteBoard})),
      Write("hub_move_to_board", areas::kBoards,
            "Put a task or note on a board, or move its card to another column.",
            Object({{"board", Id()},
                    {"itemId", Id("Task id, or a note card's id")},
                    {"itemKind", Enum({"task", "note"})},
                    {"note", Str(kMaxNoteChars,
                                 "A new note card's text (without itemId), or a note "
                                 "card's new text")},
                    {"column", Text(kMaxColumnTitleChars, "Column id or title")}},
                   {"board", "column"}),
            Risk::kLow, false, {.prepare = PrepareMove, .preview = PreviewMove, .run = RunMove}),
      Write(
          "hub_remove_from_board", areas::kBoards,
          "Take a card off a board; the task or note itself stays.",
          Object({{"board", Id()}, {"itemId", Id("Task id, or a card's id")}}, {"board", "itemId"}),
          Risk::kLow, false,
          {.prepare = PrepareRemove, .preview = PreviewRemove, .run = RunRemove}),
      Read("hub_read_layout", areas::kBoards, "Read the board overview's layout and its version.",
           Object({{"layoutId", Id()}}), {.run = RunReadLayout}),
      // The overview's layout is the owner's own (002 §2).
      ForOwner(Write(
          "hub_edit_layout", areas::kBoards,
          "Change the board overview's layout (the space owner only); send the version you "
          "read.",
          Object({{"version", Int(0, 1000000000)},
                  {"tiles", Array(Object({{"id", Id("The board's id")},
                                          {"x", Int(0, kMaxLayoutColumn)},
                                          {"y", Int(0, kMaxLayoutRow)},
                                          {"w", Int(1, kMaxLayoutSpan)},
                                          {"h", Int(1, kMaxLayoutSpan)}},
                                         {"id"}),
                                  kMaxLayoutTiles,
                                  "The complete list of tiles, each a board and its place "
                                  "(x, y from the top left; w, h in grid cells)")}},
                 {"version", "tiles"}),
          Risk::kMedium, false,
          {.prepare = PrepareEditLayout, .preview = PreviewEditLayout, .run = RunEditLayout})),
  };
  return tools::RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::boards
