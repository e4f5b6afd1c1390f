// Space records: how many records a space keeps (live and in Trash), kept in
// a counter beside the rows so that capping a space costs each create one
// indexed update, not a count of every table, and no round trip: the update
// travels with the create's INSERT (records::CreateRecord), which reads the
// count back. Creates on the server count up (ServerSync sets the
// MutationContext's record counter), the purge of Trash (ServerSync::Compact)
// counts down. A space counted for the first time is counted from its tables
// once.
//
// Thread-safety: stateless; as the Database given. Run inside the write's
// transaction: the counter row is locked with the create it counts.

#ifndef ENSEMBLE_CORE_SYNC_SPACE_RECORDS_H_
#define ENSEMBLE_CORE_SYNC_SPACE_RECORDS_H_

#include <cstdint>
#include <map>
#include <optional>
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

// A create counts itself in two statements that cost no round trip of
// their own: kCountRecordSql ($1: the space) is sent deferred ahead of the
// record's INSERT, whose RETURNING adds kKeptRecordsSql ($2: the space) to
// read the count back.
inline constexpr char kCountRecordSql[] =
    "UPDATE space_records SET records = records + 1 WHERE space_id = $1";
inline constexpr char kKeptRecordsSql[] = "(SELECT records FROM space_records WHERE space_id = $2)";

// Checks a record just created in `space_id`, counted by the statements
// above: `kept` is the space's count with it, or nullopt when the space was
// not counted yet (it is then counted from its tables). LIMIT_REACHED, with
// what to do, past kMaxRecordsPerSpace (the caller rolls the create back).
Status CheckCreatedRecord(store::Database& db, const SyncConfig& config,
                          const std::string& space_id, std::optional<int64_t> kept);

// Takes records purged for good off their spaces' counts.
Status UncountPurgedRecords(store::Database& db, const std::map<std::string, int64_t>& by_space);

}  // namespace ensemble::core::sync

#endif  // ENSEMBLE_CORE_SYNC_SPACE_RECORDS_H_
