#include "core/sync/server_sync.h"

#include <algorithm>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "core/sync/authorization.h"
#include "core/sync/row_codec.h"
#include "core/sync/space_records.h"
#include "core/sync/sync_state.h"

namespace ensemble::core::sync {

using nlohmann::json;
using store::Value;

namespace {

bool IsIdString(const json& j) {
  if (!j.is_string()) return false;
  const auto& s = j.get_ref<const std::string&>();
  return !s.empty() && s.size() <= kMaxClientIdChars;
}

Status NotYourClient() { return Status(codes::kForbidden, "clientId belongs to another account"); }

// Locks the client's row (so concurrent pushes from one client serialize, also
// across server processes), creating it on first contact, and returns its
// last mutation id. One statement: the upsert's no-op update takes the lock.
// A client belongs to the account that first pushed as it (a row from before
// accounts is claimed by the next one); another account's push is refused,
// so no one can consume or skip someone else's mutation ids. A trusted push
// (null account: the single local person) checks no owner.
Result<int64_t> LockClient(store::Database& db, const std::string& client_id,
                           const std::string& group_id, const std::string* account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("INSERT INTO sync_clients"
               " (client_id, client_group_id, last_mutation_id, updated_at, account_id)"
               " VALUES ($1, $2, 0, 0, $3) ON CONFLICT (client_id)"
               " DO UPDATE SET account_id = COALESCE(sync_clients.account_id, excluded.account_id)"
               " RETURNING last_mutation_id, client_group_id, account_id",
               {Value(client_id), Value(group_id),
                account_id ? Value(*account_id) : Value(store::Null{})}));
  if (rows.empty()) return Status(codes::kInternal, "client row vanished");
  if (account_id && store::AsText(rows.rows[0][2]) != *account_id) return NotYourClient();
  if (store::AsText(rows.rows[0][1]) != group_id) {
    return InvalidArgument("clientId belongs to another client group");
  }
  return store::AsInt(rows.rows[0][0]);
}

constexpr std::string_view kServerVersionKey = "server_version";
// Cursors below it may have missed removed tombstones; see Compact().
constexpr std::string_view kMinCursorKey = "min_cursor";

// How many mutations of a validated push would be applied or rejected (not
// skipped or refused): the run of ids from last + 1 on.
int64_t ConsumableCount(const json& mutations, int64_t last) {
  int64_t expected = last + 1;
  for (const json& m : mutations) {
    if (m["id"].get<int64_t>() == expected) ++expected;
  }
  return expected - last - 1;
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

// The rejections recorded for this client's consumed mutations with ids in
// [first, last], by id, each as its push result again. One query, however
// many a re-sent batch or a pull needs.
Result<std::map<int64_t, json>> StoredVerdicts(store::Database& db, const std::string& client_id,
                                               int64_t first, int64_t last) {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            db.Query("SELECT mutation_id, code, message, details FROM sync_verdicts"
                                     " WHERE client_id = $1 AND mutation_id BETWEEN $2 AND $3",
                                     {Value(client_id), Value(first), Value(last)}));
  std::map<int64_t, json> out;
  for (const auto& r : rows.rows) {
    int64_t id = store::AsInt(r[0]);
    json verdict = {{"id", id},
                    {"status", "rejected"},
                    {"code", store::AsText(r[1])},
                    {"message", store::AsText(r[2])}};
    if (!store::IsNull(r[3])) verdict["details"] = json::parse(store::AsText(r[3]), nullptr, false);
    out.emplace(id, std::move(verdict));
  }
  return out;
}

}  // namespace

