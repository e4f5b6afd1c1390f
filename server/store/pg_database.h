// PgDatabase: the core's Database interface over one libpq connection to
// PostgreSQL, so the core's mutators and migrations run unchanged on the
// server's shared store.
//
// Parameters travel as text ($1..$n; integers and reals typed as BIGINT and
// DOUBLE PRECISION, text left for the server to infer). Result values are typed
// by column type so rows compare equal to SQLite's: integer and boolean
// columns become int64_t (booleans 0/1), REAL/DOUBLE/NUMERIC become double,
// NULL becomes Null, everything else text. Every error is STORAGE_ERROR with
// libpq's message.
//
// Thread-safety: one connection; use from one thread at a time.

#ifndef ENSEMBLE_SERVER_STORE_PG_DATABASE_H_
#define ENSEMBLE_SERVER_STORE_PG_DATABASE_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"

struct pg_conn;
struct pg_result;

namespace ensemble::server::store {

// How long Open waits for the server unless the URL sets connect_timeout.
inline constexpr int kPgConnectTimeoutSeconds = 10;

class PgDatabase final : public core::store::Database {
 public:
  // Connects to `url` (a postgresql:// URI or a libpq key=value string).
  // Error messages never contain the URL, which may hold a password.
  static core::Result<std::unique_ptr<PgDatabase>> Open(const std::string& url);
  ~PgDatabase() override;

  core::store::Dialect dialect() const override { return core::store::Dialect::kPostgres; }
  core::Result<core::store::Rows> Query(
      std::string_view sql, const std::vector<core::store::Value>& params = {}) override;
  core::Status ExecScript(std::string_view sql) override;
  core::Status Begin() override;
  core::Status Commit() override;
  core::Status Rollback() override;

 private:
  explicit PgDatabase(pg_conn* conn) : conn_(conn) {}
  // Reconnects a broken connection, but only between transactions: inside one
  // the work done so far is gone, and the caller must see the failure.
  core::Status EnsureConnected();
  core::Status Error(std::string_view what, const pg_result* result) const;

  pg_conn* conn_;
  bool in_transaction_ = false;  // Between Begin() and Commit()/Rollback().
};

}  // namespace ensemble::server::store

#endif  // ENSEMBLE_SERVER_STORE_PG_DATABASE_H_
