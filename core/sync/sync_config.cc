#include "core/sync/sync_config.h"

#include <algorithm>

namespace ensemble::core::sync {

Status NoteWrites(const SyncConfig& config, MutationContext& ctx) {
  if (!config.derived.records_written) return Status::Ok();
  return config.derived.records_written(ctx.db(), ctx.written());
}

Status NoteWrites(const SyncConfig& config, store::Database& db, WrittenRecords& written) {
  if (!config.derived.records_written) return Status::Ok();
  std::sort(written.begin(), written.end());
  written.erase(std::unique(written.begin(), written.end()), written.end());
  return config.derived.records_written(db, written);
}

Status NoteWrite(const SyncConfig& config, store::Database& db, std::string_view kind,
                 const std::string& id) {
  if (!config.derived.records_written) return Status::Ok();
  const std::pair<std::string, std::string> record(kind, id);
  return config.derived.records_written(db, std::span(&record, 1));
}

const store::Migration kCreateSyncTables = {
    2, "create sync tables",
    // Named integer and text values: the server's change counter; a client's
    // id, cursor and next mutation id.
    "CREATE TABLE sync_state (key TEXT PRIMARY KEY, int_value BIGINT, text_value TEXT);"
    "INSERT INTO sync_state (key, int_value) VALUES ('server_version', 0);"
    // Server: the last mutation applied for each client (exactly once).
    "CREATE TABLE sync_clients ("
    " client_id TEXT PRIMARY KEY, client_group_id TEXT NOT NULL,"
    " last_mutation_id BIGINT NOT NULL, updated_at BIGINT NOT NULL);"
    // Client: mutations run locally and not yet confirmed by a pull.
    "CREATE TABLE sync_outbox ("
    " mutation_id BIGINT PRIMARY KEY, name TEXT NOT NULL, args TEXT NOT NULL,"
    " client_time BIGINT NOT NULL);"
    // Client: the server's copy of each record a pending mutation changed
    // (row_json NULL: it did not exist), restored before a rebase.
    "CREATE TABLE sync_backup ("
    " kind TEXT NOT NULL, id TEXT NOT NULL, row_json TEXT, PRIMARY KEY (kind, id));"
    // Client: mutations the server refused, kept for the person to see.
    "CREATE TABLE sync_rejections ("
    " mutation_id BIGINT PRIMARY KEY, name TEXT NOT NULL, args TEXT NOT NULL,"
    " code TEXT NOT NULL, message TEXT NOT NULL, details TEXT);"};

const store::Migration kCreateSyncVerdicts = {
    8, "create sync verdicts",
    "CREATE TABLE sync_verdicts ("
    " client_id TEXT NOT NULL, mutation_id BIGINT NOT NULL, code TEXT NOT NULL,"
    " message TEXT NOT NULL, details TEXT, PRIMARY KEY (client_id, mutation_id));"};

const store::Migration kAddSyncClientAccounts = {
    13, "add sync client accounts",
    // The account a client belongs to (NULL: the single local person, or a
    // client from before accounts): see LockClient in server_sync.cc.
    "ALTER TABLE sync_clients ADD COLUMN account_id TEXT"};

}  // namespace ensemble::core::sync
