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
// Statements run as server-side prepared statements: each distinct SQL text
// (with the types its parameters are bound as) is PREPAREd once per connection
// and then only executed, which saves the server parsing and planning it on
// every call. At most kPgMaxPreparedStatements are kept; the least recently
// used is DEALLOCATEd. The cache is forgotten when the connection is reset,
// and a statement the server no longer has (someone ran DEALLOCATE, SQLSTATE
// 26000) is prepared again, outside a transaction at once, inside one the next
// time (the failed statement has aborted the transaction). ExecScript does not
// use the cache.
//
// Thread-safety: one connection; use from one thread at a time.

#ifndef ENSEMBLE_SERVER_STORE_PG_DATABASE_H_
#define ENSEMBLE_SERVER_STORE_PG_DATABASE_H_

#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"

struct pg_conn;
struct pg_result;

namespace ensemble::server::store {

// How long Open waits for the server unless the URL sets connect_timeout.
inline constexpr int kPgConnectTimeoutSeconds = 10;

// How many prepared statements one connection keeps. The server's mutators and
// sync routes use a few dozen distinct statements; the bound only stops SQL
// built from data (which should not happen) from growing the server's memory.
inline constexpr size_t kPgMaxPreparedStatements = 256;
// How many statements ExecDeferred holds before sending them anyway: a bound
// on memory and on how far a failure can be from the statement that caused it.
inline constexpr size_t kPgMaxDeferredStatements = 64;

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
  // Inside a transaction, held and sent in one pipeline (libpq pipeline mode)
  // with the next statement that needs an answer, or with COMMIT.
  core::Status ExecDeferred(std::string_view sql,
                            const std::vector<core::store::Value>& params = {}) override;
  core::Status Begin(core::store::Durability durability) override;
  core::Status Commit() override;
  core::Status Rollback() override;

 private:
  struct ResultDeleter {
    void operator()(pg_result* r) const;
  };
  using ResultPtr = std::unique_ptr<pg_result, ResultDeleter>;

  // A statement bound for libpq: its text, cache key, and parameters as text.
  struct Bound {
    std::string text;
    std::string key;
    std::vector<std::string> texts;
    std::vector<bool> is_null;
    std::vector<unsigned int> types;
    bool prepare = true;  // Run as a cached prepared statement, else unnamed.
    // libpq's parameter array; valid while this Bound is neither changed nor moved.
    std::vector<const char*> Values() const;
  };

  explicit PgDatabase(pg_conn* conn) : conn_(conn) {}

  static Bound Bind(std::string_view sql, const std::vector<core::store::Value>& params,
                    bool prepare);
  static core::Result<core::store::Rows> ToRows(const pg_result* res);
  // Sends `batch` in one pipeline and returns the last statement's result, or
  // the first failure (after which the server skipped the rest).
  core::Result<ResultPtr> RunPipeline(std::vector<Bound>& batch);
  // Reconnects a broken connection, but only between transactions: inside one
  // the work done so far is gone, and the caller must see the failure.
  core::Status EnsureConnected();
  core::Status Error(std::string_view what, const pg_result* result) const;

  // One prepared statement: its cache key (SQL text and parameter types) and
  // its server-side name.
  struct Prepared {
    std::string key;
    std::string name;
  };
  // Returns the name of the statement prepared for `key`, preparing it now if
  // needed; an empty name when PREPARE failed and `*failure` is then set to the
  // server's answer. Marks the statement most recently used.
  std::string PrepareCached(const std::string& key, const std::string& sql,
                            const std::vector<unsigned int>& types, pg_result** failure);
  // Forgets `key` (the server no longer has it, or it must be prepared again).
  void Forget(const std::string& key);
  // DEALLOCATEs evicted statements once no transaction is open: inside one a
  // failing DEALLOCATE would abort the caller's work.
  void DeallocateEvicted();
  // Forgets every prepared statement (the connection was reset: the new
  // session has none).
  void ClearPrepared();

  pg_conn* conn_;
  bool in_transaction_ = false;  // Between Begin() and Commit()/Rollback().
  // Statements ExecDeferred (and Begin) hold until the next round trip.
  std::vector<Bound> deferred_;
  // Most recently used first; `prepared_index_` finds an entry by key.
  std::list<Prepared> prepared_;
  std::unordered_map<std::string, std::list<Prepared>::iterator> prepared_index_;
  // Names evicted from the cache but not yet DEALLOCATEd on the server.
  std::vector<std::string> evicted_;
  uint64_t next_statement_id_ = 0;  // Names are never reused on a connection.
};

}  // namespace ensemble::server::store

#endif  // ENSEMBLE_SERVER_STORE_PG_DATABASE_H_
