// The writes (hub_create_board, hub_update_board, hub_delete_board,
// hub_move_to_board, hub_remove_from_board) and the hooks' attachment; the
// reads are in board_tool_reads.cc. No write returns an undo entry (spec
// 002 §3).

#include "core/boards/board_tool_runs.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/boards/board.h"
#include "core/boards/board_tool_rows.h"
#include "core/boards/card.h"
#include "core/tasks/task_tool_rows.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/record_rows.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::boards {

using nlohmann::json;
using tools::Mutation;
using tools::ToolCall;
using tools::ToolContext;
namespace {

using tasks::Task;
using tools::Quoted;
using tools::StringIn;

// The columns a board made without any gets: what "make a board" means to
// most people.
constexpr std::string_view kDefaultColumns[] = {"To do", "Doing", "Done"};

// New ids of one call, at the turn's time one millisecond apart so they keep
// the call's order.
class NewIds {
 public:
  explicit NewIds(ToolContext& ctx) : ctx_(ctx) {}
  Result<std::string> Next() { return tools::record_rows::NewRecordId(ctx_, made_++); }

 private:
  ToolContext& ctx_;
  int64_t made_ = 0;
};

// The refusal of a write that met a newer change of the same record.
Status Stale(const std::string& what) {
  return Status(codes::kSaveConflict,
                what +
                    " was changed elsewhere since it was read; read the board again "
                    "(hub_read_board) and retry");
}

// Runs `writes`; a SAVE_CONFLICT becomes `stale`.
Status Write(ToolContext& ctx, std::vector<Mutation> writes, const std::string& what) {
  Status st = ctx.write(writes);
  if (st.code() == codes::kSaveConflict) return Stale(what);
  return st;
}

// --- hub_create_board and hub_update_board ------------------------------------

// The given columns with their titles trimmed and, for a column without id,
// the id of the board's column of that title (ignoring case), so a model
// that sends titles only keeps the cards where they are. Columns still
// without id are new.
json KeepColumnIds(const json& given, const json& existing) {
  json out = json::array();
  std::set<std::string> used;
  for (const json& c : given) {
    if (c.contains("id") && c["id"].is_string()) used.insert(c["id"].get<std::string>());
  }
  for (const json& c : given) {
    json col = {{"title", std::string(text::Trim(c.value("title", "")))}};
    if (c.contains("id") && c["id"].is_string()) {
      col["id"] = c["id"];
    } else {
      const std::string wanted = AsciiLower(col["title"].get<std::string>());
      for (const json& old : existing) {
        const std::string id = old.value("id", "");
        if (!used.count(id) && AsciiLower(text::Trim(old.value("title", ""))) == wanted) {
          col["id"] = id;
          used.insert(id);
          break;
        }
      }
    }
    out.push_back(std::move(col));
  }
  return out;
}

// The columns with a new id for each that has none, checked as the record
// checks them.
Result<json> WithNewIds(NewIds& ids, json columns) {
  for (json& c : columns) {
    if (c.contains("id")) continue;
    ENSEMBLE_ASSIGN_OR_RETURN(std::string id, ids.Next());
    c = {{"id", id}, {"title", c["title"]}};
  }
  Status st = CheckColumns(columns);
  if (!st.ok()) return InvalidArgument("columns: " + st.message());
  return columns;
}

json DefaultColumns() {
  json out = json::array();
  for (std::string_view t : kDefaultColumns) out.push_back({{"title", std::string(t)}});
  return out;
}

json CreateColumns(const json& in) {
  const json given = in.value("columns", json::array());
  return KeepColumnIds(given.empty() ? DefaultColumns() : given, json::array());
}

std::string WithColumns(const json& columns) {
  return columns.empty() ? " with no columns" : " with columns " + ColumnList(columns);
}

constexpr const char* kBoardFields[] = {"title", "description", "columns", "tiles"};

json CurrentValue(const BoardRow& b, std::string_view field) {
  if (field == "title") return b.title;
  if (field == "description") return b.description;
  if (field == "columns") return b.columns;
  return b.tiles;
}

// The fields the update changes, as the record keeps them (columns still
// possibly without ids).
Result<json> BoardChanges(const BoardRow& board, const json& in) {
  json fields = json::object();
  for (const char* name : kBoardFields) {
    if (!in.contains(name)) continue;
    fields[name] = in[name];
  }
  if (fields.empty()) return InvalidArgument("name a change: title, description, columns or tiles");
  if (fields.contains("title")) fields["title"] = std::string(text::Trim(StringIn(in, "title")));
  if (fields.contains("columns")) fields["columns"] = KeepColumnIds(in["columns"], board.columns);
  return fields;
}

// In the board's field order (a JSON object's would be alphabetical).
std::string BoardChangesText(const json& fields) {
  std::string out;
  for (const std::string name : kBoardFields) {
    if (!fields.contains(name)) continue;
    const json& value = fields[name];
    std::string part;
    if (name == "title") {
      part = "title to " + Quoted(value.get<std::string>());
    } else if (name == "columns") {
      part = value.empty() ? "no columns" : "columns " + ColumnList(value);
    } else if (name == "tiles") {
      part = text::CountText(value.size(), "tile", "tiles");
    } else {
      part = "new description";
    }
    out += (out.empty() ? "" : ", ") + part;
  }
  return out;
}

// The refusal of a column removed while cards are in it: the schema offers
// no choice of where they go, so the person (or model) decides first.
Status CheckRemovedColumns(ToolContext& ctx, const BoardRow& board, const json& columns) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<CardRow> cards, CardsOn(ctx, board.id));
  for (const json& old : board.columns) {
    const std::string id = old.value("id", "");
    if (FindColumn(columns, id)) continue;
    const std::size_t n =
        std::count_if(cards.begin(), cards.end(), [&](const CardRow& c) { return c.column == id; });
    if (n == 0) continue;
    return Status(codes::kFailedPrecondition,
                  "column " + Quoted(old.value("title", id)) + " of " + Quoted(board.title) +
                      " still has " + text::CountText(n, "card", "cards") +
                      ": move them to another column (hub_move_to_board) or take them off "
                      "(hub_remove_from_board) first, or keep the column");
  }
  return Status::Ok();
}

