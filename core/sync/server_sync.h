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

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/base/status.h"
#include "core/platform/env.h"
#include "core/store/database.h"
#include "core/sync/sync_config.h"

namespace ensemble::core {
namespace codes {
// A pushed mutation whose clientTime is over kMaxClientTimeAheadMs ahead of
// the server's clock: rejected, since it would stay "newest" until then.
inline constexpr std::string_view kClientClockAhead = "CLIENT_CLOCK_AHEAD";
}  // namespace codes
}  // namespace ensemble::core

namespace ensemble::core::sync {

inline constexpr size_t kMaxPushMutations = 1000;  // Per push request.
inline constexpr size_t kMaxPullRows = 1000;       // Per pull response page.
inline constexpr size_t kMaxClientIdChars = 64;
// A pushed mutation stamped further ahead of the server's clock than this is
// rejected (CLIENT_CLOCK_AHEAD): its time would sort after every real change
// for as long as the stamp stays in the future ("unseen" news, last-write
// order), and a device clock a day off is wrong, not skewed.
inline constexpr int64_t kMaxClientTimeAheadMs = 24 * 60 * 60 * 1000;

// What a push did, for the server around it.
struct PushOutcome {
  nlohmann::json response;  // As Push returns it.
  // The server version the push's last applied mutation wrote: subscribers
  // are poked with it. 0 when nothing was applied.
  int64_t version = 0;
  // The version its first applied mutation wrote (with `version`, the range
  // ReadersOfChanges reads); 0 when nothing was applied.
  int64_t first_version = 0;
};

class BatchRecordCounts;  // space_records.h

class ServerSync {
 public:
  explicit ServerSync(SyncConfig config) : config_(config) {}
  // With `clock`, Push rejects a mutation whose clientTime is more than
  // kMaxClientTimeAheadMs ahead of it. `clock` must outlive this.
  ServerSync(SyncConfig config, const platform::Clock* clock) : config_(config), clock_(clock) {}

  // Validates the whole request first (a bad request changes nothing and
  // returns INVALID_ARGUMENT or UNKNOWN_MUTATION), then applies it. Returns
  // {lastMutationId, results: [{id, status: applied|skipped|rejected, code?,
  // message?, details?}]}. This form trusts the caller with every space: the
  // embedded single-person mode, where the one local person owns them all.
  Result<nlohmann::json> Push(store::Database& db, const nlohmann::json& request);
  // The same on behalf of `account_id`: each mutation first passes
  // AuthorizeMutation (core/sync/authorization.h); a refused one is rejected
  // (FORBIDDEN or NOT_FOUND) and consumed without blocking the rest.
  Result<nlohmann::json> Push(store::Database& db, const nlohmann::json& request,
                              const std::string& account_id);
  // Either of the above (a null account is the trusted form), with the
  // version written. Run inside the caller's transaction when it has one.
  Result<PushOutcome> Apply(store::Database& db, const nlohmann::json& request,
                            const std::string* account_id);

  // The server's own writes (the assistant's tools): runs `mutations`
  // ([{name, args}]) in order, all or nothing, stamped `now_ms`, each
  // authorized for `account_id` (null: the trusted local person) and written
  // as a server version every client pulls. No client bookkeeping: the
  // caller keeps them from running twice (Apply's receipts), so no
  // sync_clients row is made per turn or Apply. Returns the versions
  // written, or the first refusal as its mutator (or the authorization
  // check) gave it, with nothing written; the details of a refusal go to
  // `*details` when given. Runs inside the caller's transaction when it has one.
  Result<PushOutcome> ApplyServerWrites(store::Database& db, const nlohmann::json& mutations,
                                        const std::string* account_id, int64_t now_ms,
                                        nlohmann::json* details = nullptr);

  // Returns {cursor, lastMutationId, changes: [{kind, row}], more}; at most
  // kMaxPullRows rows, cut at a whole change (a single change with more rows
  // comes whole in one page), and more=true when the client should pull
  // again. A cursor below the floor (the compaction floor, or with an
  // account its latest access change) gets reset pages, {..., reset: true,
  // floor}, holding live rows only (paged the same way); they replace the
  // client's copy (see ClientReplica::ApplyPull).
  Result<nlohmann::json> Pull(store::Database& db, const std::string& client_id, int64_t cursor);
  // The same, holding only the rows `account_id` may read: its spaces', and
  // of the owner's own kinds only those of spaces it owns.
  Result<nlohmann::json> Pull(store::Database& db, const std::string& account_id,
                              const std::string& client_id, int64_t cursor);

  // Server maintenance: hard-deletes soft-deleted rows with row_version <=
  // keep_after_version and raises the compaction floor (min_cursor in
  // sync_state) to it. Returns the number of rows removed.
  Result<int64_t> Compact(store::Database& db, int64_t keep_after_version) const;

 private:
  Status ValidatePush(const nlohmann::json& request) const;
  // Runs one mutation in its own savepoint, its rows written as server
  // version `version` and its creates counted in `counts`, and sets its
  // verdict (with `details` for a rejection). A non-OK return is a store
  // error: the batch fails and nothing of it is consumed.
  // Appends the records an applied mutation wrote to `written`, for the
  // batch's derived rows (SyncConfig::derived), kept once at its end rather
  // than in each mutation's savepoint.
  Status ApplyOne(store::Database& db, const nlohmann::json& mutation,
                  const std::string* account_id, int64_t version, BatchRecordCounts& counts,
                  Status& verdict, nlohmann::json& details, WrittenRecords& written);
  Result<nlohmann::json> PullAs(store::Database& db, const std::string* account_id,
                                const std::string& client_id, int64_t cursor);

  SyncConfig config_;
  const platform::Clock* clock_ = nullptr;
};

}  // namespace ensemble::core::sync

#endif  // ENSEMBLE_CORE_SYNC_SERVER_SYNC_H_
