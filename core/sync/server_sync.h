// ServerSync: the authoritative side of push and pull, run by the server
// against its store (SQLite or PostgreSQL) with the same mutators the browser
// runs.
//
// Push applies a batch in order inside one transaction, each mutation in its
// own savepoint, exactly once per (clientId, mutationId): ids already applied
// are acknowledged and skipped, and the client's last mutation id advances in
// the same transaction as the writes. Pull returns the rows changed since a
// cursor (the server's change counter) with the client's last mutation id.
//
// Thread-safety: stateless apart from its immutable config; callers give
// each thread its own Database connection.

#ifndef ENSEMBLE_CORE_SYNC_SERVER_SYNC_H_
#define ENSEMBLE_CORE_SYNC_SERVER_SYNC_H_

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/sync/sync_config.h"

namespace ensemble::core::sync {

inline constexpr size_t kMaxPushMutations = 1000;  // Per push request.
inline constexpr size_t kMaxPullRows = 1000;       // Per pull response page.
inline constexpr size_t kMaxClientIdChars = 64;

class ServerSync {
 public:
  explicit ServerSync(SyncConfig config) : config_(config) {}

  // Validates the whole request first (a bad request changes nothing and
  // returns INVALID_ARGUMENT or UNKNOWN_MUTATION), then applies it. Returns
  // {lastMutationId, results: [{id, status: applied|skipped|rejected, code?,
  // message?, details?}]}.
  Result<nlohmann::json> Push(store::Database& db, const nlohmann::json& request);

  // Returns {cursor, lastMutationId, changes: [{kind, row}], more}; at most
  // kMaxPullRows rows, and more=true when the client should pull again.
  Result<nlohmann::json> Pull(store::Database& db, const std::string& client_id, int64_t cursor);

 private:
  Status ValidatePush(const nlohmann::json& request) const;

  SyncConfig config_;
};

}  // namespace ensemble::core::sync

#endif  // ENSEMBLE_CORE_SYNC_SERVER_SYNC_H_
