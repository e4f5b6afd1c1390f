#include "core/pages/page.h"

#include "core/records/record_mutators.h"

namespace ensemble::core::pages {
namespace {

const records::FieldSpec kFields[] = {
    {.name = "title", .required = true, .trim = true, .max_chars = kMaxTitleChars},
    {.name = "body", .max_chars = kMaxBodyChars},
};

}  // namespace

const records::RecordKind kPageKind = {kKind, kTable, kFields};

// Shipped: never edit; change the table with a new migration.
const store::Migration kCreatePageTable = {
    5, "create pages",
    "CREATE TABLE pages ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " title TEXT NOT NULL,"
    " body TEXT NOT NULL,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX pages_space ON pages (space_id, id);"
    "CREATE INDEX pages_row_version ON pages (row_version);"};

void RegisterMutators(sync::MutatorRegistry& registry) {
  records::RegisterRecordMutators(kPageKind, registry);
}

}  // namespace ensemble::core::pages
