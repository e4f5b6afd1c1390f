#include "core/people/suppressions.h"

#include "core/people/person.h"

namespace ensemble::core::people {
namespace {

using store::Value;

}  // namespace

// Shipped: never edit; change the table with a new migration.
const store::Migration kCreateContextSuppressionsTable = {35, "context suppressions",
                                                          "CREATE TABLE context_suppressions ("
                                                          " space_id TEXT NOT NULL,"
                                                          " kind TEXT NOT NULL,"
                                                          " value TEXT NOT NULL,"
                                                          " PRIMARY KEY (space_id, kind, value));"};

Result<std::set<std::string>> SuppressedEmails(store::Database& db, const std::string& space_id) {
  std::set<std::string> out;
  // In Trash: people's own addresses, their identities', removed identities'.
  // Compared normalized here rather than with SQL LOWER, whose case folding
  // differs between SQLite and PostgreSQL.
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows trashed,
      db.Query("SELECT email FROM people WHERE space_id = $1 AND deleted = 1 AND email IS NOT NULL"
               " UNION ALL SELECT i.value FROM person_identities i"
               " LEFT JOIN people p ON p.id = i.person WHERE i.space_id = $1"
               " AND i.identity_kind = 'email' AND (i.deleted = 1 OR p.deleted = 1)",
               {Value(space_id)}));
  for (std::size_t i = 0; i < trashed.size(); ++i) {
    std::string email = NormalizeEmail(store::AsText(trashed.rows[i][0]));
    if (!email.empty()) out.insert(std::move(email));
  }
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows kept,
      db.Query("SELECT value FROM context_suppressions WHERE space_id = $1 AND kind = $2",
               {Value(space_id), Value(std::string(kEmailSuppression))}));
  for (std::size_t i = 0; i < kept.size(); ++i) out.insert(store::AsText(kept.rows[i][0]));
  return out;
}

Status SuppressPurgedPeople(store::Database& db, int64_t through) {
  // What the compaction removes: rows in Trash at or below `through`; an
  // identity goes with it when its person does.
  const std::string sql =
      "SELECT space_id, email FROM people WHERE deleted = 1 AND email IS NOT NULL"
      " AND row_version <= $1"
      " UNION ALL SELECT i.space_id, i.value FROM person_identities i"
      " LEFT JOIN people p ON p.id = i.person WHERE i.identity_kind = 'email'"
      " AND ((i.deleted = 1 AND i.row_version <= $1) OR (p.deleted = 1 AND p.row_version <= $1))";
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, db.Query(sql, {Value(through)}));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string email = NormalizeEmail(store::AsText(rows.rows[i][1]));
    if (email.empty()) continue;
    ENSEMBLE_RETURN_IF_ERROR(
        db.Exec("INSERT INTO context_suppressions (space_id, kind, value)"
                " VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                {Value(store::AsText(rows.rows[i][0])), Value(std::string(kEmailSuppression)),
                 Value(email)}));
  }
  return Status::Ok();
}

}  // namespace ensemble::core::people
