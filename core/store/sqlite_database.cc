#include "core/store/sqlite_database.h"

#include <sqlite3.h>

#include <cstdlib>
#include <string>

namespace ensemble::core::store {

Result<std::unique_ptr<SqliteDatabase>> SqliteDatabase::Open(const std::string& path,
                                                             const std::string& vfs) {
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                           vfs.empty() ? nullptr : vfs.c_str());
  if (rc != SQLITE_OK) {
    std::string msg = raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc);
    sqlite3_close(raw);
    return Status(codes::kStorage, "cannot open database '" + path + "': " + msg);
  }
  sqlite3_busy_timeout(raw, kSqliteBusyTimeoutMs);
  sqlite3_extended_result_codes(raw, 1);
  auto db = std::unique_ptr<SqliteDatabase>(new SqliteDatabase(raw));
  sqlite3_wal_hook(raw, &SqliteDatabase::OnWalCommit, db.get());
  // Temporary tables and statement journals in memory: every mutation of a
  // push runs in a savepoint, whose journal otherwise copies each page it
  // first changes to a temporary file (the search index's inserts touch many;
  // tools/bench context measured pushes 3x slower on disk).
  ENSEMBLE_RETURN_IF_ERROR(db->ExecScript("PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY;"));
  return db;
}

SqliteDatabase::~SqliteDatabase() {
  for (auto& [sql, prepared] : cache_) sqlite3_finalize(prepared.stmt);
  sqlite3_close(db_);
}

Status SqliteDatabase::CopyInto(SqliteDatabase& dest) const {
  // Statements cached on dest would keep reading its old schema.
  for (auto& [sql, prepared] : dest.cache_) sqlite3_finalize(prepared.stmt);
  dest.cache_.clear();
  sqlite3_backup* backup = sqlite3_backup_init(dest.db_, "main", db_, "main");
  if (!backup) return dest.Error("copy failed");
  int rc = sqlite3_backup_step(backup, -1);
  sqlite3_backup_finish(backup);
  if (rc != SQLITE_DONE) return dest.Error("copy failed");
  return Status::Ok();
}

int SqliteDatabase::OnWalCommit(void* self, sqlite3* db, const char* name, int frames) {
  auto* database = static_cast<SqliteDatabase*>(self);
  if (frames < kSqliteCheckpointFrames) return SQLITE_OK;
  if (database->defer_checkpoints_) {
    database->checkpoint_due_ = true;
    return SQLITE_OK;
  }
  // As SQLite's own hook: a checkpoint that cannot finish now (a reader in
  // the way) is not the commit's failure; a later one copies the rest.
  sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
  database->checkpoint_due_ = false;
  return SQLITE_OK;
}

Status SqliteDatabase::Checkpoint() {
  checkpoint_due_ = false;
  if (sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr) !=
      SQLITE_OK) {
    return Error("checkpoint failed");
  }
  return Status::Ok();
}

Status SqliteDatabase::Error(std::string_view what) const {
  return Status(codes::kStorage, std::string(what) + ": " + sqlite3_errmsg(db_));
}

Result<const SqliteDatabase::Prepared*> SqliteDatabase::Prepare(std::string_view sql) {
  std::string key(sql);
  if (auto it = cache_.find(key); it != cache_.end()) return &it->second;
  Prepared prepared{nullptr, {}};
  if (sqlite3_prepare_v3(db_, key.data(), static_cast<int>(key.size()), SQLITE_PREPARE_PERSISTENT,
                         &prepared.stmt, nullptr) != SQLITE_OK) {
    return Error("prepare failed");
  }
  for (int i = 1, n = sqlite3_bind_parameter_count(prepared.stmt); i <= n; ++i) {
    const char* name = sqlite3_bind_parameter_name(prepared.stmt, i);
    if (name == nullptr || name[0] != '$') continue;
    const std::size_t number = std::strtoul(name + 1, nullptr, 10);
    if (number == 0) continue;
    if (prepared.index_of.size() < number) prepared.index_of.resize(number, 0);
    prepared.index_of[number - 1] = i;
  }
  return &cache_.emplace(std::move(key), std::move(prepared)).first->second;
}

namespace {

// Puts a statement back for its next use, whatever way its run ended.
struct ResetOnExit {
  sqlite3_stmt* stmt;
  ~ResetOnExit() {
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
  }
};

// A row of a running statement seen through RowView.
class StatementRow final : public RowView {
 public:
  explicit StatementRow(sqlite3_stmt* stmt) : stmt_(stmt) {}
  bool IsNull(int column) const override {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
  }
  int64_t Int(int column) const override { return sqlite3_column_int64(stmt_, column); }
  std::string_view Text(int column) const override {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    if (text == nullptr) return {};
    return {text, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))};
  }

 private:
  sqlite3_stmt* stmt_;
};

}  // namespace

