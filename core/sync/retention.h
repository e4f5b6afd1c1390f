// Trash retention: a soft-deleted record stays restorable for kTrashRetention
// after it was deleted; then the server's retention job purges it for good
// (ServerSync::Compact), so tombstones and Trash do not grow forever.
//
// Compaction works on server versions, retention on time. Each run leaves a
// mark, (now, current server version), in sync_state; a later run compacts
// up to the newest mark at least kTrashRetention old. Versions only grow, so
// every row at or below that mark's version was written (and, if deleted,
// deleted) before the mark's time: nothing younger than the retention is
// purged, and anything older is purged within one interval of its time.
// Marks older than the one used are dropped, so at most
// kTrashRetention / kRetentionInterval + 1 are kept.
//
// Thread-safety: stateless; as the Database given. Running it from two server
// processes on one PostgreSQL at once is harmless (one transaction each;
// compaction is idempotent).

#ifndef ENSEMBLE_CORE_SYNC_RETENTION_H_
#define ENSEMBLE_CORE_SYNC_RETENTION_H_

#include <chrono>
#include <cstdint>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/sync/server_sync.h"

namespace ensemble::core::sync {

// How long Trash keeps a record (the spec leaves the length to a retention
// setting; 30 days is what people expect of a Trash).
inline constexpr std::chrono::milliseconds kTrashRetention = std::chrono::hours(24 * 30);
// How often the server's job runs: a purge is at most this late.
inline constexpr std::chrono::milliseconds kRetentionInterval = std::chrono::hours(1);

struct RetentionOutcome {
  int64_t purged = 0;             // Rows hard-deleted.
  int64_t compacted_through = 0;  // The version compacted to; 0: no mark old enough yet.
};

// One run at `now_ms`: leaves a mark, compacts through the newest mark at
// least `retention` old (if any), and drops older marks.
Result<RetentionOutcome> RunRetention(store::Database& db, const ServerSync& sync, int64_t now_ms,
                                      std::chrono::milliseconds retention = kTrashRetention);

}  // namespace ensemble::core::sync

#endif  // ENSEMBLE_CORE_SYNC_RETENTION_H_
