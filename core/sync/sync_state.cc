#include "core/sync/sync_state.h"

namespace ensemble::core::sync {

using store::Value;

namespace {
Result<store::Rows> Read(store::Database& db, std::string_view key) {
  return db.Query("SELECT int_value, text_value FROM sync_state WHERE key = $1",
                  {Value(std::string(key))});
}
}  // namespace

Result<std::optional<int64_t>> GetStateInt(store::Database& db, std::string_view key) {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, Read(db, key));
  if (rows.empty() || store::IsNull(rows.rows[0][0])) return std::optional<int64_t>();
  return std::optional<int64_t>(store::AsInt(rows.rows[0][0]));
}

Result<std::optional<std::string>> GetStateText(store::Database& db, std::string_view key) {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, Read(db, key));
  if (rows.empty() || store::IsNull(rows.rows[0][1])) return std::optional<std::string>();
  return std::optional<std::string>(store::AsText(rows.rows[0][1]));
}

Status SetStateInt(store::Database& db, std::string_view key, int64_t value) {
  return db.Exec(
      "INSERT INTO sync_state (key, int_value) VALUES ($1, $2)"
      " ON CONFLICT (key) DO UPDATE SET int_value = excluded.int_value",
      {Value(std::string(key)), Value(value)});
}

Status SetStateText(store::Database& db, std::string_view key, const std::string& value) {
  return db.Exec(
      "INSERT INTO sync_state (key, text_value) VALUES ($1, $2)"
      " ON CONFLICT (key) DO UPDATE SET text_value = excluded.text_value",
      {Value(std::string(key)), Value(value)});
}

Result<int64_t> ReserveServerVersions(store::Database& db, int64_t count) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("UPDATE sync_state SET int_value = int_value + $1 WHERE key = 'server_version'"
               " RETURNING int_value",
               {Value(count)}));
  if (rows.empty()) return Status(codes::kInternal, "server_version is missing");
  return store::AsInt(rows.rows[0][0]) - count + 1;
}

Status DeleteState(store::Database& db, std::string_view key) {
  return db.Exec("DELETE FROM sync_state WHERE key = $1", {store::Value(std::string(key))});
}

}  // namespace ensemble::core::sync
