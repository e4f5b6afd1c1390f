#include "core/sync/server_sync.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/sync/row_codec.h"

namespace ensemble::core::sync {

using nlohmann::json;
using store::Value;

namespace {

Status Invalid(std::string message) { return Status(codes::kInvalidArgument, std::move(message)); }

bool IsIdString(const json& j) {
  if (!j.is_string()) return false;
  const auto& s = j.get_ref<const std::string&>();
  return !s.empty() && s.size() <= kMaxClientIdChars;
}

// Locks the client's row (so concurrent pushes from one client serialize, also
// across server processes) and returns its last mutation id.
Result<int64_t> LockClient(store::Database& db, const std::string& client_id,
                           const std::string& group_id) {
  ENSEMBLE_RETURN_IF_ERROR(db.Exec(
      "INSERT INTO sync_clients (client_id, client_group_id, last_mutation_id, updated_at)"
      " VALUES ($1, $2, 0, 0) ON CONFLICT (client_id) DO NOTHING",
      {Value(client_id), Value(group_id)}));
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("UPDATE sync_clients SET updated_at = updated_at WHERE client_id = $1"
               " RETURNING last_mutation_id, client_group_id",
               {Value(client_id)}));
  if (rows.empty()) return Status(codes::kInternal, "client row vanished");
  if (store::AsText(rows.rows[0][1]) != group_id) {
    return Invalid("clientId belongs to another client group");
  }
  return store::AsInt(rows.rows[0][0]);
}

Result<int64_t> NextServerVersion(store::Database& db) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("UPDATE sync_state SET int_value = int_value + 1 WHERE key = 'server_version'"
               " RETURNING int_value"));
  if (rows.empty()) return Status(codes::kInternal, "server_version is missing");
  return store::AsInt(rows.rows[0][0]);
}

// A mutator that throws has a bug; the mutation is rejected (and its
// savepoint rolled back) rather than failing the batch, which would block the
// client's queue behind it forever.
Status RunMutator(const Mutator& mutator, MutationContext& ctx, const json& args) {
  try {
    return mutator(ctx, args);
  } catch (const std::exception& e) {
    return Status(codes::kInternal, std::string("the mutation failed: ") + e.what());
  }
}

}  // namespace

Status ServerSync::ValidatePush(const json& request) const {
  if (!request.is_object()) return Invalid("the push body must be a JSON object");
  if (!request.contains("clientGroupId") || !IsIdString(request["clientGroupId"])) {
    return Invalid("clientGroupId must be a non-empty string of at most 64 characters");
  }
  if (!request.contains("clientId") || !IsIdString(request["clientId"])) {
    return Invalid("clientId must be a non-empty string of at most 64 characters");
  }
  if (!request.contains("mutations") || !request["mutations"].is_array()) {
    return Invalid("mutations must be an array");
  }
  const json& mutations = request["mutations"];
  if (mutations.size() > kMaxPushMutations) {
    return Invalid("a push holds at most " + std::to_string(kMaxPushMutations) + " mutations");
  }
  int64_t previous = 0;
  for (size_t i = 0; i < mutations.size(); ++i) {
    const json& m = mutations[i];
    std::string where = "mutations[" + std::to_string(i) + "]";
    if (!m.is_object()) return Invalid(where + " must be an object");
    if (!m.contains("id") || !m["id"].is_number_integer() || m["id"].get<int64_t>() < 1) {
      return Invalid(where + ".id must be a positive integer");
    }
    if (m["id"].get<int64_t>() <= previous) return Invalid(where + ".id must increase");
    previous = m["id"].get<int64_t>();
    if (!m.contains("name") || !m["name"].is_string()) return Invalid(where + ".name must be a string");
    if (!config_.mutators->Find(m["name"].get<std::string>())) {
      return Status(codes::kUnknownMutation,
                    where + ": no mutation called '" + m["name"].get<std::string>() + "'");
    }
    if (!m.contains("args") || !m["args"].is_object()) return Invalid(where + ".args must be an object");
    if (!m.contains("clientTime") || !m["clientTime"].is_number_integer()) {
      return Invalid(where + ".clientTime must be an integer (ms since the epoch)");
    }
  }
  return Status::Ok();
}