Status ServerSync::ValidatePush(const json& request) const {
  if (!request.is_object()) return InvalidArgument("the push body must be a JSON object");
  if (!request.contains("clientGroupId") || !IsIdString(request["clientGroupId"])) {
    return InvalidArgument("clientGroupId must be a non-empty string of at most 64 characters");
  }
  if (!request.contains("clientId") || !IsIdString(request["clientId"])) {
    return InvalidArgument("clientId must be a non-empty string of at most 64 characters");
  }
  if (!request.contains("mutations") || !request["mutations"].is_array()) {
    return InvalidArgument("mutations must be an array");
  }
  const json& mutations = request["mutations"];
  if (mutations.size() > kMaxPushMutations) {
    return InvalidArgument("a push holds at most " + std::to_string(kMaxPushMutations) +
                           " mutations");
  }
  int64_t previous = 0;
  for (size_t i = 0; i < mutations.size(); ++i) {
    const json& m = mutations[i];
    std::string where = "mutations[" + std::to_string(i) + "]";
    if (!m.is_object()) return InvalidArgument(where + " must be an object");
    if (!m.contains("id") || !m["id"].is_number_integer() || m["id"].get<int64_t>() < 1) {
      return InvalidArgument(where + ".id must be a positive integer");
    }
    if (m["id"].get<int64_t>() <= previous) return InvalidArgument(where + ".id must increase");
    previous = m["id"].get<int64_t>();
    if (!m.contains("name") || !m["name"].is_string())
      return InvalidArgument(where + ".name must be a string");
    if (!config_.mutators->Find(m["name"].get<std::string>())) {
      return Status(codes::kUnknownMutation,
                    where + ": no mutation called '" + m["name"].get<std::string>() + "'");
    }
    if (!m.contains("args") || !m["args"].is_object())
      return InvalidArgument(where + ".args must be an object");
    if (!m.contains("clientTime") || !m["clientTime"].is_number_integer()) {
      return InvalidArgument(where + ".clientTime must be an integer (ms since the epoch)");
    }
  }
  return Status::Ok();
}

Result<json> ServerSync::Push(store::Database& db, const json& request) {
  ENSEMBLE_ASSIGN_OR_RETURN(PushOutcome outcome, Apply(db, request, nullptr));
  return std::move(outcome.response);
}

Result<json> ServerSync::Push(store::Database& db, const json& request,
                              const std::string& account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(PushOutcome outcome, Apply(db, request, &account_id));
  return std::move(outcome.response);
}

Status ServerSync::ApplyOne(store::Database& db, const json& m, const std::string* account_id,
                            int64_t version, BatchRecordCounts& counts, Status& verdict,
                            json& details, WrittenRecords& written) {
  const int64_t client_time = m["clientTime"].get<int64_t>();
  if (clock_) {
    const int64_t ahead = client_time - clock_->NowMillis();
    if (ahead > kMaxClientTimeAheadMs) {
      verdict = Status(codes::kClientClockAhead,
                       "this device's clock is " + std::to_string(ahead / (60 * 60 * 1000)) +
                           " hours ahead of the server's, so the change was not saved: set the "
                           "device's date and time right, then make it again");
      return Status::Ok();
    }
  }
  store::Transaction one(db);  // A savepoint: a failure undoes only this mutation.
  ENSEMBLE_RETURN_IF_ERROR(one.status());
  MutationContext ctx(db, client_time, nullptr, version);
  ctx.set_record_counter(&counts);
  const std::string& name = m["name"].get_ref<const std::string&>();
  Status st =
      account_id ? AuthorizeMutation(db, config_, *account_id, name, m["args"]) : Status::Ok();
  if (st.ok()) st = RunMutator(*config_.mutators->Find(name), ctx, m["args"]);
  if (st.ok() && config_.after_mutation) {
    st = config_.after_mutation(ctx, account_id, name, m["args"]);
  }
  if (!st.ok()) {
    counts.Drop();  // `one` rolls back as it goes out of scope.
    // The store failing is not the mutation's fault: fail the batch so the
    // client retries it, rather than consuming the mutation.
    if (st.code() == codes::kStorage) return st;
    verdict = st;
    details = ctx.details();
    return Status::Ok();
  }
  verdict = Status::Ok();
  written.insert(written.end(), ctx.written().begin(), ctx.written().end());
  Status released = one.Commit();
  if (released.ok()) {
    counts.Keep();
  } else {
    counts.Drop();
  }
  return released;
}