// --- hub_delete_board ----------------------------------------------------------

// --- hub_move_to_board and hub_remove_from_board -------------------------------

// What a move or a removal names on a board.
struct Target {
  BoardRow board;
  std::optional<CardRow> card;  // The card already on the board.
  std::optional<Task> task;     // A task not yet on it (or the card's task).
  std::string note;             // A new note card's text.
  std::vector<CardRow> cards;   // The board's cards.

  std::string Title() const {
    if (card) return CardTitle(*card);
    if (task) return task->title;
    return std::string(text::Trim(note));
  }
  bool IsNote() const { return card ? !card->task : !task; }
};

std::string Named(const Target& t) { return (t.IsNote() ? "the note " : "") + Quoted(t.Title()); }

// The board, and the card or task `itemId` names on it (a task id, or a
// card id; itemKind "note" takes only cards), or a new note card's text.
Result<Target> FindTarget(ToolContext& ctx, const json& in, bool may_make) {
  Target t;
  ENSEMBLE_ASSIGN_OR_RETURN(t.board, ResolveBoard(ctx, StringIn(in, "board")));
  ENSEMBLE_ASSIGN_OR_RETURN(t.cards, CardsOn(ctx, t.board.id));
  const std::string item(text::Trim(StringIn(in, "itemId")));
  const std::string kind = StringIn(in, "itemKind");
  const std::string note = StringIn(in, "note");
  if (item.empty()) {
    if (!may_make || text::Trim(note).empty()) {
      return InvalidArgument(
          may_make ? "give itemId (a task's or a card's id) or note (a new note card's "
                     "text)"
                   : "give itemId: the task's or the card's id");
    }
    t.note = note;
    return t;
  }
  const Status task_with_note =
      InvalidArgument("note is the text of a note card; leave it out for a task");
  for (const CardRow& c : t.cards) {
    if (c.id == item || (kind != "note" && c.task == item)) {
      if (c.task && !note.empty()) return task_with_note;
      t.card = c;
      if (c.task) {
        t.task.emplace();
        t.task->id = *c.task;
        t.task->title = c.task_title;
        t.task->status = c.task_status;
      }
      if (!c.task) t.note = note;
      return t;
    }
  }
  if (kind != "note") {
    ENSEMBLE_ASSIGN_OR_RETURN(std::optional<Task> task, tasks::FindTask(ctx, item));
    if (task && !task->deleted) {
      if (!note.empty()) return task_with_note;
      if (!may_make) {
        return Status(codes::kNotFound,
                      Quoted(task->title) + " is not on " + Quoted(t.board.title));
      }
      t.task = std::move(*task);
      return t;
    }
    if (kind == "task") return tasks::NoTask(item);
  }
  return Status(codes::kNotFound, "no card with id " + item + " on " + Quoted(t.board.title));
}

