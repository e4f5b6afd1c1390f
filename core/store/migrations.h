// Schema migrations: an ordered list of versioned SQL scripts applied once
// each, in one transaction, and recorded in schema_migrations. The same list
// runs on SQLite and PostgreSQL, so the scripts use the common subset
// (TEXT, BIGINT, DOUBLE PRECISION; no AUTOINCREMENT or SERIAL).
//
// Thread-safety: as the Database given. On PostgreSQL several processes may
// migrate at once; an advisory lock makes the second wait for the first.

#ifndef ENSEMBLE_CORE_STORE_MIGRATIONS_H_
#define ENSEMBLE_CORE_STORE_MIGRATIONS_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "core/store/database.h"

namespace ensemble::core::store {

struct Migration {
  int64_t version;  // Strictly increasing; never reused or edited once shipped.
  std::string_view name;
  std::string_view sql;
  // What PostgreSQL runs instead of `sql`, when the two must differ (a byte
  // ordered COLLATE "C" column, SQLite's WITHOUT ROWID). Empty: `sql`.
  std::string_view postgres_sql = {};
  // Runs after the script in the same transaction: what SQL alone cannot
  // fill (an index derived from existing rows). Null: nothing.
  Status (*then)(Database& db) = nullptr;
};

// Applies every migration newer than the database's schema version.
Status Migrate(Database& db, std::span<const Migration> migrations);

// The highest applied version, or 0 for a new database.
Result<int64_t> SchemaVersion(Database& db);

}  // namespace ensemble::core::store

#endif  // ENSEMBLE_CORE_STORE_MIGRATIONS_H_
