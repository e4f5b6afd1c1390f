// Database: the one SQL interface every store implements.
//
// Mutators and sync rules are written once against this interface, in SQL that
// both dialects accept (placeholders are $1, $2, ...; upserts use
// ON CONFLICT ... DO UPDATE; counters use UPDATE ... RETURNING), so the same code
// runs on SQLite in the browser, SQLite on the server and PostgreSQL on the
// server. Values come back typed (integer, real, text, null) whatever the
// dialect, so rows compare equal across stores.
//
// Thread-safety: a Database is a single connection; use it from one thread at
// a time.

#ifndef ENSEMBLE_CORE_STORE_DATABASE_H_
#define ENSEMBLE_CORE_STORE_DATABASE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/base/status.h"

namespace ensemble::core::store {

enum class Dialect { kSqlite, kPostgres };

using Null = std::monostate;
using Value = std::variant<Null, int64_t, double, std::string>;

struct Rows {
  std::vector<std::string> columns;
  std::vector<std::vector<Value>> rows;

  bool empty() const { return rows.empty(); }
  size_t size() const { return rows.size(); }
};

// Accessors that tolerate NULL, for reading rows of a known schema.
int64_t AsInt(const Value& v, int64_t if_null = 0);
std::string AsText(const Value& v);
bool IsNull(const Value& v);

// Row counts a bulk statement (a multi-row INSERT, an IN list) is written
// for: a batch goes in chunks of these sizes, so a statement cache holds
// seven shapes of the statement rather than one per count, and a batch of a
// dozen takes two statements, not three.
inline constexpr std::size_t kBulkChunks[] = {64, 32, 16, 8, 4, 2, 1};

// The largest of kBulkChunks not above `left` (at least 1).
std::size_t BulkChunk(std::size_t left);

// "$first, $first+1, ..." for `count` placeholders.
std::string Placeholders(std::size_t first, std::size_t count);

// "($1, ..., $columns), ($columns+1, ...), ..." for `rows` rows: a
// multi-row INSERT's VALUES.
std::string ValueRows(std::size_t rows, std::size_t columns);

// What a commit waits for.
enum class Durability {
  // The commit returns once the transaction is on disk. Records, the sync
  // log, receipts: everything a client is told was saved.
  kFull,
  // The commit returns without waiting for the disk (PostgreSQL:
  // synchronous_commit off; SQLite in WAL mode: synchronous NORMAL). A crash
  // of the process loses nothing; a power loss or OS crash moments later may
  // lose the transaction, never corrupt the store, and a later kFull commit
  // makes it durable too (both logs are written in order). Only for what a
  // person can recreate, such as chat text, where waiting for the disk would
  // be most of the request's time.
  kRelaxed,
};

// One row of a result as Database::ForEachRow hands it over. It reads the
// store's own buffers, so it is valid only during the call that receives it.
class RowView {
 public:
  virtual ~RowView() = default;
  virtual bool IsNull(int column) const = 0;
  // The column as an integer (NULL reads 0).
  virtual int64_t Int(int column) const = 0;
  // The column's text (NULL reads ""), valid until the call returns.
  virtual std::string_view Text(int column) const = 0;
};

class Database {
 public:
  virtual ~Database() = default;

  virtual Dialect dialect() const = 0;

  // Runs one statement with positional parameters $1..$n and returns its rows
  // (none for statements that return none). After a non-OK result inside a
  // Transaction, issue no more statements in it: return and let it roll back
  // (PostgreSQL refuses everything until then; SQLite would carry on). Types
  // differ in one place: SUM of a BIGINT is NUMERIC (a double) on PostgreSQL,
  // so write CAST(SUM(x) AS BIGINT) where an integer is needed.
  virtual Result<Rows> Query(std::string_view sql, const std::vector<Value>& params = {}) = 0;

  // Runs a query and hands each row to `visit` as it is read, without
  // copying it: for results too long to hold when the caller keeps only a
  // summary of them. `visit` must not use this Database; a non-OK Status from
  // it stops the query and is returned. The default reads the rows by Query.
  virtual Status ForEachRow(std::string_view sql, const std::vector<Value>& params,
                            const std::function<Status(const RowView&)>& visit);
  // Runs one or more statements without parameters (schema, pragmas).
  virtual Status ExecScript(std::string_view sql) = 0;

  // Starts a write transaction; on SQLite this takes the write lock at once
  // (BEGIN IMMEDIATE) so a transaction never fails halfway on a busy lock.
  // Its Commit waits for the disk as `durability` says.
  virtual Status Begin(Durability durability) = 0;
  virtual Status Commit() = 0;
  virtual Status Rollback() = 0;

  // Convenience: Query and discard the rows.
  Status Exec(std::string_view sql, const std::vector<Value>& params = {});

  // Runs a statement whose only answer is success or failure, possibly later:
  // a store that talks over a network may hold it and send it together with
  // the next statement that needs an answer (one round trip instead of two).
  // A failure is then returned by that statement, or by Commit(), and aborts
  // the transaction as any failed statement does. Rollback() discards held
  // statements unsent. The default runs it at once.
  virtual Status ExecDeferred(std::string_view sql, const std::vector<Value>& params = {}) {
    return Exec(sql, params);
  }

 private:
  friend class Transaction;
  int transaction_depth_ = 0;  // Open Transactions on this connection.
};

// Rolls back unless Commit() was called. Nests as savepoints: the outermost
// Transaction on a Database begins it; inner ones are savepoints, so one failed
// mutation can be undone without losing the rest of a batch.
class Transaction {
 public:
  // `durability` applies to the outermost transaction only: a savepoint
  // commits with its enclosing transaction.
  explicit Transaction(Database& db, Durability durability = Durability::kFull);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // Check once after construction: BEGIN itself can fail (busy, closed).
  const Status& status() const { return begin_status_; }
  Status Commit();

 private:
  void RollbackToSavepoint();

  Database& db_;
  Status begin_status_;
  std::string savepoint_;  // Empty for the outermost transaction.
  bool done_ = false;
};

// Runs fn(db) in a Transaction and commits it if fn succeeded, so a write is
// all or nothing. Returns fn's Status or Result, or the Status of a BEGIN or
// COMMIT that failed; whatever fails rolls back.
template <typename Fn>
std::invoke_result_t<Fn&, Database&> RunInTransaction(Database& db, Fn&& fn,
                                                      Durability durability = Durability::kFull) {
  Transaction txn(db, durability);
  if (!txn.status().ok()) return txn.status();
  std::invoke_result_t<Fn&, Database&> result = fn(db);
  if (!result.ok()) return result;
  if (Status committed = txn.Commit(); !committed.ok()) return committed;
  return result;
}

}  // namespace ensemble::core::store

#endif  // ENSEMBLE_CORE_STORE_DATABASE_H_
