#include "core/sync/client_replica.h"

#include <algorithm>
#include <string>

#include "core/base/id.h"
#include "core/sync/row_codec.h"
#include "core/sync/sync_state.h"

namespace ensemble::core::sync {

using nlohmann::json;
using store::Value;

namespace {
constexpr std::string_view kClientIdKey = "client_id";
constexpr std::string_view kClientGroupIdKey = "client_group_id";
constexpr std::string_view kNextMutationKey = "next_mutation_id";
constexpr std::string_view kCursorKey = "cursor";
// The server's lastMutationId from the latest push response: mutations up to
// it need not be sent again, though they stay queued until a pull confirms
// their rows (the rebase still needs them).
constexpr std::string_view kPushAcknowledgedKey = "push_acknowledged";
// Set while reset pages arrive: the compaction floor the reset began at. The
// first reset page replaces the copy; the following ones add to it.
constexpr std::string_view kResetFloorKey = "reset_floor";

Status BadResponse(std::string what) {
  return Status(codes::kInvalidArgument, "unexpected server response: " + std::move(what));
}
}  // namespace

Result<std::unique_ptr<ClientReplica>> ClientReplica::Open(store::Database& db, platform::Env env,
                                                           SyncConfig config) {
  std::unique_ptr<ClientReplica> replica(new ClientReplica(db, env, config));
  ENSEMBLE_RETURN_IF_ERROR(replica->Init());
  return replica;
}

Status ClientReplica::Init() {
  store::Transaction txn(db_);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  ENSEMBLE_ASSIGN_OR_RETURN(auto id, GetStateText(db_, kClientIdKey));
  ENSEMBLE_ASSIGN_OR_RETURN(auto group, GetStateText(db_, kClientGroupIdKey));
  if (!id) {
    id = NewId(*env_.clock, *env_.random);
    ENSEMBLE_RETURN_IF_ERROR(SetStateText(db_, kClientIdKey, *id));
  }
  if (!group) {
    group = NewId(*env_.clock, *env_.random);
    ENSEMBLE_RETURN_IF_ERROR(SetStateText(db_, kClientGroupIdKey, *group));
  }
  client_id_ = *id;
  client_group_id_ = *group;
  return txn.Commit();
}

Status ClientReplica::Backup(std::string_view kind, const std::string& id) {
  const SyncedTable* table = config_.FindKind(kind);
  if (!table) return Status(codes::kInternal, "kind '" + std::string(kind) + "' does not sync");
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows have,
                            db_.Query("SELECT 1 FROM sync_backup WHERE kind = $1 AND id = $2",
                                      {Value(std::string(kind)), Value(id)}));
  if (!have.empty()) return Status::Ok();  // The server's copy is already kept.
  ENSEMBLE_ASSIGN_OR_RETURN(auto row, ReadRow(db_, table->table, id));
  return db_.Exec(
      "INSERT INTO sync_backup (kind, id, row_json) VALUES ($1, $2, $3)",
      {Value(std::string(kind)), Value(id), row ? Value(row->dump()) : Value(store::Null{})});
}

Status ClientReplica::RunLocally(std::string_view name, const json& args, int64_t client_time) {
  const Mutator* mutator = config_.mutators->Find(name);
  if (!mutator) {
    return Status(codes::kUnknownMutation, "no mutation called '" + std::string(name) + "'");
  }
  MutationContext ctx(db_, client_time, [this](std::string_view kind, const std::string& id) {
    return Backup(kind, id);
  });
  ENSEMBLE_RETURN_IF_ERROR((*mutator)(ctx, args));
  return NoteWrites(config_, ctx);
}

Result<int64_t> ClientReplica::Mutate(std::string_view name, const json& args) {
  store::Transaction txn(db_);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  int64_t now = env_.clock->NowMillis();
  ENSEMBLE_RETURN_IF_ERROR(RunLocally(name, args, now));
  ENSEMBLE_ASSIGN_OR_RETURN(auto next, GetStateInt(db_, kNextMutationKey));
  int64_t id = next.value_or(1);
  ENSEMBLE_RETURN_IF_ERROR(db_.Exec(
      "INSERT INTO sync_outbox (mutation_id, name, args, client_time) VALUES ($1, $2, $3, $4)",
      {Value(id), Value(std::string(name)), Value(args.dump()), Value(now)}));
  ENSEMBLE_RETURN_IF_ERROR(SetStateInt(db_, kNextMutationKey, id + 1));
  ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
  return id;
}

