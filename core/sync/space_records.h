// Space records: how many records a space keeps (live and in Trash), kept in
// a counter beside the rows so that capping a space costs a push one indexed
// update per space it creates in, not a count of every table, and no round
// trip: the update travels with the push's first create in the space
// (records::CreateRecord), which reads the count back; its later creates are
// counted in memory and added in one update before the commit
// (BatchRecordCounts). Creates on the server count up (ServerSync gives the
// MutationContext its counter), the purge of Trash (ServerSync::Compact)
// counts down. A space counted for the first time is counted from its tables
// once.
//
// Why not one update per create: PostgreSQL keeps every version of a row
// updated in one transaction, and each update walks them all (with a
// savepoint per mutation, through each one's subtransaction), so a push of
// 1,000 creates in one space spent most of its time on that one row:
// `sync.push_mut_s.batch1000.pg` went from 5,210 to 12,681 (docs/PERFORMANCE.md).
//
// Thread-safety: BatchRecordCounts is for one push on one thread; the rest is
// stateless, as the Database given. Run inside the write's transaction: the
// counter row is locked with the first create it counts.

#ifndef ENSEMBLE_CORE_SYNC_SPACE_RECORDS_H_
#define ENSEMBLE_CORE_SYNC_SPACE_RECORDS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"
#include "core/sync/sync_config.h"

namespace ensemble::core::sync {

// Records one space keeps, every kind together: far past a busy team's
// years of work, short of what would make its first pull a burden.
inline constexpr int64_t kMaxRecordsPerSpace = 100'000;

extern const store::Migration kCreateSpaceRecordsTable;

// A create counted in the store counts itself in two statements that cost
// no round trip of their own: kCountRecordSql ($1: the space) is sent
// deferred ahead of the record's INSERT, whose RETURNING adds
// kKeptRecordsSql ($2: the space) to read the count back.
inline constexpr char kCountRecordSql[] =
    "UPDATE space_records SET records = records + 1 WHERE space_id = $1";
inline constexpr char kKeptRecordsSql[] = "(SELECT records FROM space_records WHERE space_id = $2)";

// The record counter of one push (or one batch of server writes): the first
// create in a space counts in the store, the later ones in memory.
// ServerSync calls Keep or Drop after each mutation, as its savepoint is
// released or rolled back, and Flush before the commit. So a mutator whose
// create was counted must fail as a whole if anything after it fails: the
// counts go back with the mutation's savepoint, not with one of its own.
class BatchRecordCounts final : public MutationContext::RecordCounter {
 public:
  // `config` must outlive this.
  explicit BatchRecordCounts(const SyncConfig& config) : config_(config) {}
  explicit BatchRecordCounts(SyncConfig&&) = delete;

  bool CountsInStore(const std::string& space_id) const override;
  // LIMIT_REACHED, with what to do, past kMaxRecordsPerSpace.
  Status Created(store::Database& db, const std::string& space_id,
                 std::optional<int64_t> kept) override;

  // The mutation's creates stay counted.
  void Keep() { mutation_.clear(); }
  // The mutation was rolled back: so are the counts of its creates.
  void Drop();
  // Adds the creates counted in memory to the store's counts: one deferred
  // update per space.
  Status Flush(store::Database& db);

 private:
  struct Count {
    int64_t kept = 0;     // the space's records with every create counted so far
    int64_t unsaved = 0;  // how many of those the store does not hold yet
  };
  struct Counted {
    std::string space_id;
    bool in_store = false;
  };

  const SyncConfig& config_;
  std::map<std::string, Count> counts_;
  std::vector<Counted> mutation_;  // the current mutation's creates
};

// Takes records purged for good off their spaces' counts.
Status UncountPurgedRecords(store::Database& db, const std::map<std::string, int64_t>& by_space);

}  // namespace ensemble::core::sync

#endif  // ENSEMBLE_CORE_SYNC_SPACE_RECORDS_H_
