#include "core/sync/retention.h"

#include <cstdio>
#include <string>

#include "core/sync/sync_state.h"

namespace ensemble::core::sync {
namespace {

using store::Value;

constexpr char kMarkPrefix[] = "version_mark:";

// Marks sort by time as text: the time is zero-padded to a fixed width.
std::string MarkKey(int64_t at_ms) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%020lld", kMarkPrefix, static_cast<long long>(at_ms));
  return buf;
}

}  // namespace

Result<RetentionOutcome> RunRetention(store::Database& db, const ServerSync& sync, int64_t now_ms,
                                      std::chrono::milliseconds retention) {
  store::Transaction txn(db);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<int64_t> version, GetStateInt(db, "server_version"));
  ENSEMBLE_RETURN_IF_ERROR(SetStateInt(db, MarkKey(now_ms), version.value_or(0)));

  RetentionOutcome out;
  const std::string cutoff = MarkKey(now_ms - retention.count());
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows old,
      db.Query("SELECT key, int_value FROM sync_state WHERE key >= $1 AND key <= $2"
               " ORDER BY key DESC LIMIT 1",
               {Value(std::string(kMarkPrefix)), Value(cutoff)}));
  if (!old.empty()) {
    const std::string used = store::AsText(old.rows[0][0]);
    out.compacted_through = store::AsInt(old.rows[0][1]);
    // Compact is its own transaction, nested here as a savepoint.
    ENSEMBLE_ASSIGN_OR_RETURN(out.purged, sync.Compact(db, out.compacted_through));
    ENSEMBLE_RETURN_IF_ERROR(db.Exec("DELETE FROM sync_state WHERE key >= $1 AND key < $2",
                                     {Value(std::string(kMarkPrefix)), Value(used)}));
  }
  ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
  return out;
}

}  // namespace ensemble::core::sync
