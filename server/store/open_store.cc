#include "server/store/open_store.h"

#include <filesystem>
#include <system_error>

#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"
#include "server/store/pg_database.h"

namespace ensemble::server::store {

using core::Result;
using core::Status;
using core::store::Database;

std::string_view StoreKindName(core::store::Dialect dialect) {
  return dialect == core::store::Dialect::kPostgres ? "postgres" : "sqlite";
}

Result<std::unique_ptr<Database>> OpenDatabase(const Config& config) {
  if (!config.database_url.empty()) {
    ENSEMBLE_ASSIGN_OR_RETURN(auto pg, PgDatabase::Open(config.database_url));
    return std::unique_ptr<Database>(std::move(pg));
  }
  std::error_code ec;
  std::filesystem::create_directories(config.data_dir, ec);
  if (ec) {
    return Status(core::codes::kStorage,
                  "cannot create data directory '" + config.data_dir + "': " + ec.message());
  }
  std::string path = (std::filesystem::path(config.data_dir) / kSqliteFileName).string();
  ENSEMBLE_ASSIGN_OR_RETURN(auto sqlite, core::store::SqliteDatabase::Open(path));
  // WAL lets readers (a second process, a backup, a test) look while the
  // server writes, and makes each commit one append.
  ENSEMBLE_RETURN_IF_ERROR(sqlite->ExecScript("PRAGMA journal_mode=WAL;"));
  return std::unique_ptr<Database>(std::move(sqlite));
}

Result<std::unique_ptr<Database>> OpenStore(const Config& config) {
  ENSEMBLE_ASSIGN_OR_RETURN(auto db, OpenDatabase(config));
  ENSEMBLE_RETURN_IF_ERROR(core::hub::Migrate(*db));
  return db;
}

}  // namespace ensemble::server::store
