// OpenStore: picks and opens the server's store from the Config (PostgreSQL
// when a database URL is set, else the embedded SQLite file in the data
// directory) and brings it to the current schema.
//
// Thread-safety: the returned Database is one connection; the server uses it
// from its one io thread.

#ifndef ENSEMBLE_SERVER_STORE_OPEN_STORE_H_
#define ENSEMBLE_SERVER_STORE_OPEN_STORE_H_

#include <memory>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/store/database.h"
#include "server/config.h"

namespace ensemble::server::store {

// The embedded store's file inside ENSEMBLE_DATA_DIR.
inline constexpr char kSqliteFileName[] = "ensemble.db";

// "sqlite" or "postgres", as /healthz and the start-up line report it.
std::string_view StoreKindName(core::store::Dialect dialect);

// Opens the configured store without migrating it (tests use this to look at
// the server's data through a second connection).
core::Result<std::unique_ptr<core::store::Database>> OpenDatabase(const Config& config);

// Opens the configured store, creating the data directory if needed, and
// applies the hub's migrations.
core::Result<std::unique_ptr<core::store::Database>> OpenStore(const Config& config);

}  // namespace ensemble::server::store

#endif  // ENSEMBLE_SERVER_STORE_OPEN_STORE_H_
