#include "server/events/poke_channel.h"

#include <charconv>
#include <string>

namespace ensemble::server::events {

using core::store::Value;

core::Status NotifyPoke(core::store::Database& db, int64_t version) {
  if (db.dialect() != core::store::Dialect::kPostgres) return core::Status::Ok();
  return db.ExecDeferred("SELECT pg_notify($1, $2)",
                 {Value(std::string(kPokeChannel)), Value(std::to_string(version))});
}

core::Result<int64_t> CurrentServerVersion(core::store::Database& db) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      core::store::Rows rows,
      db.Query("SELECT int_value FROM sync_state WHERE key = 'server_version'"));
  return rows.empty() ? 0 : core::store::AsInt(rows.rows[0][0]);
}

std::optional<int64_t> ParsePokePayload(std::string_view payload) {
  int64_t version = 0;
  auto [end, ec] = std::from_chars(payload.data(), payload.data() + payload.size(), version);
  if (ec != std::errc() || end != payload.data() + payload.size() || version < 0) {
    return std::nullopt;
  }
  return version;
}

}  // namespace ensemble::server::events