Status SqliteDatabase::Bind(const Prepared& prepared, const std::vector<Value>& params) {
  sqlite3_stmt* stmt = prepared.stmt;
  for (size_t i = 0; i < params.size() && i < prepared.index_of.size(); ++i) {
    const int idx = prepared.index_of[i];
    if (idx == 0) continue;  // Parameter not used by this statement.
    int rc = SQLITE_OK;
    const Value& v = params[i];
    if (const auto* n = std::get_if<int64_t>(&v)) {
      rc = sqlite3_bind_int64(stmt, idx, *n);
    } else if (const auto* d = std::get_if<double>(&v)) {
      rc = sqlite3_bind_double(stmt, idx, *d);
    } else if (const auto* s = std::get_if<std::string>(&v)) {
      rc = sqlite3_bind_text(stmt, idx, s->data(), static_cast<int>(s->size()), SQLITE_TRANSIENT);
    } else {
      rc = sqlite3_bind_null(stmt, idx);
    }
    if (rc != SQLITE_OK) return Error("bind failed");
  }
  return Status::Ok();
}

Status SqliteDatabase::ForEachRow(std::string_view sql, const std::vector<Value>& params,
                                  const std::function<Status(const RowView&)>& visit) {
  ENSEMBLE_ASSIGN_OR_RETURN(const Prepared* prepared, Prepare(sql));
  sqlite3_stmt* stmt = prepared->stmt;
  ResetOnExit reset{stmt};
  ENSEMBLE_RETURN_IF_ERROR(Bind(*prepared, params));
  const StatementRow row(stmt);
  for (;;) {
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) return Status::Ok();
    if (rc != SQLITE_ROW) return Error("statement failed");
    ENSEMBLE_RETURN_IF_ERROR(visit(row));
  }
}

Result<Rows> SqliteDatabase::Query(std::string_view sql, const std::vector<Value>& params) {
  ENSEMBLE_ASSIGN_OR_RETURN(const Prepared* prepared, Prepare(sql));
  sqlite3_stmt* stmt = prepared->stmt;
  ResetOnExit reset{stmt};
  ENSEMBLE_RETURN_IF_ERROR(Bind(*prepared, params));

  Rows out;
  int ncol = sqlite3_column_count(stmt);
  out.columns.reserve(ncol);
  for (int c = 0; c < ncol; ++c) out.columns.emplace_back(sqlite3_column_name(stmt, c));
  for (;;) {
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) return Error("statement failed");
    std::vector<Value>& row = out.rows.emplace_back();
    row.reserve(ncol);
    for (int c = 0; c < ncol; ++c) {
      switch (sqlite3_column_type(stmt, c)) {
        case SQLITE_INTEGER:
          row.emplace_back(static_cast<int64_t>(sqlite3_column_int64(stmt, c)));
          break;
        case SQLITE_FLOAT:
          row.emplace_back(sqlite3_column_double(stmt, c));
          break;
        case SQLITE_NULL:
          row.emplace_back(Null{});
          break;
        default: {
          const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
          row.emplace_back(std::string(text, sqlite3_column_bytes(stmt, c)));
        }
      }
    }
  }
  return out;
}

Status SqliteDatabase::ExecScript(std::string_view sql) {
  std::string text(sql);
  char* err = nullptr;
  if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    Status st(codes::kStorage, std::string("statement failed: ") + (err ? err : "unknown"));
    sqlite3_free(err);
    return st;
  }
  return Status::Ok();
}

Status SqliteDatabase::Begin(Durability durability) {
  if (durability == Durability::kRelaxed) {
    ENSEMBLE_ASSIGN_OR_RETURN(Rows level, Query("PRAGMA synchronous"));
    const int64_t from = level.rows.empty() ? 2 : AsInt(level.rows[0][0]);
    // NORMAL (1) already waits for no commit in WAL mode; OFF stays OFF.
    if (from > 1) {
      ENSEMBLE_RETURN_IF_ERROR(ExecScript("PRAGMA synchronous = NORMAL"));
      relaxed_from_ = static_cast<int>(from);
    }
  }
  Status begun = ExecScript("BEGIN IMMEDIATE");
  if (!begun.ok()) EndRelaxed();
  return begun;
}

Status SqliteDatabase::Commit() {
  Status committed = ExecScript("COMMIT");
  EndRelaxed();
  return committed;
}

Status SqliteDatabase::Rollback() {
  Status rolled_back = ExecScript("ROLLBACK");
  EndRelaxed();
  return rolled_back;
}

void SqliteDatabase::EndRelaxed() {
  if (relaxed_from_ < 0) return;
  // Cannot fail outside a transaction with a valid level; a failed COMMIT
  // above may leave one open, and then the ROLLBACK that follows retries.
  if (ExecScript("PRAGMA synchronous = " + std::to_string(relaxed_from_)).ok()) relaxed_from_ = -1;
}

}  // namespace ensemble::core::store
