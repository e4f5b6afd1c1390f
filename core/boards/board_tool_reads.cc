// The reads: hub_list_boards and hub_read_board.

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/boards/board.h"
#include "core/boards/board_tool_rows.h"
#include "core/boards/board_tool_runs.h"
#include "core/refs/summary.h"
#include "core/tasks/task_tool_rows.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/tool_runs.h"
#include "core/tools/tool_schema.h"

namespace ensemble::core::boards {

using nlohmann::json;
using tools::ToolCall;
using tools::ToolContext;

namespace {

using tools::IntIn;
using tools::Quoted;
using tools::StringIn;

// A list shows the start of each description; hub_read_board gives it whole.
constexpr std::size_t kMaxListedDescriptionChars = 200;

// Every word of the query in the title (ASCII case folded), so "launch"
// finds "Q3 Launch"; done here so SQLite and PostgreSQL answer alike.
bool Matches(const BoardRow& board, const std::string& query) {
  const std::string title = AsciiLower(board.title);
  std::string word;
  for (char c : AsciiLower(query) + " ") {
    if (c != ' ' && c != '\t' && c != '\n') {
      word += c;
      continue;
    }
    if (!word.empty() && title.find(word) == std::string::npos) return false;
    word.clear();
  }
  return true;
}

}  // namespace

Result<json> RunListBoards(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  const json& in = call.input;
  const std::string query(text::Trim(StringIn(in, "query")));
  const std::size_t limit = static_cast<std::size_t>(
      std::clamp(IntIn(in, "limit", kDefaultBoardListLimit), 1, tools::schema::kMaxListLimit));
  const std::size_t offset = static_cast<std::size_t>(std::max(IntIn(in, "offset", 0), 0));

  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<BoardRow> rows, LiveBoards(*ctx));
  if (!query.empty()) std::erase_if(rows, [&](const BoardRow& b) { return !Matches(b, query); });
  const std::size_t total = rows.size();
  const std::size_t begin = std::min(offset, total);
  const std::size_t end = std::min(total, begin + limit);

  json list = json::array();
  std::vector<refs::SummaryItem> items;
  for (std::size_t i = begin; i < end; ++i) {
    const BoardRow& b = rows[i];
    list.push_back({{"id", b.id},
                    {"title", b.title},
                    {"description", text::TruncateChars(b.description, kMaxListedDescriptionChars)},
                    {"columns", ColumnsJson(b.columns)}});
    items.push_back({b.title, ""});
  }
  json data = {{"boards", std::move(list)}, {"total", total}, {"offset", begin}};
  std::string summary;
  if (total == 0) {
    summary = query.empty() ? "No custom boards yet." : "No boards match " + Quoted(query) + ".";
  } else if (begin == 0 && end == total) {
    summary = refs::SummarizeRecords("Found", "board", "boards", items);
  } else {
    summary = refs::SummarizeRecords("Showing", "board", "boards", items) + " " +
              text::FormatCount(total) + " in all";
    if (end < total) summary += "; continue with offset " + std::to_string(end);
    summary += ".";
  }
  if (end < total) data["nextOffset"] = end;
  return json{{"summary", summary}, {"data", std::move(data)}};
}

Result<json> RunReadBoard(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(BoardRow board, ResolveBoard(*ctx, StringIn(call.input, "board")));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<CardRow> cards, CardsOn(*ctx, board.id));

  // Cards by column, in the board's column order; cards of a column the
  // board no longer has (removed on another device) are listed apart.
  std::map<std::string, json> by_column;
  json unplaced = json::array();
  std::size_t shown = 0;
  for (const CardRow& c : cards) {
    if (shown == kMaxCardsPerRead) break;
    ++shown;
    if (FindColumn(board.columns, c.column)) {
      by_column[c.column].push_back(CardJson(c));
    } else {
      unplaced.push_back(CardJson(c));
    }
  }
  json columns = json::array();
  for (const json& col : board.columns) {
    const std::string id = col.value("id", "");
    json entry = {{"id", id}, {"title", col.value("title", "")}, {"cards", json::array()}};
    if (auto it = by_column.find(id); it != by_column.end()) entry["cards"] = std::move(it->second);
    columns.push_back(std::move(entry));
  }
  json data = {{"board",
                {{"id", board.id},
                 {"title", board.title},
                 {"description", board.description},
                 {"href", "/board?board=" + board.id},
                 {"tiles", board.tiles},
                 {"columns", std::move(columns)}}},
               {"cardCount", cards.size()}};
  if (!unplaced.empty()) data["cardsOutsideColumns"] = std::move(unplaced);
  std::string summary = "Read board " + Quoted(board.title) + ": " +
                        text::CountText(board.columns.size(), "column", "columns") + ", " +
                        text::CountText(cards.size(), "card", "cards");
  if (shown < cards.size()) {
    summary += " (the first " + text::FormatCount(shown) + " shown)";
    data["truncated"] = true;
  }
  return json{{"summary", summary + "."}, {"data", std::move(data)}};
}

}  // namespace ensemble::core::boards
