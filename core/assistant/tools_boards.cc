// Custom boards and the board overview's layout (playbooks/boards.md). Board
// changes have no Undo (spec 002 §3); deleting one always waits for Apply.

#include <utility>
#include <vector>

#include "core/assistant/board_tool_runs.h"
#include "core/assistant/hub_tool_areas.h"
#include "core/assistant/layout_tool_runs.h"
#include "core/boards/board.h"
#include "core/boards/board_layout.h"
#include "core/boards/card.h"
#include "core/tools/tool_schema.h"

namespace ensemble::core::assistant {
namespace {

using namespace tools::schema;  // NOLINT
using tools::Risk;

using boards::kMaxColumns;
using boards::kMaxColumnTitleChars;
using boards::kMaxTiles;

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
           Object(WithPaging({{"query", Str(kMaxQueryChars)}})),
           {.run = board_tools::RunListBoards}),
      Read("hub_read_board", areas::kBoards,
           "Read a custom board by id, link or title: its columns and cards with their ids.",
           Object({{"board", BoardRef()}}, {"board"}), {.run = board_tools::RunReadBoard}),
      Write("hub_create_board", areas::kBoards, "Make a custom board with a title and columns.",
            Object({{"title", Text(boards::kMaxTitleChars)},
                    {"description", Str(boards::kMaxDescriptionChars)},
                    {"columns", Columns()}},
                   {"title"}),
            Risk::kLow, false,
            {.preview = board_tools::PreviewCreateBoard, .run = board_tools::RunCreateBoard}),
      Write("hub_update_board", areas::kBoards,
            "Change a board's title, description, tiles or columns (columns are the complete "
            "list).",
            Object({{"board", Id()},
                    {"title", Text(boards::kMaxTitleChars)},
                    {"description", Str(boards::kMaxDescriptionChars)},
                    {"columns", Columns()},
                    {"tiles", Array(Object({{"kind", Text(boards::kMaxTileKindChars)},
                                            {"title", Str(boards::kMaxTileTitleChars)}},
                                           {"kind"}),
                                    kMaxTiles)},
                    {"base",
                     {{"type", "object"},
                      {"maxProperties", 4},
                      {"description", "The values the change was based on"}}}},
                   {"board"}),
            Risk::kMedium, false,
            {.prepare = board_tools::PrepareUpdateBoard,
             .preview = board_tools::PreviewUpdateBoard,
             .run = board_tools::RunUpdateBoard}),
      Hold(Write("hub_delete_board", areas::kBoards,
                 "Delete a custom board; always waits for Apply, and its cards stay.",
                 Object({{"board", Id()}}, {"board"}), Risk::kHigh, false,
                 {.prepare = board_tools::PrepareBoardOnly,
                  .preview = board_tools::PreviewDeleteBoard,
                  .run = board_tools::RunDeleteBoard})),
      Write("hub_move_to_board", areas::kBoards,
            "Put a task or note on a board, or move its card to another column.",
            Object({{"board", Id()},
                    {"itemId", Id("Task id, or a note card's id")},
                    {"itemKind", Enum({"task", "note"})},
                    {"note", Str(boards::kMaxNoteChars,
                                 "A new note card's text (without itemId), or a note "
                                 "card's new text")},
                    {"column", Text(kMaxColumnTitleChars, "Column id or title")}},
                   {"board", "column"}),
            Risk::kLow, false,
            {.prepare = board_tools::PrepareMove,
             .preview = board_tools::PreviewMove,
             .run = board_tools::RunMove}),
      Write(
          "hub_remove_from_board", areas::kBoards,
          "Take a card off a board; the task or note itself stays.",
          Object({{"board", Id()}, {"itemId", Id("Task id, or a card's id")}}, {"board", "itemId"}),
          Risk::kLow, false,
          {.prepare = board_tools::PrepareRemove,
           .preview = board_tools::PreviewRemove,
           .run = board_tools::RunRemove}),
      Read("hub_read_layout", areas::kBoards, "Read the board overview's layout and its version.",
           Object({{"layoutId", Id()}}), {.run = layout_tools::RunReadLayout}),
      Write("hub_edit_layout", areas::kBoards,
            "Change the board overview's layout (the space owner only); send the version you "
            "read.",
            Object({{"version", Int(0, 1000000000)},
                    {"tiles", Array(Object({{"id", Id("The board's id")},
                                            {"x", Int(0, boards::kMaxLayoutColumn)},
                                            {"y", Int(0, boards::kMaxLayoutRow)},
                                            {"w", Int(1, boards::kMaxLayoutSpan)},
                                            {"h", Int(1, boards::kMaxLayoutSpan)}},
                                           {"id"}),
                                    boards::kMaxLayoutTiles,
                                    "The complete list of tiles, each a board and its place "
                                    "(x, y from the top left; w, h in grid cells)")}},
                   {"version", "tiles"}),
            Risk::kMedium, false,
            {.prepare = layout_tools::PrepareEditLayout,
             .preview = layout_tools::PreviewEditLayout,
             .run = layout_tools::RunEditLayout}),
  };
  return RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::assistant
