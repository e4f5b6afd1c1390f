// ClientReplica: the browser's side of sync over its local database.
//
// Mutate() runs a mutator against the local replica and appends it to the
// outbox in one transaction, so the screen updates without the network and
// the write survives a reload. Before a pending mutation first writes a record,
// the record's server copy is kept; ApplyPull() restores those copies, applies
// the server's rows, drops the mutations the server confirmed and replays the
// rest on top (a rebase), all in one transaction.
//
// Thread-safety: not thread-safe; one replica per database connection.

#ifndef ENSEMBLE_CORE_SYNC_CLIENT_REPLICA_H_
#define ENSEMBLE_CORE_SYNC_CLIENT_REPLICA_H_

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/platform/env.h"
#include "core/store/database.h"
#include "core/sync/sync_config.h"

namespace ensemble::core::sync {

// Mutations sent in one push; the server accepts up to kMaxPushMutations.
inline constexpr size_t kClientPushBatch = 500;

class ClientReplica {
 public:
  // `db` must already hold the hub schema and outlive the replica. A new
  // database gets a fresh client id.
  static Result<std::unique_ptr<ClientReplica>> Open(store::Database& db, platform::Env env,
                                                     SyncConfig config);

  const std::string& client_id() const { return client_id_; }
  const std::string& client_group_id() const { return client_group_id_; }
  store::Database& db() { return db_; }

  // Runs mutator `name` locally and queues it; returns its mutation id.
  // On failure nothing changes and nothing is queued.
  Result<int64_t> Mutate(std::string_view name, const nlohmann::json& args);

  // The next push body: the oldest pending mutations the server has not yet
  // acknowledged, up to kClientPushBatch; its mutations array is empty when
  // there is nothing to push.
  Result<nlohmann::json> PushRequest();
  // Records how far the server got and the mutations it refused, for the
  // person to see.
  Status ApplyPushResponse(const nlohmann::json& response);

  Result<nlohmann::json> PullRequest();
  // Applies a pull response and rebases pending mutations onto it; returns
  // whether to pull again at once. A page with more to come is applied
  // without a rebase (records with pending local effects keep showing them);
  // the last page rebases once, so catching up costs one replay of the
  // outbox, not one per page. Reset pages replace the synced tables on the
  // first page and add to them on the following ones; if the server's floor
  // rose between them the reset starts over from cursor 0.
  Result<bool> ApplyPull(const nlohmann::json& response);

  Result<int64_t> PendingCount();
  Result<nlohmann::json> Outbox();
  // Mutations the server refused: [{id, name, args, code, message, details}].
  Result<nlohmann::json> Rejections();
  // The person has seen rejection `mutation_id`; it is no longer listed.
  Status DismissRejection(int64_t mutation_id);
  Result<int64_t> Cursor();

 private:
  ClientReplica(store::Database& db, platform::Env env, SyncConfig config)
      : db_(db), env_(env), config_(config) {}
  Status Init();
  Status Backup(std::string_view kind, const std::string& id);
  // Pending mutations with ids above `after`, oldest first; limit -1 for all.
  Result<nlohmann::json> OutboxAfter(int64_t after, int64_t limit);
  // Keeps the "rejected" entries of push results as rejections.
  Status RecordRejections(const nlohmann::json& results);
  Status RunLocally(std::string_view name, const nlohmann::json& args, int64_t client_time);
  // The synced table a pull change writes to (null for a kind this build does
  // not know), or INVALID_ARGUMENT for a malformed change.
  Result<const SyncedTable*> ChangeTable(const nlohmann::json& change) const;
  // A page of a pull with more to come: see ApplyPull.
  Status ApplyPage(const nlohmann::json& response);

  store::Database& db_;
  platform::Env env_;
  SyncConfig config_;
  std::string client_id_;
  std::string client_group_id_;
};

}  // namespace ensemble::core::sync

#endif  // ENSEMBLE_CORE_SYNC_CLIENT_REPLICA_H_
