// The PostgreSQL channel pokes travel on between server processes that share
// one database: the push transaction NOTIFYs it (delivered at commit, never
// for a rolled-back push) and every process LISTENs (PgPokeListener).
//
// Thread-safety: stateless functions.

#ifndef ENSEMBLE_SERVER_EVENTS_POKE_CHANNEL_H_
#define ENSEMBLE_SERVER_EVENTS_POKE_CHANNEL_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/base/status.h"
#include "core/store/database.h"

namespace ensemble::server::events {

inline constexpr char kPokeChannel[] = "ensemble_poke";

// Inside an open transaction on `db`: queues a poke for `version` to every
// listening process (PostgreSQL); nothing on SQLite, where pokes stay in
// the process.
core::Status NotifyPoke(core::store::Database& db, int64_t version);

// The store's current server version (the change counter).
core::Result<int64_t> CurrentServerVersion(core::store::Database& db);

// The version in a notification's payload; nullopt when it is not one.
std::optional<int64_t> ParsePokePayload(std::string_view payload);

}  // namespace ensemble::server::events

#endif  // ENSEMBLE_SERVER_EVENTS_POKE_CHANNEL_H_