Result<PushOutcome> ServerSync::Apply(store::Database& db, const json& request,
                                      const std::string* account_id) {
  ENSEMBLE_RETURN_IF_ERROR(ValidatePush(request));
  const std::string client_id = request["clientId"].get<std::string>();
  store::Transaction txn(db);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  ENSEMBLE_ASSIGN_OR_RETURN(
      int64_t last,
      LockClient(db, client_id, request["clientGroupId"].get<std::string>(), account_id));

  const json& mutations = request["mutations"];
  if (!mutations.empty()) {
    // The client sends only what it has not seen answered (PushRequest), so
    // verdicts before its first id have reached it.
    ENSEMBLE_RETURN_IF_ERROR(
        db.ExecDeferred("DELETE FROM sync_verdicts WHERE client_id = $1 AND mutation_id < $2",
                        {Value(client_id), Value(mutations[0]["id"].get<int64_t>())}));
  }
  std::map<int64_t, json> verdicts;
  if (!mutations.empty() && mutations[0]["id"].get<int64_t>() <= last) {
    ENSEMBLE_ASSIGN_OR_RETURN(
        verdicts, StoredVerdicts(db, client_id, mutations[0]["id"].get<int64_t>(), last));
  }
  // Versions for every mutation that may apply, in one statement; a rejected
  // one gives its version back below, so applied changes number without gaps.
  const int64_t consumable = ConsumableCount(mutations, last);
  int64_t next_version = 0;
  if (consumable > 0) {
    ENSEMBLE_ASSIGN_OR_RETURN(next_version, ReserveServerVersions(db, consumable));
  }
  const int64_t first_version = next_version;
  const int64_t reserved_end = first_version + consumable;
  BatchRecordCounts counts(config_);
  WrittenRecords records_written;
  json results = json::array();
  for (const json& m : mutations) {
    int64_t id = m["id"].get<int64_t>();
    if (id <= last) {
      auto verdict = verdicts.find(id);
      results.push_back(verdict == verdicts.end() ? json{{"id", id}, {"status", "skipped"}}
                                                  : std::move(verdict->second));
      continue;
    }
    if (id > last + 1) {
      results.push_back({{"id", id},
                         {"status", "refused"},
                         {"code", codes::kMutationFromFuture},
                         {"message", "mutation " + std::to_string(id) +
                                         " arrived before mutation " + std::to_string(last + 1)}});
      continue;
    }
    json details;
    Status st;
    ENSEMBLE_RETURN_IF_ERROR(
        ApplyOne(db, m, account_id, next_version, counts, st, details, records_written));
    if (st.ok()) {
      ++next_version;
      results.push_back({{"id", id}, {"status", "applied"}});
    } else {
      json r = {{"id", id}, {"status", "rejected"}, {"code", st.code()}, {"message", st.message()}};
      if (!details.is_null()) r["details"] = details;
      // Kept (outside the undone savepoint) so a client whose response is lost
      // hears the verdict again: from a re-sent push, or from its next pull.
      ENSEMBLE_RETURN_IF_ERROR(db.ExecDeferred(
          "INSERT INTO sync_verdicts (client_id, mutation_id, code, message, details)"
          " VALUES ($1, $2, $3, $4, $5)",
          {Value(client_id), Value(id), Value(st.code()), Value(st.message()),
           details.is_null() ? Value(store::Null{}) : Value(details.dump())}));
      results.push_back(std::move(r));
    }
    last = id;  // Applied or rejected, it is consumed exactly once.
  }
  if (next_version < reserved_end) {
    ENSEMBLE_RETURN_IF_ERROR(
        db.ExecDeferred("UPDATE sync_state SET int_value = $1 WHERE key = 'server_version'",
                        {Value(next_version - 1)}));
  }
  ENSEMBLE_RETURN_IF_ERROR(
      db.ExecDeferred("UPDATE sync_clients SET last_mutation_id = $2 WHERE client_id = $1",
                      {Value(client_id), Value(last)}));
  ENSEMBLE_RETURN_IF_ERROR(counts.Flush(db));
  ENSEMBLE_RETURN_IF_ERROR(NoteWrites(config_, db, records_written));
  ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
  // Nothing applied: the versions went back, and nobody needs a poke.
  const int64_t written = next_version > first_version ? next_version - 1 : 0;
  return PushOutcome{json{{"lastMutationId", last}, {"results", std::move(results)}}, written,
                     written > 0 ? first_version : 0};
}

Result<PushOutcome> ServerSync::ApplyServerWrites(store::Database& db, const json& mutations,
                                                  const std::string* account_id, int64_t now_ms,
                                                  json* details) {
  if (!mutations.is_array()) return Status(codes::kInvalidArgument, "mutations must be a list");
  for (const json& m : mutations) {
    if (!m.is_object() || !m.contains("name") || !m["name"].is_string() ||
        !config_.mutators->Find(m["name"].get_ref<const std::string&>())) {
      return Status(codes::kUnknownMutation,
                    "no mutation called " + (m.is_object() ? m.value("name", json()).dump() : ""));
    }
  }
  if (mutations.empty()) return PushOutcome{};
  store::Transaction txn(db);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  ENSEMBLE_ASSIGN_OR_RETURN(const int64_t first,
                            ReserveServerVersions(db, static_cast<int64_t>(mutations.size())));
  int64_t version = first;
  BatchRecordCounts counts(config_);
  WrittenRecords records_written;
  for (const json& m : mutations) {
    const json one = {
        {"name", m["name"]}, {"args", m.value("args", json::object())}, {"clientTime", now_ms}};
    json why;
    Status verdict;
    ENSEMBLE_RETURN_IF_ERROR(
        ApplyOne(db, one, account_id, version, counts, verdict, why, records_written));
    if (!verdict.ok()) {
      if (details) *details = std::move(why);
      return verdict;  // `txn` rolls back the writes and the reserved versions.
    }
    ++version;
  }
  ENSEMBLE_RETURN_IF_ERROR(counts.Flush(db));
  ENSEMBLE_RETURN_IF_ERROR(NoteWrites(config_, db, records_written));
  ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
  return PushOutcome{json::object(), version - 1, first};
}

