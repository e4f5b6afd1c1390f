#include "core/sync/space_records.h"

namespace ensemble::core::sync {

using store::Value;

const store::Migration kCreateSpaceRecordsTable = {
    33, "records per space",
    "CREATE TABLE space_records (space_id TEXT PRIMARY KEY, records BIGINT NOT NULL);"};

namespace {

Status Full() {
  return Status(codes::kLimitReached,
                "this space keeps its limit of " + std::to_string(kMaxRecordsPerSpace) +
                    " records, so nothing more can be added: delete some and empty Trash, or "
                    "start another space");
}

// The records `space_id` keeps now, counted from every synced table.
Result<int64_t> CountFromTables(store::Database& db, const SyncConfig& config,
                                const std::string& space_id) {
  int64_t total = 0;
  for (const SyncedTable& table : config.tables) {
    ENSEMBLE_ASSIGN_OR_RETURN(
        store::Rows rows,
        db.Query("SELECT COUNT(*) FROM " + std::string(table.table) + " WHERE space_id = $1",
                 {Value(space_id)}));
    total += store::AsInt(rows.rows[0][0]);
  }
  return total;
}

// Checks a record just created in `space_id`, counted in the store: `kept`
// is the space's count with it, or nullopt when the space was not counted
// yet (it is then counted from its tables). The space's count, or
// LIMIT_REACHED past kMaxRecordsPerSpace.
Result<int64_t> CountInStore(store::Database& db, const SyncConfig& config,
                             const std::string& space_id, std::optional<int64_t> kept) {
  if (kept) {
    if (*kept > kMaxRecordsPerSpace) return Full();
    return *kept;
  }
  // First counted: the tables already hold the record just created.
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t total, CountFromTables(db, config, space_id));
  if (total > kMaxRecordsPerSpace) return Full();
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows inserted,
                            db.Query("INSERT INTO space_records (space_id, records) VALUES ($1, $2)"
                                     " ON CONFLICT (space_id) DO NOTHING RETURNING space_id",
                                     {Value(space_id), Value(total)}));
  if (!inserted.empty()) return total;
  // Another server counted the space first, without this uncommitted record.
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows recounted,
      db.Query(std::string(kCountRecordSql) + " RETURNING records", {Value(space_id)}));
  // Deleted again since: fail the push (the client sends it again) rather
  // than count its later creates into a row that is not there.
  if (recounted.empty()) return Status(codes::kStorage, "the space's record count went missing");
  const int64_t now_kept = store::AsInt(recounted.rows[0][0]);
  if (now_kept > kMaxRecordsPerSpace) return Full();
  return now_kept;
}

}  // namespace

bool BatchRecordCounts::CountsInStore(const std::string& space_id) const {
  return !counts_.contains(space_id);
}

Status BatchRecordCounts::Created(store::Database& db, const std::string& space_id,
                                  std::optional<int64_t> kept) {
  auto it = counts_.find(space_id);
  if (it == counts_.end()) {
    ENSEMBLE_ASSIGN_OR_RETURN(int64_t now_kept, CountInStore(db, config_, space_id, kept));
    counts_.emplace(space_id, Count{now_kept, 0});
    mutation_.push_back({space_id, true});
    return Status::Ok();
  }
  if (it->second.kept >= kMaxRecordsPerSpace) return Full();
  ++it->second.kept;
  ++it->second.unsaved;
  mutation_.push_back({space_id, false});
  return Status::Ok();
}

void BatchRecordCounts::Drop() {
  // Newest first: a space first counted in this mutation is forgotten after
  // its later creates are taken off, so its next create counts in the store
  // again (the store's update went with the savepoint).
  for (auto it = mutation_.rbegin(); it != mutation_.rend(); ++it) {
    if (it->in_store) {
      counts_.erase(it->space_id);
    } else {
      Count& count = counts_.at(it->space_id);
      --count.kept;
      --count.unsaved;
    }
  }
  mutation_.clear();
}

Status BatchRecordCounts::Flush(store::Database& db) {
  for (auto& [space_id, count] : counts_) {
    if (count.unsaved == 0) continue;
    ENSEMBLE_RETURN_IF_ERROR(
        db.ExecDeferred("UPDATE space_records SET records = records + $2 WHERE space_id = $1",
                        {Value(space_id), Value(count.unsaved)}));
    count.unsaved = 0;
  }
  return Status::Ok();
}

Status UncountPurgedRecords(store::Database& db, const std::map<std::string, int64_t>& by_space) {
  for (const auto& [space_id, purged] : by_space) {
    ENSEMBLE_RETURN_IF_ERROR(
        db.Exec("UPDATE space_records SET records = CASE WHEN records > $2 THEN records - $2"
                " ELSE 0 END WHERE space_id = $1",
                {Value(space_id), Value(purged)}));
  }
  return Status::Ok();
}

}  // namespace ensemble::core::sync