Result<json> ClientReplica::Outbox() { return OutboxAfter(0, -1); }

Result<json> ClientReplica::OutboxAfter(int64_t after, int64_t limit) {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            db_.Query("SELECT mutation_id, name, args, client_time FROM sync_outbox"
                                      " WHERE mutation_id > $1 ORDER BY mutation_id LIMIT $2",
                                      {Value(after), Value(limit)}));
  json out = json::array();
  for (const auto& r : rows.rows) {
    json args = json::parse(store::AsText(r[2]), nullptr, /*allow_exceptions=*/false);
    out.push_back({{"id", store::AsInt(r[0])},
                   {"name", store::AsText(r[1])},
                   {"args", std::move(args)},
                   {"clientTime", store::AsInt(r[3])}});
  }
  return out;
}

Result<json> ClientReplica::PushRequest() {
  ENSEMBLE_ASSIGN_OR_RETURN(auto acknowledged, GetStateInt(db_, kPushAcknowledgedKey));
  ENSEMBLE_ASSIGN_OR_RETURN(
      json outbox, OutboxAfter(acknowledged.value_or(0), static_cast<int64_t>(kClientPushBatch)));
  return json{{"clientGroupId", client_group_id_},
              {"clientId", client_id_},
              {"mutations", std::move(outbox)}};
}

Status ClientReplica::ApplyPushResponse(const json& response) {
  if (!response.is_object() || !response.contains("results") || !response["results"].is_array()) {
    return BadResponse("push response has no results");
  }
  if (!response.contains("lastMutationId") || !response["lastMutationId"].is_number_integer()) {
    return BadResponse("push response has no lastMutationId");
  }
  store::Transaction txn(db_);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  ENSEMBLE_ASSIGN_OR_RETURN(auto acknowledged, GetStateInt(db_, kPushAcknowledgedKey));
  ENSEMBLE_RETURN_IF_ERROR(
      SetStateInt(db_, kPushAcknowledgedKey,
                  std::max(acknowledged.value_or(0), response["lastMutationId"].get<int64_t>())));
  ENSEMBLE_RETURN_IF_ERROR(RecordRejections(response["results"]));
  return txn.Commit();
}

Status ClientReplica::RecordRejections(const json& results) {
  for (const json& r : results) {
    if (!r.is_object() || !r.contains("status") || r["status"] != "rejected") continue;
    if (!r.contains("id") || !r["id"].is_number_integer()) return BadResponse("result without id");
    ENSEMBLE_RETURN_IF_ERROR(db_.Exec(
        "INSERT INTO sync_rejections (mutation_id, name, args, code, message, details)"
        " SELECT mutation_id, name, args, $2, $3, $4 FROM sync_outbox WHERE mutation_id = $1"
        " ON CONFLICT (mutation_id) DO NOTHING",
        {Value(r["id"].get<int64_t>()),
         Value(r.contains("code") && r["code"].is_string() ? r["code"].get<std::string>()
                                                           : std::string(codes::kInternal)),
         Value(r.contains("message") && r["message"].is_string() ? r["message"].get<std::string>()
                                                                 : std::string()),
         r.contains("details") ? Value(r["details"].dump()) : Value(store::Null{})}));
  }
  return Status::Ok();
}

Result<json> ClientReplica::PullRequest() {
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t cursor, Cursor());
  return json{{"clientId", client_id_}, {"cursor", cursor}};
}

