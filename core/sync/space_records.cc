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

}  // namespace

Status CheckCreatedRecord(store::Database& db, const SyncConfig& config,
                          const std::string& space_id, std::optional<int64_t> kept) {
  if (kept) return *kept > kMaxRecordsPerSpace ? Full() : Status::Ok();
  // First counted: the tables already hold the record just created.
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t total, CountFromTables(db, config, space_id));
  if (total > kMaxRecordsPerSpace) return Full();
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows inserted,
                            db.Query("INSERT INTO space_records (space_id, records) VALUES ($1, $2)"
                                     " ON CONFLICT (space_id) DO NOTHING RETURNING space_id",
                                     {Value(space_id), Value(total)}));
  if (!inserted.empty()) return Status::Ok();
  // Another server counted the space first, without this uncommitted record.
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows recounted,
      db.Query(std::string(kCountRecordSql) + " RETURNING records", {Value(space_id)}));
  return !recounted.empty() && store::AsInt(recounted.rows[0][0]) > kMaxRecordsPerSpace
             ? Full()
             : Status::Ok();
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