// The position after the last card of the column.
int64_t EndOf(const std::vector<CardRow>& cards, const std::string& column,
              const std::string& except) {
  int64_t last = -kCardPositionStep;
  for (const CardRow& c : cards) {
    if (c.column == column && c.id != except) last = std::max(last, c.position);
  }
  return std::min(last + kCardPositionStep, kMaxCardPosition);
}

std::string RemoveText(const Target& t, std::string_view verb) {
  return std::string(verb) + " " + Named(t) + " off " + Quoted(t.board.title) +
         (t.IsNote() ? "." : "; the task stays.");
}

}  // namespace

Result<std::string> PreviewCreateBoard(const ToolCall& call) {
  ENSEMBLE_RETURN_IF_ERROR(tools::ReadableContext(call).status());
  const std::string title(text::Trim(StringIn(call.input, "title")));
  return "Make board " + Quoted(title) + WithColumns(CreateColumns(call.input)) + ".";
}

Result<json> RunCreateBoard(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableBoardContext(call));
  NewIds ids(*ctx);
  ENSEMBLE_ASSIGN_OR_RETURN(std::string id, ids.Next());
  ENSEMBLE_ASSIGN_OR_RETURN(json columns, WithNewIds(ids, CreateColumns(call.input)));
  const std::string title(text::Trim(StringIn(call.input, "title")));
  json args = {{"id", id}, {"spaceId", ctx->space_id}, {"title", title}, {"columns", columns}};
  if (call.input.contains("description")) args["description"] = call.input["description"];
  ENSEMBLE_RETURN_IF_ERROR(ctx->write({{"board.create", std::move(args)}}));
  return json{{"summary", "Made board " + Quoted(title) + WithColumns(columns) + "."},
              {"data",
               {{"board",
                 {{"id", id},
                  {"title", title},
                  {"href", "/board?board=" + id},
                  {"columns", std::move(columns)}}}}}};
}

// Fixes the board (its id) and the columns' ids, and records the values the
// change is based on, so Apply refuses a board changed since the preview.
Status PrepareUpdateBoard(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(BoardRow board, ResolveBoard(*ctx, StringIn(call.input, "board")));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, BoardChanges(board, call.input));
  call.input["board"] = board.id;
  if (fields.contains("columns")) call.input["columns"] = fields["columns"];
  if (!call.input.contains("base") || !call.input["base"].is_object()) {
    json base = json::object();
    for (const auto& [name, _] : fields.items()) base[name] = CurrentValue(board, name);
    call.input["base"] = std::move(base);
  }
  return Status::Ok();
}