Result<bool> ClientReplica::ApplyPull(const json& response) {
  if (!response.is_object()) return BadResponse("pull response is not an object");
  if (!response.contains("cursor") || !response["cursor"].is_number_integer() ||
      !response.contains("lastMutationId") || !response["lastMutationId"].is_number_integer() ||
      !response.contains("changes") || !response["changes"].is_array()) {
    return BadResponse("pull response needs cursor, lastMutationId and changes");
  }
  const bool more =
      response.contains("more") && response["more"].is_boolean() && response["more"].get<bool>();
  const bool reset =
      response.contains("reset") && response["reset"].is_boolean() && response["reset"].get<bool>();
  const int64_t floor = response.contains("floor") && response["floor"].is_number_integer()
                            ? response["floor"].get<int64_t>()
                            : 0;
  ENSEMBLE_ASSIGN_OR_RETURN(auto resetting, GetStateInt(db_, kResetFloorKey));
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t requested, Cursor());
  // A reset replaces the copy once, on its first page, and then needs every
  // live row: from a later cursor it starts over at 0. So does a reset whose
  // floor rose between pages (a compaction: rows of earlier pages may have
  // been deleted, their tombstones gone).
  const bool replace = reset && resetting != floor;
  const bool restart = replace && requested != 0;
  if (more && !replace) {
    ENSEMBLE_RETURN_IF_ERROR(ApplyPage(response));
    return true;
  }

  store::Transaction txn(db_);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());

  // 1. Undo pending local effects: back to the last server state we saw.
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows backups,
                            db_.Query("SELECT kind, id, row_json FROM sync_backup"));
  for (const auto& r : backups.rows) {
    const SyncedTable* table = config_.FindKind(store::AsText(r[0]));
    if (!table) continue;
    if (store::IsNull(r[2])) {
      ENSEMBLE_RETURN_IF_ERROR(DeleteRow(db_, table->table, store::AsText(r[1])));
    } else {
      json row = json::parse(store::AsText(r[2]), nullptr, false);
      ENSEMBLE_RETURN_IF_ERROR(WriteRow(db_, table->table, row));
    }
    ENSEMBLE_RETURN_IF_ERROR(NoteWrite(config_, db_, table->kind, store::AsText(r[1])));
  }
  ENSEMBLE_RETURN_IF_ERROR(db_.Exec("DELETE FROM sync_backup"));

  // 2. The server's changes. Reset pages hold every live row: the server has
  // removed tombstones this replica never saw, so its copy is replaced.
  if (replace) {
    for (const SyncedTable& table : config_.tables) {
      ENSEMBLE_RETURN_IF_ERROR(db_.Exec("DELETE FROM " + std::string(table.table)));
    }
    if (config_.derived.cleared) ENSEMBLE_RETURN_IF_ERROR(config_.derived.cleared(db_));
    ENSEMBLE_RETURN_IF_ERROR(SetStateInt(db_, kResetFloorKey, floor));
  }
  for (const json& change : response["changes"]) {
    ENSEMBLE_ASSIGN_OR_RETURN(const SyncedTable* table, ChangeTable(change));
    if (!table) continue;  // A kind this build does not know yet.
    ENSEMBLE_RETURN_IF_ERROR(WriteRow(db_, table->table, change["row"]));
    ENSEMBLE_RETURN_IF_ERROR(
        NoteWrite(config_, db_, table->kind, change["row"]["id"].get<std::string>()));
  }

  // 3. Verdicts the client may have missed (their push response was lost) are
  // kept before their mutations leave the outbox.
  if (response.contains("rejections") && response["rejections"].is_array()) {
    ENSEMBLE_RETURN_IF_ERROR(RecordRejections(response["rejections"]));
  }
  // Confirmed mutations leave the outbox once every page of their rows has
  // arrived; the cursor advances.
  if (!more && !restart) {
    ENSEMBLE_RETURN_IF_ERROR(db_.Exec("DELETE FROM sync_outbox WHERE mutation_id <= $1",
                                      {Value(response["lastMutationId"].get<int64_t>())}));
    ENSEMBLE_RETURN_IF_ERROR(DeleteState(db_, kResetFloorKey));
  }
  ENSEMBLE_RETURN_IF_ERROR(
      SetStateInt(db_, kCursorKey, restart ? 0 : response["cursor"].get<int64_t>()));

  // 4. Replay what is still pending on top. A mutation that no longer applies
  // stays queued: the server decides, and its rejection comes back in a push.
  ENSEMBLE_ASSIGN_OR_RETURN(json pending, Outbox());
  for (const json& m : pending) {
    store::Transaction one(db_);
    ENSEMBLE_RETURN_IF_ERROR(one.status());
    Status st = RunLocally(m["name"].get<std::string>(), m["args"], m["clientTime"].get<int64_t>());
    if (st.ok()) {
      ENSEMBLE_RETURN_IF_ERROR(one.Commit());
    } else if (st.code() == codes::kStorage) {
      return st;
    } else if (env_.logger) {
      env_.logger->Log(platform::LogLevel::kInfo,
                       "pending mutation " + std::to_string(m["id"].get<int64_t>()) +
                           " no longer applies locally: " + st.ToString());
    }
  }
  ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
  return more || restart;
}

