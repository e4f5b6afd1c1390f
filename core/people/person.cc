#include "core/people/person.h"

#include "core/records/record_mutators.h"

namespace ensemble::core::people {
namespace {

const records::FieldSpec kFields[] = {
    {.name = "name", .required = true, .trim = true, .max_chars = kMaxNameChars},
    {.name = "email", .nullable = true, .trim = true, .max_chars = kMaxEmailChars},
};

}  // namespace

const records::RecordKind kPersonKind = {kKind, kTable, kFields};

// Shipped: never edit; change the table with a new migration.
const store::Migration kCreatePeopleTable = {
    4, "create people",
    "CREATE TABLE people ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " email TEXT,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX people_space ON people (space_id, id);"
    "CREATE INDEX people_row_version ON people (row_version);"};

void RegisterMutators(sync::MutatorRegistry& registry) {
  records::RegisterRecordMutators(kPersonKind, registry);
}

}  // namespace ensemble::core::people