Result<std::string> PreviewUpdateBoard(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(BoardRow board, ResolveBoard(*ctx, StringIn(call.input, "board")));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, BoardChanges(board, call.input));
  return "Change board " + Quoted(board.title) + ": " + BoardChangesText(fields) + ".";
}

Result<json> RunUpdateBoard(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableBoardContext(call));
  ENSEMBLE_RETURN_IF_ERROR(PrepareUpdateBoard(call));
  ENSEMBLE_ASSIGN_OR_RETURN(BoardRow board, ResolveBoard(*ctx, StringIn(call.input, "board")));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, BoardChanges(board, call.input));
  if (fields.contains("columns")) {
    NewIds ids(*ctx);
    ENSEMBLE_ASSIGN_OR_RETURN(fields["columns"], WithNewIds(ids, fields["columns"]));
    ENSEMBLE_RETURN_IF_ERROR(CheckRemovedColumns(*ctx, board, fields["columns"]));
  }
  if (fields.contains("tiles")) {
    Status st = CheckTiles(fields["tiles"]);
    if (!st.ok()) return InvalidArgument("tiles: " + st.message());
  }
  // Only the changed fields' base counts; columns compare as the record
  // keeps them.
  json base = json::object();
  const json given_base = call.input.value("base", json::object());
  for (const auto& [name, value] : given_base.items()) {
    if (fields.contains(name)) base[name] = value;
  }
  json args = {{"id", board.id}, {"fields", fields}};
  if (!base.empty()) args["base"] = base;
  ENSEMBLE_RETURN_IF_ERROR(Write(*ctx, {{"board.update", std::move(args)}}, Quoted(board.title)));
  const std::string title = fields.value("title", board.title);
  return json{
      {"summary", "Updated board " + Quoted(board.title) + ": " + BoardChangesText(fields) + "."},
      {"data",
       {{"board",
         {{"id", board.id},
          {"title", title},
          {"columns", fields.value("columns", board.columns)}}}}}};
}

Status PrepareBoardOnly(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(BoardRow board, ResolveBoard(*ctx, StringIn(call.input, "board")));
  call.input["board"] = board.id;
  return Status::Ok();
}

Result<std::string> PreviewDeleteBoard(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(BoardRow board, ResolveBoard(*ctx, StringIn(call.input, "board")));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<CardRow> cards, CardsOn(*ctx, board.id));
  return "Delete board " + Quoted(board.title) + "; its " +
         text::CountText(cards.size(), "card stays", "cards stay") + ".";
}

Result<json> RunDeleteBoard(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableBoardContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(BoardRow board, ResolveBoard(*ctx, StringIn(call.input, "board")));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<CardRow> cards, CardsOn(*ctx, board.id));
  ENSEMBLE_RETURN_IF_ERROR(ctx->write({{"board.delete", {{"id", board.id}}}}));
  return json{
      {"summary", "Deleted board " + Quoted(board.title) + "; its " +
                      text::CountText(cards.size(), "card stays", "cards stay") + "."},
      {"data",
       {{"board", {{"id", board.id}, {"title", board.title}}}, {"cardCount", cards.size()}}}};
}

Status PrepareMove(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(Target t, FindTarget(*ctx, call.input, true));
  ENSEMBLE_ASSIGN_OR_RETURN(std::string column,
                            ResolveColumn(t.board, StringIn(call.input, "column")));
  call.input["board"] = t.board.id;
  call.input["column"] = column;
  if (t.task) {
    call.input["itemId"] = t.task->id;
    call.input["itemKind"] = "task";
  } else if (t.card) {
    call.input["itemId"] = t.card->id;
    call.input["itemKind"] = "note";
  }
  return Status::Ok();
}

Result<std::string> PreviewMove(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(Target t, FindTarget(*ctx, call.input, true));
  ENSEMBLE_ASSIGN_OR_RETURN(std::string column,
                            ResolveColumn(t.board, StringIn(call.input, "column")));
  const std::string where = ColumnTitle(t.board, column);
  if (!t.card) {
    return (t.IsNote() ? "Add the note " + Quoted(t.Title()) + " to "
                       : "Put " + Quoted(t.Title()) + " on ") +
           Quoted(t.board.title) + " in " + where + ".";
  }
  return "Move " + Named(t) + " to " + where + " on " + Quoted(t.board.title) + ".";
}

