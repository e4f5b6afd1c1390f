// Space records: how many records a space keeps (live and in Trash), kept in
// a counter beside the rows so that capping a space costs each create one
// indexed update, not a count of every table. Creates count up, the purge of
// Trash (ServerSync::Compact) counts down. A space counted for the first time
// is counted from its tables once.
//
// Thread-safety: stateless; as the Database given. Run inside the write's
// transaction: the counter row is locked with the create it counts.

#ifndef ENSEMBLE_CORE_SYNC_SPACE_RECORDS_H_
#define ENSEMBLE_CORE_SYNC_SPACE_RECORDS_H_

#include <cstdint>
#include <map>
#include <string>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/store/migrations.h"
#include "core/sync/sync_config.h"

namespace ensemble::core::sync {

// Records one space keeps, every kind together: far past a busy team's
// years of work, short of what would make its first pull a burden.
inline constexpr int64_t kMaxRecordsPerSpace = 100'000;

extern const store::Migration kCreateSpaceRecordsTable;

// Counts a record just created in `space_id`. LIMIT_REACHED, with what to do,
// when the space already keeps kMaxRecordsPerSpace (the caller rolls the
// create back).
Status CountCreatedRecord(store::Database& db, const SyncConfig& config,
                          const std::string& space_id);

// Takes records purged for good off their spaces' counts.
Status UncountPurgedRecords(store::Database& db, const std::map<std::string, int64_t>& by_space);

}  // namespace ensemble::core::sync

#endif  // ENSEMBLE_CORE_SYNC_SPACE_RECORDS_H_