namespace {

struct Change {
  int64_t version;
  std::string_view kind;
  json row;
};

// "All rows" as a LIMIT both dialects accept (PostgreSQL refuses LIMIT -1).
constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max();

// Appends the rows of every synced table that `where` selects (its $1 is
// `bound`), at most `limit` per table (kNoLimit: all), ordered by row_version;
// with an account, only the rows it may read (sync/authorization.h).
Status CollectRows(store::Database& db, std::span<const SyncedTable> tables,
                   const std::string& where, int64_t bound, int64_t limit,
                   const std::string* account_id, std::vector<Change>& out) {
  std::vector<Value> params = {Value(bound), Value(limit)};
  if (account_id) params.emplace_back(*account_id);
  for (const SyncedTable& table : tables) {
    std::string readable;
    if (account_id) {
      readable =
          IsOwnerOnlyKind(table.kind)
              ? " AND space_id IN (SELECT space_id FROM space_members"
                " WHERE account_id = $3 AND role = 'owner')"
              : " AND space_id IN (SELECT space_id FROM space_members WHERE account_id = $3)";
    }
    ENSEMBLE_ASSIGN_OR_RETURN(
        store::Rows rows, db.Query("SELECT * FROM " + std::string(table.table) + " WHERE " + where +
                                       readable + " ORDER BY row_version, id LIMIT $2",
                                   params));
    for (size_t i = 0; i < rows.size(); ++i) {
      json row = RowToJson(rows, i);
      int64_t v = row["row_version"].get<int64_t>();
      out.push_back({v, table.kind, std::move(row)});
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Change& a, const Change& b) { return a.version < b.version; });
  return Status::Ok();
}

Result<bool> AnyRowAfter(store::Database& db, std::span<const SyncedTable> tables,
                         const std::string& filter, int64_t version) {
  for (const SyncedTable& table : tables) {
    ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                              db.Query("SELECT 1 FROM " + std::string(table.table) + " WHERE " +
                                           filter + "row_version > $1 LIMIT 1",
                                       {Value(version)}));
    if (!rows.empty()) return true;
  }
  return false;
}

}  // namespace

Result<json> ServerSync::Pull(store::Database& db, const std::string& client_id, int64_t cursor) {
  return PullAs(db, nullptr, client_id, cursor);
}

Result<json> ServerSync::Pull(store::Database& db, const std::string& account_id,
                              const std::string& client_id, int64_t cursor) {
  return PullAs(db, &account_id, client_id, cursor);
}