Result<json> RunMove(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableBoardContext(call));
  ENSEMBLE_RETURN_IF_ERROR(PrepareMove(call));
  ENSEMBLE_ASSIGN_OR_RETURN(Target t, FindTarget(*ctx, call.input, true));
  const std::string column = StringIn(call.input, "column");
  const std::string where = ColumnTitle(t.board, column);
  json data = {{"board", {{"id", t.board.id}, {"title", t.board.title}}},
               {"column", {{"id", column}, {"title", where}}}};
  if (!t.card) {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string id, tools::record_rows::NewRecordId(*ctx));
    CardRow card;
    card.id = id;
    card.column = column;
    card.position = EndOf(t.cards, column, "");
    json args = {{"id", id},
                 {"spaceId", ctx->space_id},
                 {"board", t.board.id},
                 {"column", column},
                 {"position", card.position}};
    if (t.task) {
      card.task = t.task->id;
      args["task"] = t.task->id;
      card.task_title = t.task->title;
      card.task_status = t.task->status;
    } else {
      args["note"] = card.note = t.note;
    }
    ENSEMBLE_RETURN_IF_ERROR(ctx->write({{"card.create", std::move(args)}}));
    data["card"] = CardJson(card);
    return json{{"summary", (t.IsNote() ? "Added the note " + Quoted(t.Title()) + " to "
                                        : "Put " + Quoted(t.Title()) + " on ") +
                                Quoted(t.board.title) + " in " + where + "."},
                {"data", std::move(data)}};
  }
  CardRow card = *t.card;
  const bool new_note = !t.note.empty() && t.note != card.note;
  if (card.column == column && !new_note) {
    data["card"] = CardJson(card);
    return json{{"summary", Named(t) + " is already in " + where + " on " + Quoted(t.board.title) +
                                "; nothing changed."},
                {"data", std::move(data)}};
  }
  json fields = json::object();
  json base = json::object();
  if (card.column != column) {
    // The browser's drag sends the same: {column, position} based on the
    // card's values, so a concurrent move elsewhere conflicts.
    fields = {{"column", column}, {"position", EndOf(t.cards, column, card.id)}};
    base = {{"column", card.column}, {"position", card.position}};
  }
  if (new_note) {
    fields["note"] = t.note;
    base["note"] = card.note;
  }
  ENSEMBLE_RETURN_IF_ERROR(Write(
      *ctx, {{"card.update", {{"id", card.id}, {"fields", fields}, {"base", base}}}}, Named(t)));
  card.column = column;
  card.position = fields.value("position", card.position);
  if (new_note) card.note = t.note;
  data["card"] = CardJson(card);
  return json{
      {"summary", "Moved " + Named(t) + " to " + where + " on " + Quoted(t.board.title) + "."},
      {"data", std::move(data)}};
}

Status PrepareRemove(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(Target t, FindTarget(*ctx, call.input, false));
  call.input["board"] = t.board.id;
  call.input["itemId"] = t.card->id;
  return Status::Ok();
}

Result<std::string> PreviewRemove(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(Target t, FindTarget(*ctx, call.input, false));
  return RemoveText(t, "Take");
}

Result<json> RunRemove(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableBoardContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(Target t, FindTarget(*ctx, call.input, false));
  ENSEMBLE_RETURN_IF_ERROR(ctx->write({{"card.delete", {{"id", t.card->id}}}}));
  return json{
      {"summary", RemoveText(t, "Took")},
      {"data",
       {{"board", {{"id", t.board.id}, {"title", t.board.title}}}, {"card", CardJson(*t.card)}}}};
}

}  // namespace ensemble::core::boards
