#include "core/projects/project.h"

#include "core/records/record_mutators.h"

namespace ensemble::core::projects {
namespace {

const records::FieldSpec kFields[] = {
    {.name = "title", .required = true, .trim = true, .max_chars = kMaxTitleChars},
    {.name = "description", .max_chars = kMaxDescriptionChars},
    {.name = "status", .type = records::FieldType::kEnum, .values = kStatuses},
};

}  // namespace

const records::RecordKind kProjectKind = {kKind, kTable, kFields};

// Shipped: never edit; change the table with a new migration.
const store::Migration kCreateProjectTable = {
    3, "create projects",
    "CREATE TABLE projects ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " title TEXT NOT NULL,"
    " description TEXT NOT NULL,"
    " status TEXT NOT NULL,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX projects_space ON projects (space_id, id);"
    "CREATE INDEX projects_row_version ON projects (row_version);"};

void RegisterMutators(sync::MutatorRegistry& registry) {
  records::RegisterRecordMutators(kProjectKind, registry);
}

}  // namespace ensemble::core::projects