Result<json> ServerSync::PullAs(store::Database& db, const std::string* account_id,
                                const std::string& client_id, int64_t cursor) {
  if (client_id.empty() || client_id.size() > kMaxClientIdChars) {
    return InvalidArgument("clientId must be a non-empty string of at most 64 characters");
  }
  if (cursor < 0) return InvalidArgument("cursor must not be negative");
  // One transaction: the rows, the cursor and the last mutation id must agree.
  store::Transaction txn(db);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  ENSEMBLE_ASSIGN_OR_RETURN(auto stored_version, GetStateInt(db, kServerVersionKey));
  const int64_t server_version = stored_version.value_or(0);
  ENSEMBLE_ASSIGN_OR_RETURN(auto min_cursor, GetStateInt(db, kMinCursorKey));
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows client_rows,
      db.Query("SELECT last_mutation_id, account_id FROM sync_clients WHERE client_id = $1",
               {Value(client_id)}));
  int64_t last = client_rows.empty() ? 0 : store::AsInt(client_rows.rows[0][0]);
  // Another account's client: its progress is not this caller's to read. (A
  // row without an owner is from before accounts, or has never pushed.)
  if (account_id && !client_rows.empty() && !store::IsNull(client_rows.rows[0][1]) &&
      store::AsText(client_rows.rows[0][1]) != *account_id) {
    return NotYourClient();
  }

  std::vector<Change> changes;
  int64_t next_cursor = server_version;
  bool more = false;
  // Below the floor, tombstones this client has not seen may be gone
  // (Compact), or the account's access changed since (rows it may now read
  // carry older versions; rows it may no longer read never come as
  // tombstones): the pages hold live rows only, and the client replaces its
  // copy with them. Paged like any pull, since each row comes once, at its
  // latest version.
  int64_t floor = min_cursor.value_or(0);
  if (account_id) {
    ENSEMBLE_ASSIGN_OR_RETURN(int64_t access_changed, AccessChangedAt(db, *account_id));
    floor = std::max(floor, access_changed);
  }
  const bool reset = cursor < floor;
  const std::string filter = reset ? "deleted = 0 AND " : "";
  // Rows the server wrote carry versions from 1; a reset from 0 takes all.
  const int64_t after = reset && cursor == 0 ? -1 : cursor;
  ENSEMBLE_RETURN_IF_ERROR(CollectRows(db, config_.tables, filter + "row_version > $1", after,
                                       static_cast<int64_t>(kMaxPullRows + 1), account_id,
                                       changes));
  if (changes.size() > kMaxPullRows) {
    more = true;
    // Cut at a whole change version so no row of it is skipped next time.
    const int64_t cut = changes[kMaxPullRows].version;
    if (changes.front().version < cut) {
      while (changes.back().version >= cut) changes.pop_back();
      next_cursor = cut - 1;
    } else {
      // One change wrote more rows than a page holds: the page grows to all
      // of them rather than coming back empty (which would never advance).
      changes.clear();
      ENSEMBLE_RETURN_IF_ERROR(CollectRows(db, config_.tables, filter + "row_version = $1", cut,
                                           kNoLimit, account_id, changes));
      next_cursor = cut;
      ENSEMBLE_ASSIGN_OR_RETURN(more, AnyRowAfter(db, config_.tables, filter, cut));
      if (!more) next_cursor = server_version;
    }
  }
  json out_changes = json::array();
  for (auto& c : changes) out_changes.push_back({{"kind", c.kind}, {"row", std::move(c.row)}});
  // Verdicts this client may not have heard (pruned once it pushes past them).
  ENSEMBLE_ASSIGN_OR_RETURN(auto verdicts, StoredVerdicts(db, client_id, 0, last));
  json rejections = json::array();
  for (auto& [id, verdict] : verdicts) rejections.push_back(std::move(verdict));
  ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
  json out = {{"cursor", next_cursor},
              {"lastMutationId", last},
              {"changes", std::move(out_changes)},
              {"more", more}};
  if (!rejections.empty()) out["rejections"] = std::move(rejections);
  if (reset) {
    out["reset"] = true;
    out["floor"] = floor;
  }
  return out;
}

Result<int64_t> ServerSync::Compact(store::Database& db, int64_t keep_after_version) const {
  store::Transaction txn(db);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  ENSEMBLE_ASSIGN_OR_RETURN(auto stored_version, GetStateInt(db, kServerVersionKey));
  if (keep_after_version < 0 || keep_after_version > stored_version.value_or(0)) {
    return InvalidArgument("keep_after_version must be between 0 and the server version");
  }
  ENSEMBLE_ASSIGN_OR_RETURN(auto min_cursor, GetStateInt(db, kMinCursorKey));
  if (config_.before_purge != nullptr)
    ENSEMBLE_RETURN_IF_ERROR(config_.before_purge(db, keep_after_version));
  int64_t removed = 0;
  std::map<std::string, int64_t> by_space;
  for (const SyncedTable& table : config_.tables) {
    ENSEMBLE_ASSIGN_OR_RETURN(
        store::Rows rows,
        db.Query("DELETE FROM " + std::string(table.table) +
                     " WHERE deleted = 1 AND row_version <= $1 RETURNING space_id",
                 {Value(keep_after_version)}));
    removed += static_cast<int64_t>(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) ++by_space[store::AsText(rows.rows[i][0])];
  }
  ENSEMBLE_RETURN_IF_ERROR(UncountPurgedRecords(db, by_space));
  // Never lowered: a cursor below an earlier compaction has still missed
  // the tombstones that one removed.
  ENSEMBLE_RETURN_IF_ERROR(
      SetStateInt(db, kMinCursorKey, std::max(min_cursor.value_or(0), keep_after_version)));
  ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
  return removed;
}

}  // namespace ensemble::core::sync
