// SqliteDatabase: the Database interface over one SQLite connection. Used by
// the browser replica (through the wasm module, on its OPFS VFS) and by the
// server's embedded store.
//
// Thread-safety: one connection; use from one thread at a time.

#ifndef ENSEMBLE_CORE_STORE_SQLITE_DATABASE_H_
#define ENSEMBLE_CORE_STORE_SQLITE_DATABASE_H_

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/store/database.h"

struct sqlite3;
struct sqlite3_stmt;

namespace ensemble::core::store {

// How long a writer waits for another connection's lock before failing.
inline constexpr int kSqliteBusyTimeoutMs = 5000;
// Write-ahead log frames (pages) past which a commit checkpoints: SQLite's
// own default.
inline constexpr int kSqliteCheckpointFrames = 1000;

class SqliteDatabase final : public Database {
 public:
  // Opens (creating if needed) the database at `path`; ":memory:" for a
  // private in-memory one. `vfs` names a registered SQLite VFS, or empty for
  // the default.
  static Result<std::unique_ptr<SqliteDatabase>> Open(const std::string& path,
                                                      const std::string& vfs = "");
  ~SqliteDatabase() override;

  Dialect dialect() const override { return Dialect::kSqlite; }
  Result<Rows> Query(std::string_view sql, const std::vector<Value>& params = {}) override;
  Status ForEachRow(std::string_view sql, const std::vector<Value>& params,
                    const std::function<Status(const RowView&)>& visit) override;
  Status ExecScript(std::string_view sql) override;
  Status Begin(Durability durability) override;
  Status Commit() override;
  Status Rollback() override;

  // Replaces everything in `dest` with a copy of this database (SQLite's
  // online backup), so one migrated database can seed many. Neither may be
  // inside a transaction.
  Status CopyInto(SqliteDatabase& dest) const;

  // In WAL mode a commit that takes the log past kSqliteCheckpointFrames
  // checkpoints: copies the log into the database and waits for the disk.
  // While deferred it does not; checkpoint_due() turns true instead, and
  // running Checkpoint() later (on another thread's turn) is the caller's.
  void set_defer_checkpoints(bool defer) { defer_checkpoints_ = defer; }
  bool checkpoint_due() const { return checkpoint_due_; }
  // Copies what it can of the log into the database now, without waiting
  // for readers (a PASSIVE checkpoint), and clears checkpoint_due().
  Status Checkpoint();

 private:
  explicit SqliteDatabase(sqlite3* db) : db_(db) {}
  Status Error(std::string_view what) const;
  // A prepared statement, and the SQLite index of each of its "$n" by n - 1
  // (0: not used): sqlite3_bind_parameter_index scans the names, so binding
  // a bulk insert's hundreds by name cost the square of their count.
  struct Prepared {
    sqlite3_stmt* stmt;
    std::vector<int> index_of;
  };
  Result<const Prepared*> Prepare(std::string_view sql);
  // Binds $1..$n of `params` that the statement uses.
  Status Bind(const Prepared& prepared, const std::vector<Value>& params);
  // Puts back the synchronous level a relaxed transaction changed.
  void EndRelaxed();
  // sqlite3_wal_hook's callback (in place of SQLite's own, which it
  // replaces): checkpoints past kSqliteCheckpointFrames unless deferred.
  static int OnWalCommit(void* self, sqlite3* db, const char* name, int frames);

  sqlite3* db_;
  // Prepared statements reused by SQL text: mutators run the same few
  // statements many times.
  std::unordered_map<std::string, Prepared> cache_;
  // The connection's PRAGMA synchronous level while a kRelaxed transaction
  // runs at NORMAL (SQLite refuses the change inside a transaction, so it is
  // made around one); -1 otherwise.
  int relaxed_from_ = -1;
  bool defer_checkpoints_ = false;
  bool checkpoint_due_ = false;
};

}  // namespace ensemble::core::store

#endif  // ENSEMBLE_CORE_STORE_SQLITE_DATABASE_H_
