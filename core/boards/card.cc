#include "core/boards/card.h"

#include <optional>
#include <string>

#include "core/boards/board.h"
#include "core/records/record_mutators.h"
#include "core/sync/row_codec.h"
#include "core/tasks/task.h"
#include "core/text/utf8.h"

namespace ensemble::core::boards {

using nlohmann::json;
using store::Value;

namespace {

const records::FieldSpec kCardFields[] = {
    {.name = "board", .type = records::FieldType::kId, .required = true},
    {.name = "column", .required = true, .trim = true, .max_chars = kMaxColumnIdChars},
    {.name = "task", .type = records::FieldType::kId, .nullable = true},
    {.name = "note", .max_chars = kMaxNoteChars},
    {.name = "position", .type = records::FieldType::kInt, .min = 0, .max = kMaxCardPosition},
};

bool IsBlank(const json& v) {
  return !v.is_string() || text::Trim(v.get_ref<const std::string&>()).empty();
}

bool IsDeleted(const json& row) { return row.value("deleted", int64_t{0}) != 0; }

// The live board `id` of `space_id`, with its columns as JSON.
Result<json> LiveBoard(store::Database& db, const std::string& id, const std::string& space_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<json> board, records::ReadRecord(kBoardKind, db, id));
  // A board of another space answers as a missing one: an id is no evidence
  // of access.
  if (!board || board->value("space_id", "") != space_id) {
    return Status(codes::kNotFound, "no board with id " + id);
  }
  if (IsDeleted(*board)) {
    return Status(codes::kFailedPrecondition,
                  "the board is in Trash; restore it before changing its cards");
  }
  return *board;
}

// `column` as given (a string): stored trimmed, so compared trimmed.
Status CheckColumnOf(const json& board, const json& given) {
  const std::string column(text::Trim(given.get_ref<const std::string&>()));
  if (FindColumn(board.value("columns", json::array()), column)) return Status::Ok();
  return InvalidArgument("the board has no column with id '" + column + "'");
}

}  // namespace

const records::RecordKind kCardRecordKind = {kCardKind, kCardTable, kCardFields};

// "column" is a reserved word in PostgreSQL, so it is quoted here (quoted
// lower-case names equal unquoted ones in both dialects).
const store::Migration kAddBoardColumnsAndCards = {
    16, "board columns and tiles, board cards",
    "ALTER TABLE boards ADD COLUMN columns TEXT NOT NULL DEFAULT '[]';"
    "ALTER TABLE boards ADD COLUMN tiles TEXT NOT NULL DEFAULT '[]';"
    "CREATE TABLE board_cards ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " board TEXT NOT NULL,"
    " \"column\" TEXT NOT NULL,"
    " task TEXT,"
    " note TEXT NOT NULL,"
    " position BIGINT NOT NULL,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX board_cards_space ON board_cards (space_id, id);"
    "CREATE INDEX board_cards_board ON board_cards (board, id);"
    "CREATE INDEX board_cards_task ON board_cards (task);"
    "CREATE INDEX board_cards_row_version ON board_cards (row_version);"};

Status CreateCard(sync::MutationContext& ctx, const json& args) {
  // Shapes first, worded as every kind words them; then what needs the store.
  if (!args.is_object() || !args.contains("spaceId") || !args["spaceId"].is_string()) {
    return records::CreateRecord(kCardRecordKind, ctx, args);
  }
  ENSEMBLE_RETURN_IF_ERROR(records::CheckCreateFields(kCardRecordKind, args));
  const json task = args.value("task", json(nullptr));
  const bool has_note = !IsBlank(args.value("note", json("")));
  if (task.is_null() == !has_note) {
    return InvalidArgument("a card holds either a task or a note (not both, not neither)");
  }
  const std::string space_id = args["spaceId"].get<std::string>();
  ENSEMBLE_ASSIGN_OR_RETURN(json board,
                            LiveBoard(ctx.db(), args["board"].get<std::string>(), space_id));
  ENSEMBLE_RETURN_IF_ERROR(CheckColumnOf(board, args["column"]));
  if (!task.is_null()) {
    const std::string task_id = task.get<std::string>();
    ENSEMBLE_ASSIGN_OR_RETURN(std::optional<json> row,
                              sync::ReadRow(ctx.db(), tasks::kTable, task_id));
    if (!row || row->value("space_id", "") != space_id || IsDeleted(*row)) {
      return Status(codes::kNotFound, "no task with id " + task_id);
    }
    ENSEMBLE_ASSIGN_OR_RETURN(
        store::Rows on_board,
        ctx.db().Query("SELECT id FROM board_cards WHERE board = $1 AND task = $2 AND deleted = 0",
                       {Value(args["board"].get<std::string>()), Value(task_id)}));
    if (!on_board.empty()) {
      ctx.details() = json{{"card", store::AsText(on_board.rows[0][0])}};
      return Status(codes::kAlreadyExists,
                    "this task is already on the board; move its card instead");
    }
  }
  return records::CreateRecord(kCardRecordKind, ctx, args);
}

Status UpdateCard(sync::MutationContext& ctx, const json& args) {
  if (!args.is_object() || !args.contains("id") || !args["id"].is_string() ||
      !args.contains("fields") || !args["fields"].is_object()) {
    return records::UpdateRecord(kCardRecordKind, ctx, args);
  }
  const json& fields = args["fields"];
  ENSEMBLE_ASSIGN_OR_RETURN(
      std::optional<json> card,
      records::ReadRecord(kCardRecordKind, ctx.db(), args["id"].get<std::string>()));
  // A missing card, one in Trash and bad values are the generic mutator's
  // to report.
  if (!card || IsDeleted(*card)) return records::UpdateRecord(kCardRecordKind, ctx, args);
  for (const char* fixed : {"board", "task"}) {
    if (fields.contains(fixed) && fields[fixed] != (*card)[fixed]) {
      return InvalidArgument(std::string("a card keeps its ") + fixed +
                             "; take it off and put the other one on instead");
    }
  }
  if (fields.contains("note") && fields["note"].is_string()) {
    const bool task_card = !(*card)["task"].is_null();
    if (task_card && !IsBlank(fields["note"])) return InvalidArgument("a task's card has no note");
    if (!task_card && IsBlank(fields["note"])) return InvalidArgument("a note card needs its text");
  }
  if (fields.contains("column") && fields["column"].is_string()) {
    ENSEMBLE_ASSIGN_OR_RETURN(
        std::optional<json> board,
        records::ReadRecord(kBoardKind, ctx.db(), (*card)["board"].get<std::string>()));
    if (!board) return Status(codes::kNotFound, "the card's board is gone");
    ENSEMBLE_RETURN_IF_ERROR(CheckColumnOf(*board, fields["column"]));
  }
  return records::UpdateRecord(kCardRecordKind, ctx, args);
}

void RegisterCardMutators(sync::MutatorRegistry& registry) {
  records::RegisterRecordMutators(kCardRecordKind, registry);
  // The checked create and update replace the generic ones.
  registry.Register("card.create", CreateCard);
  registry.Register("card.update", UpdateCard);
}

}  // namespace ensemble::core::boards
