#include "server/events/poke_channel.h"

#include <algorithm>
#include <charconv>
#include <memory>
#include <string>
#include <vector>

namespace ensemble::server::events {

using core::store::Value;

namespace {

// Account ids are generated tokens; one holding a separator cannot be listed.
bool Listable(std::string_view account_id) {
  return !account_id.empty() && account_id.find_first_of(",:") == std::string_view::npos;
}

}  // namespace

std::string PokePayload(const Poke& poke) {
  std::string payload = std::to_string(poke.version);
  if (!poke.readers) return payload;
  std::string listed = payload + ":";
  for (size_t i = 0; i < poke.readers->size(); ++i) {
    const std::string& reader = (*poke.readers)[i];
    if (!Listable(reader)) return payload;
    if (i > 0) listed += ',';
    listed += reader;
    if (listed.size() > kMaxPokePayloadBytes) return payload;
  }
  return listed;
}

core::Status NotifyPoke(core::store::Database& db, const Poke& poke) {
  if (db.dialect() != core::store::Dialect::kPostgres) return core::Status::Ok();
  return db.ExecDeferred("SELECT pg_notify($1, $2)",
                         {Value(std::string(kPokeChannel)), Value(PokePayload(poke))});
}

core::Status NotifyTurnStop(core::store::Database& db, const std::string& turn_id) {
  if (db.dialect() != core::store::Dialect::kPostgres) return core::Status::Ok();
  return db.ExecDeferred("SELECT pg_notify($1, $2)",
                         {Value(std::string(kTurnStopChannel)), Value(turn_id)});
}

core::Result<int64_t> CurrentServerVersion(core::store::Database& db) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      core::store::Rows rows,
      db.Query("SELECT int_value FROM sync_state WHERE key = 'server_version'"));
  return rows.empty() ? 0 : core::store::AsInt(rows.rows[0][0]);
}

std::optional<Poke> ParsePokePayload(std::string_view payload) {
  const size_t colon = payload.find(':');
  std::string_view number = payload.substr(0, colon);
  Poke poke;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), poke.version);
  if (ec != std::errc() || end != number.data() + number.size() || poke.version < 0) {
    return std::nullopt;
  }
  if (colon == std::string_view::npos) return poke;
  auto readers = std::make_shared<std::vector<std::string>>();
  std::string_view rest = payload.substr(colon + 1);
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    std::string_view reader = rest.substr(0, comma);
    if (!Listable(reader)) return std::nullopt;
    readers->emplace_back(reader);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (!std::is_sorted(readers->begin(), readers->end()))
    std::sort(readers->begin(), readers->end());
  poke.readers = std::move(readers);
  return poke;
}

}  // namespace ensemble::server::events
