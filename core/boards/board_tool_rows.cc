#include "core/boards/board_tool_rows.h"

#include <utility>

#include "core/base/id.h"
#include "core/boards/board.h"
#include "core/records/record_kind.h"
#include "core/store/database.h"
#include "core/tasks/task_tool_rows.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::boards {

using nlohmann::json;
using tools::ToolCall;
using tools::ToolContext;

using store::Value;

namespace {

// A note card's title in summaries: its first line.
constexpr std::size_t kMaxNoteTitleChars = 80;

Status NoBoard(std::string_view ref) {
  return Status(codes::kNotFound, (IsValidId(ref) ? "no board with id " : "no board called ") +
                                      std::string(ref) + " in this space");
}

json JsonColumn(std::string_view field, const std::vector<store::Value>& r, std::size_t i) {
  return records::FromColumn(*kBoardKind.FindField(field), store::AsText(r[i]));
}

// The id a pasted link names: the value of board=, or the segment after
// /board/; empty when `ref` is no link.
std::string IdInLink(std::string_view ref) {
  std::size_t at = ref.find("board=");
  std::size_t start = std::string_view::npos;
  if (at != std::string_view::npos) {
    start = at + 6;
  } else if ((at = ref.find("/board/")) != std::string_view::npos) {
    start = at + 7;
  }
  if (start == std::string_view::npos) return "";
  std::size_t end = ref.find_first_of("&#/? ", start);
  return std::string(ref.substr(start, end == std::string_view::npos ? end : end - start));
}

}  // namespace

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

Result<ToolContext*> WritableBoardContext(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  if (!ctx->write) return Status(codes::kFailedPrecondition, "this turn cannot change boards");
  return ctx;
}

Result<std::vector<BoardRow>> LiveBoards(ToolContext& ctx) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows, ctx.db->Query("SELECT id, title, description, columns, tiles FROM boards"
                                      " WHERE space_id = $1 AND deleted = 0 ORDER BY id",
                                      {Value(ctx.space_id)}));
  std::vector<BoardRow> out;
  out.reserve(rows.size());
  for (const std::vector<store::Value>& r : rows.rows) {
    out.push_back({store::AsText(r[0]), store::AsText(r[1]), store::AsText(r[2]),
                   JsonColumn("columns", r, 3), JsonColumn("tiles", r, 4)});
  }
  return out;
}

Result<BoardRow> ResolveBoard(ToolContext& ctx, std::string_view given) {
  const std::string ref(text::Trim(given));
  if (ref.empty()) return InvalidArgument("name the board: its id, link or title");
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<BoardRow> boards, LiveBoards(ctx));
  std::string id = IdInLink(ref);
  if (id.empty() && IsValidId(ref)) id = ref;
  if (!id.empty()) {
    for (BoardRow& b : boards) {
      if (b.id == id) return std::move(b);
    }
    return NoBoard(id);
  }
  const std::string wanted = AsciiLower(ref);
  std::vector<BoardRow*> exact;
  std::vector<BoardRow*> partial;
  for (BoardRow& b : boards) {
    const std::string title = AsciiLower(text::Trim(b.title));
    if (title == wanted) exact.push_back(&b);
    if (title.find(wanted) != std::string::npos) partial.push_back(&b);
  }
  const std::vector<BoardRow*>& found = exact.empty() ? partial : exact;
  if (found.size() == 1) return *found[0];
  if (found.empty()) return NoBoard(ref);
  std::string choices;
  for (const BoardRow* b : found) {
    choices += (choices.empty() ? "" : "; ") + tools::Quoted(b->title) + " (" + b->id + ")";
  }
  return InvalidArgument(std::to_string(found.size()) + " boards match " + tools::Quoted(ref) +
                         ". Choices: " + choices);
}

Result<std::vector<CardRow>> CardsOn(ToolContext& ctx, const std::string& board_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      ctx.db->Query("SELECT c.id, c.\"column\", c.task, c.note, c.position, t.title, t.status"
                    " FROM board_cards c LEFT JOIN tasks t"
                    " ON t.id = c.task AND t.space_id = c.space_id AND t.deleted = 0"
                    " WHERE c.board = $1 AND c.space_id = $2 AND c.deleted = 0"
                    " AND (c.task IS NULL OR t.id IS NOT NULL)"
                    " ORDER BY c.position, c.id",
                    {Value(board_id), Value(ctx.space_id)}));
  std::vector<CardRow> out;
  out.reserve(rows.size());
  for (const std::vector<store::Value>& r : rows.rows) {
    CardRow c;
    c.id = store::AsText(r[0]);
    c.column = store::AsText(r[1]);
    if (!store::IsNull(r[2])) c.task = store::AsText(r[2]);
    c.note = store::AsText(r[3]);
    c.position = store::AsInt(r[4]);
    if (!store::IsNull(r[5])) c.task_title = store::AsText(r[5]);
    if (!store::IsNull(r[6])) c.task_status = store::AsText(r[6]);
    out.push_back(std::move(c));
  }
  return out;
}

Result<std::string> ResolveColumn(const BoardRow& board, std::string_view given) {
  const std::string ref(text::Trim(given));
  if (const json* c = FindColumn(board.columns, ref)) return (*c)["id"].get<std::string>();
  const std::string wanted = AsciiLower(ref);
  for (const json& c : board.columns) {
    if (AsciiLower(text::Trim(c.value("title", ""))) == wanted) return c["id"].get<std::string>();
  }
  if (board.columns.empty()) {
    return InvalidArgument(tools::Quoted(board.title) +
                           " has no columns yet; add some with hub_update_board");
  }
  return InvalidArgument(tools::Quoted(board.title) + " has no column " + tools::Quoted(ref) +
                         "; its columns are " + ColumnList(board.columns));
}

std::string ColumnTitle(const BoardRow& board, const std::string& column_id) {
  const json* c = FindColumn(board.columns, column_id);
  return c ? c->value("title", column_id) : column_id;
}

std::string CardTitle(const CardRow& card) {
  if (card.task) return card.task_title;
  std::string_view note = text::Trim(card.note);
  return text::TruncateChars(note.substr(0, note.find('\n')), kMaxNoteTitleChars);
}

json CardJson(const CardRow& card) {
  json out = {{"id", card.id}, {"column", card.column}, {"position", card.position}};
  if (card.task) {
    out["kind"] = "task";
    out["taskId"] = *card.task;
    out["title"] = card.task_title;
    out["status"] = card.task_status;
  } else {
    out["kind"] = "note";
    out["note"] = card.note;
  }
  return out;
}

json ColumnsJson(const json& columns) {
  json out = json::array();
  for (const json& c : columns)
    out.push_back({{"id", c.value("id", "")}, {"title", c.value("title", "")}});
  return out;
}

std::string ColumnList(const json& columns) {
  std::string out;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) out += i + 1 == columns.size() ? " and " : ", ";
    out += columns[i].value("title", "");
  }
  return out;
}

}  // namespace ensemble::core::boards
