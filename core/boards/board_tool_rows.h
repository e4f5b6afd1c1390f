// Internal to the board tools (board_tool_runs.h): the boards and cards of
// the turn's space as the hooks read them, how a board, a column and a card
// are named, and the text the reads (board_tool_reads.cc) and the writes
// (board_tool_runs.cc) share.
//
// Thread-safety: stateless functions; as the ToolContext given.

#ifndef ENSEMBLE_CORE_BOARDS_BOARD_TOOL_ROWS_H_
#define ENSEMBLE_CORE_BOARDS_BOARD_TOOL_ROWS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/tools/tool.h"
#include "core/tools/tool_context.h"

namespace ensemble::core::boards {

struct BoardRow {
  std::string id;
  std::string title;
  std::string description;
  nlohmann::json columns = nlohmann::json::array();  // [{id, title}]
  nlohmann::json tiles = nlohmann::json::array();
};

struct CardRow {
  std::string id;
  std::string column;
  std::optional<std::string> task;  // The task's id, on a task's card.
  std::string note;
  int64_t position = 0;
  std::string task_title;  // The task's, on a task's card.
  std::string task_status;
};

// The call's context for a write: readable (tasks::ReadableContext)
// and with a write sink.
Result<tools::ToolContext*> WritableBoardContext(const tools::ToolCall& call);

// The live board of the space that `ref` names: an id, a link holding
// board=<id> (or /board/<id>), or a title (exactly, ignoring case and outer
// space; else the one board whose title holds it). NOT_FOUND when none;
// INVALID_ARGUMENT listing the choices when several share the title.
Result<BoardRow> ResolveBoard(tools::ToolContext& ctx, std::string_view ref);
// Live boards of the space, oldest first.
Result<std::vector<BoardRow>> LiveBoards(tools::ToolContext& ctx);
// Live cards of the board (cards of tasks in Trash left out), by column
// order of position then id.
Result<std::vector<CardRow>> CardsOn(tools::ToolContext& ctx, const std::string& board_id);

// The id of the board's column that `ref` names: its id, or its title
// (ignoring case). INVALID_ARGUMENT naming the board's columns otherwise.
Result<std::string> ResolveColumn(const BoardRow& board, std::string_view ref);
// The column's title, or its id when the board no longer has it.
std::string ColumnTitle(const BoardRow& board, const std::string& column_id);

// What a card shows: its task's title, or its note's first line.
std::string CardTitle(const CardRow& card);
nlohmann::json CardJson(const CardRow& card);
nlohmann::json ColumnsJson(const nlohmann::json& columns);  // [{id, title}]

std::string AsciiLower(std::string_view s);
// "A, B and C" of the columns' titles.
std::string ColumnList(const nlohmann::json& columns);

}  // namespace ensemble::core::boards

#endif  // ENSEMBLE_CORE_BOARDS_BOARD_TOOL_ROWS_H_
