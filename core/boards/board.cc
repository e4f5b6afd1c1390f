#include "core/boards/board.h"

#include "core/records/record_mutators.h"

namespace ensemble::core::boards {
namespace {

const records::FieldSpec kFields[] = {
    {.name = "title", .required = true, .trim = true, .max_chars = kMaxTitleChars},
    {.name = "description", .max_chars = kMaxDescriptionChars},
};

}  // namespace

const records::RecordKind kBoardKind = {kKind, kTable, kFields};

// Shipped: never edit; change the table with a new migration.
const store::Migration kCreateBoardTable = {
    6, "create boards",
    "CREATE TABLE boards ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " title TEXT NOT NULL,"
    " description TEXT NOT NULL,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX boards_space ON boards (space_id, id);"
    "CREATE INDEX boards_row_version ON boards (row_version);"};

void RegisterMutators(sync::MutatorRegistry& registry) {
  records::RegisterRecordMutators(kBoardKind, registry);
}

}  // namespace ensemble::core::boards