Result<json> ServerSync::Push(store::Database& db, const json& request) {
  ENSEMBLE_RETURN_IF_ERROR(ValidatePush(request));
  const std::string client_id = request["clientId"].get<std::string>();
  store::Transaction txn(db);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t last,
                            LockClient(db, client_id, request["clientGroupId"].get<std::string>()));

  json results = json::array();
  for (const json& m : request["mutations"]) {
    int64_t id = m["id"].get<int64_t>();
    if (id <= last) {
      results.push_back({{"id", id}, {"status", "skipped"}});
      continue;
    }
    if (id > last + 1) {
      results.push_back({{"id", id},
                         {"status", "refused"},
                         {"code", codes::kMutationFromFuture},
                         {"message", "mutation " + std::to_string(id) + " arrived before mutation " +
                                         std::to_string(last + 1)}});
      continue;
    }
    store::Transaction one(db);  // A savepoint: a failure undoes only this mutation.
    ENSEMBLE_RETURN_IF_ERROR(one.status());
    ENSEMBLE_ASSIGN_OR_RETURN(int64_t version, NextServerVersion(db));
    MutationContext ctx(db, m["clientTime"].get<int64_t>());
    Status st = RunMutator(*config_.mutators->Find(m["name"].get<std::string>()), ctx, m["args"]);
    if (st.ok()) {
      for (const auto& [kind, record_id] : ctx.written()) {
        const SyncedTable* table = config_.FindKind(kind);
        if (!table) return Status(codes::kInternal, "kind '" + kind + "' does not sync");
        ENSEMBLE_RETURN_IF_ERROR(db.Exec(
            "UPDATE " + std::string(table->table) + " SET row_version = $1 WHERE id = $2",
            {Value(version), Value(record_id)}));
      }
      ENSEMBLE_RETURN_IF_ERROR(one.Commit());
      results.push_back({{"id", id}, {"status", "applied"}});
    } else {
      // The store failing is not the mutation's fault: fail the batch so the
      // client retries it, rather than consuming the mutation.
      if (st.code() == codes::kStorage) return st;
      json r = {{"id", id}, {"status", "rejected"}, {"code", st.code()}, {"message", st.message()}};
      if (!ctx.details().is_null()) r["details"] = ctx.details();
      results.push_back(std::move(r));
    }
    last = id;  // Applied or rejected, it is consumed exactly once.
  }
  ENSEMBLE_RETURN_IF_ERROR(
      db.Exec("UPDATE sync_clients SET last_mutation_id = $2 WHERE client_id = $1",
              {Value(client_id), Value(last)}));
  ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
  return json{{"lastMutationId", last}, {"results", std::move(results)}};
}

Result<json> ServerSync::Pull(store::Database& db, const std::string& client_id, int64_t cursor) {
  if (client_id.empty() || client_id.size() > kMaxClientIdChars) {
    return Invalid("clientId must be a non-empty string of at most 64 characters");
  }
  if (cursor < 0) return Invalid("cursor must not be negative");
  // One transaction: the rows, the cursor and the last mutation id must agree.
  store::Transaction txn(db);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows version_rows,
      db.Query("SELECT int_value FROM sync_state WHERE key = 'server_version'"));
  int64_t server_version = version_rows.empty() ? 0 : store::AsInt(version_rows.rows[0][0]);
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows client_rows,
      db.Query("SELECT last_mutation_id FROM sync_clients WHERE client_id = $1", {Value(client_id)}));
  int64_t last = client_rows.empty() ? 0 : store::AsInt(client_rows.rows[0][0]);

  struct Change {
    int64_t version;
    std::string_view kind;
    json row;
  };
  std::vector<Change> changes;
  for (const SyncedTable& table : config_.tables) {
    ENSEMBLE_ASSIGN_OR_RETURN(
        store::Rows rows,
        db.Query("SELECT * FROM " + std::string(table.table) +
                     " WHERE row_version > $1 ORDER BY row_version LIMIT $2",
                 {Value(cursor), Value(static_cast<int64_t>(kMaxPullRows + 1))}));
    for (size_t i = 0; i < rows.size(); ++i) {
      json row = RowToJson(rows, i);
      int64_t v = row["row_version"].get<int64_t>();
      changes.push_back({v, table.kind, std::move(row)});
    }
  }
  std::stable_sort(changes.begin(), changes.end(),
                   [](const Change& a, const Change& b) { return a.version < b.version; });
  bool more = changes.size() > kMaxPullRows;
  int64_t next_cursor = server_version;
  if (more) {
    // Cut at a whole change version so no row of it is skipped next time. One
    // change writing more than kMaxPullRows rows would not fit a page; no
    // mutator writes that many (a change log replaces this scan in v1).
    int64_t cut = changes[kMaxPullRows].version;
    while (!changes.empty() && changes.back().version >= cut) changes.pop_back();
    next_cursor = cut - 1;
  }
  json out_changes = json::array();
  for (auto& c : changes) out_changes.push_back({{"kind", c.kind}, {"row", std::move(c.row)}});
  ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
  return json{{"cursor", next_cursor},
              {"lastMutationId", last},
              {"changes", std::move(out_changes)},
              {"more", more}};
}

}  // namespace ensemble::core::sync
