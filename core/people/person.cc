#include "core/people/person.h"

#include "core/people/identity.h"
#include "core/records/record_mutators.h"
#include "core/text/ascii.h"
#include "core/text/utf8.h"

namespace ensemble::core::people {
namespace {

using store::Value;

const records::FieldSpec kFields[] = {
    {.name = "name", .required = true, .trim = true, .max_chars = kMaxNameChars},
    {.name = "email", .nullable = true, .trim = true, .max_chars = kMaxEmailChars},
    {.name = "role", .trim = true, .max_chars = kMaxRoleChars},
    {.name = "team", .trim = true, .max_chars = kMaxRoleChars},
    {.name = "relationship",
     .type = records::FieldType::kEnum,
     .nullable = true,
     .values = kRelationships},
    {.name = "distinct_from", .type = records::FieldType::kIdList, .max_items = kMaxDistinctPeople},
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

const store::Migration kAddPersonDistinctFrom = {
    24, "people's distinct_from",
    "ALTER TABLE people ADD COLUMN distinct_from TEXT NOT NULL DEFAULT '[]';"};

void RegisterMutators(sync::MutatorRegistry& registry) {
  records::RegisterRecordMutators(kPersonKind, registry);
}

std::string NormalizeEmail(std::string_view email) { return text::AsciiLowered(text::Trim(email)); }

Result<std::optional<std::string>> FindPersonByEmail(store::Database& db,
                                                     const std::string& space_id,
                                                     std::string_view email) {
  ENSEMBLE_ASSIGN_OR_RETURN(auto primary, FindPersonByPrimaryEmail(db, space_id, email));
  if (primary) return primary;
  return FindPersonByIdentity(db, space_id, "email", email);
}

Result<std::optional<std::string>> FindPersonByPrimaryEmail(store::Database& db,
                                                            const std::string& space_id,
                                                            std::string_view email) {
  const std::string wanted = NormalizeEmail(email);
  if (wanted.empty()) return std::optional<std::string>();
  // Compared here rather than with SQL LOWER, whose case folding differs
  // between SQLite and PostgreSQL; a space holds few enough people.
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT id, email FROM people WHERE space_id = $1 AND deleted = 0 AND "
               "email IS NOT NULL ORDER BY id",
               {Value(space_id)}));
  for (size_t i = 0; i < rows.size(); ++i) {
    if (NormalizeEmail(store::AsText(rows.rows[i][1])) == wanted) {
      return std::optional<std::string>(store::AsText(rows.rows[i][0]));
    }
  }
  return std::optional<std::string>();
}

}  // namespace ensemble::core::people