Result<const SyncedTable*> ClientReplica::ChangeTable(const json& change) const {
  if (!change.is_object() || !change.contains("kind") || !change["kind"].is_string() ||
      !change.contains("row") || !change["row"].is_object() || !change["row"].contains("id") ||
      !change["row"]["id"].is_string()) {
    return BadResponse("a change needs kind and a row with an id");
  }
  return config_.FindKind(change["kind"].get<std::string>());
}

Status ClientReplica::ApplyPage(const json& response) {
  store::Transaction txn(db_);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  for (const json& change : response["changes"]) {
    ENSEMBLE_ASSIGN_OR_RETURN(const SyncedTable* table, ChangeTable(change));
    if (!table) continue;
    // A record with pending local effects keeps showing them: the server's
    // row replaces the kept server copy, which the last page's rebase
    // restores before replaying. Any other record takes the row now.
    ENSEMBLE_ASSIGN_OR_RETURN(
        store::Rows kept,
        db_.Query("UPDATE sync_backup SET row_json = $3 WHERE kind = $1 AND id = $2 RETURNING id",
                  {Value(std::string(table->kind)), Value(change["row"]["id"].get<std::string>()),
                   Value(change["row"].dump())}));
    if (kept.empty()) {
      ENSEMBLE_RETURN_IF_ERROR(WriteRow(db_, table->table, change["row"]));
      ENSEMBLE_RETURN_IF_ERROR(
          NoteWrite(config_, db_, table->kind, change["row"]["id"].get<std::string>()));
    }
  }
  if (response.contains("rejections") && response["rejections"].is_array()) {
    ENSEMBLE_RETURN_IF_ERROR(RecordRejections(response["rejections"]));
  }
  ENSEMBLE_RETURN_IF_ERROR(SetStateInt(db_, kCursorKey, response["cursor"].get<int64_t>()));
  return txn.Commit();
}

Result<int64_t> ClientReplica::PendingCount() {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, db_.Query("SELECT COUNT(*) FROM sync_outbox"));
  return store::AsInt(rows.rows[0][0]);
}

Result<json> ClientReplica::Rejections() {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db_.Query("SELECT mutation_id, name, code, message, details, args FROM sync_rejections"
                " ORDER BY mutation_id"));
  json out = json::array();
  for (const auto& r : rows.rows) {
    out.push_back(
        {{"id", store::AsInt(r[0])},
         {"name", store::AsText(r[1])},
         {"args", json::parse(store::AsText(r[5]), nullptr, false)},
         {"code", store::AsText(r[2])},
         {"message", store::AsText(r[3])},
         {"details",
          store::IsNull(r[4]) ? json(nullptr) : json::parse(store::AsText(r[4]), nullptr, false)}});
  }
  return out;
}

Status ClientReplica::DismissRejection(int64_t mutation_id) {
  return db_.Exec("DELETE FROM sync_rejections WHERE mutation_id = $1", {Value(mutation_id)});
}

Result<int64_t> ClientReplica::Cursor() {
  ENSEMBLE_ASSIGN_OR_RETURN(auto cursor, GetStateInt(db_, kCursorKey));
  return cursor.value_or(0);
}

}  // namespace ensemble::core::sync
