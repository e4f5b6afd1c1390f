#include "core/store/migrations.h"

#include <string>

namespace ensemble::core::store {
namespace {
// Arbitrary constant shared by every server process of this product.
constexpr int64_t kMigrationLockKey = 0x656e73656d626c65;  // "ensemble"
}  // namespace

Result<int64_t> SchemaVersion(Database& db) {
  ENSEMBLE_RETURN_IF_ERROR(
      db.ExecScript("CREATE TABLE IF NOT EXISTS schema_migrations ("
                    " version BIGINT PRIMARY KEY, name TEXT NOT NULL)"));
  ENSEMBLE_ASSIGN_OR_RETURN(Rows rows,
                            db.Query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"));
  return AsInt(rows.rows.at(0).at(0));
}

Status Migrate(Database& db, std::span<const Migration> migrations) {
  Transaction txn(db);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  if (db.dialect() == Dialect::kPostgres) {
    // Serializes CREATE TABLE IF NOT EXISTS between processes.
    ENSEMBLE_RETURN_IF_ERROR(
        db.Exec("SELECT pg_advisory_xact_lock($1)", {Value(kMigrationLockKey)}));
  }
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t current, SchemaVersion(db));
  for (const Migration& m : migrations) {
    if (m.version <= current) continue;
    const bool postgres = db.dialect() == Dialect::kPostgres && !m.postgres_sql.empty();
    ENSEMBLE_RETURN_IF_ERROR(db.ExecScript(postgres ? m.postgres_sql : m.sql));
    if (m.then) ENSEMBLE_RETURN_IF_ERROR(m.then(db));
    ENSEMBLE_RETURN_IF_ERROR(
        db.Exec("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                {Value(m.version), Value(std::string(m.name))}));
  }
  return txn.Commit();
}

}  // namespace ensemble::core::store
