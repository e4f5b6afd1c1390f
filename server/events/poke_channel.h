// The PostgreSQL channel pokes travel on between server processes that share
// one database: the push transaction NOTIFYs it (delivered at commit, never
// for a rolled-back push) and every process LISTENs (PgPokeListener).
//
// Thread-safety: stateless functions.

#ifndef ENSEMBLE_SERVER_EVENTS_POKE_CHANNEL_H_
#define ENSEMBLE_SERVER_EVENTS_POKE_CHANNEL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/store/database.h"
#include "server/events/poke_hub.h"

namespace ensemble::server::events {

inline constexpr char kPokeChannel[] = "ensemble_poke";
// Stop for an assistant turn another process runs: the payload is the turn's
// id, sent by the process that checked the account's right to stop it.
inline constexpr char kTurnStopChannel[] = "ensemble_turn_stop";

// PostgreSQL refuses a payload of 8,000 bytes or more; a poke whose readers
// do not fit in this many goes to everyone (a poke carries no data, only
// "pull now", and a pull shows each account only its own spaces).
inline constexpr size_t kMaxPokePayloadBytes = 7000;

// The payload of `poke`: "<version>", or "<version>:<reader>,<reader>..."
// when it names its readers and they fit.
std::string PokePayload(const Poke& poke);

// Inside an open transaction on `db`: queues `poke` to every listening
// process (PostgreSQL); nothing on SQLite, where pokes stay in the process.
core::Status NotifyPoke(core::store::Database& db, const Poke& poke);

// Inside an open transaction on `db`: asks every listening process to stop
// turn `turn_id` (PostgreSQL); nothing on SQLite, where turns run in this
// process.
core::Status NotifyTurnStop(core::store::Database& db, const std::string& turn_id);

// The store's current server version (the change counter).
core::Result<int64_t> CurrentServerVersion(core::store::Database& db);

// The poke in a notification's payload; nullopt when it is not one.
std::optional<Poke> ParsePokePayload(std::string_view payload);

}  // namespace ensemble::server::events

#endif  // ENSEMBLE_SERVER_EVENTS_POKE_CHANNEL_H_
