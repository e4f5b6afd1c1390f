// The runs of the seven custom-board tools (spec 002 §2-§3, 000 §8.1):
// hub_list_boards, hub_read_board, hub_create_board, hub_update_board,
// hub_delete_board, hub_move_to_board and hub_remove_from_board. Their
// definitions and schemas are in board_tools.cc, whose table gives them these hooks.
//
// A board is named by id, pasted /board?board=<id> link or title, always
// among the live boards of ctx.space_id: a board of another space is "no
// board ..." (NOT_FOUND), never evidence of access. prepare fixes what a
// title or link means (the board's id, the card's id, the column's id), so
// Apply changes only what was previewed. Writes are the board and card sync
// mutations (board.create/update/delete, card.create/update/delete) handed
// to ctx.write. Board changes have no Undo (spec 002 §3: "a card's move
// changes page rows whose Trash undo depends on them"), so results carry no
// undo entry; hub_delete_board always waits for Apply and leaves its cards.
//
// A result is {summary, data}: summary is one line naming boards, columns
// and tasks by title (never ids); data holds the ids.
//
// Thread-safety: the hooks are stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_BOARDS_BOARD_TOOL_RUNS_H_
#define ENSEMBLE_CORE_BOARDS_BOARD_TOOL_RUNS_H_

#include <cstddef>
#include <string>

#include "core/tools/tool.h"

namespace ensemble::core::boards {

// hub_list_boards' default page (the schema's WithPaging default).
inline constexpr int kDefaultBoardListLimit = 50;
// hub_read_board lists at most this many cards (the rest are counted), so a
// long board still reads in one result within the tool-result budget.
inline constexpr std::size_t kMaxCardsPerRead = 300;
// A card put at the end of a column lands this far after the last one, so a
// client can later drop cards in between without renumbering.
inline constexpr int64_t kCardPositionStep = 1024;

// The hooks of hub_list_boards, hub_read_board, hub_create_board, hub_update_board,
// hub_delete_board, hub_move_to_board, hub_remove_from_board, which their tool table gives them
// (board_tools.cc).
Result<nlohmann::json> RunListBoards(tools::ToolCall& call);
Result<nlohmann::json> RunReadBoard(tools::ToolCall& call);
Result<std::string> PreviewCreateBoard(const tools::ToolCall& call);
Result<nlohmann::json> RunCreateBoard(tools::ToolCall& call);
Status PrepareUpdateBoard(tools::ToolCall& call);
Result<std::string> PreviewUpdateBoard(const tools::ToolCall& call);
Result<nlohmann::json> RunUpdateBoard(tools::ToolCall& call);
Status PrepareBoardOnly(tools::ToolCall& call);
Result<std::string> PreviewDeleteBoard(const tools::ToolCall& call);
Result<nlohmann::json> RunDeleteBoard(tools::ToolCall& call);
Status PrepareMove(tools::ToolCall& call);
Result<std::string> PreviewMove(const tools::ToolCall& call);
Result<nlohmann::json> RunMove(tools::ToolCall& call);
Status PrepareRemove(tools::ToolCall& call);
Result<std::string> PreviewRemove(const tools::ToolCall& call);
Result<nlohmann::json> RunRemove(tools::ToolCall& call);

}  // namespace ensemble::core::boards

#endif  // ENSEMBLE_CORE_BOARDS_BOARD_TOOL_RUNS_H_
