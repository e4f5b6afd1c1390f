// Mutators: named operations (such as "task.update") that change records.
//
// A write is sent as a mutation, not as a row diff: the browser runs the
// mutator optimistically on its replica and queues it; the server runs the
// same mutator authoritatively. A mutator must be deterministic given the
// database and its arguments: it takes time only from the context (the
// mutation's client time), so both sides write identical rows.
//
// Thread-safety: a MutatorRegistry is immutable once built and may be shared.

#ifndef ENSEMBLE_CORE_SYNC_MUTATOR_H_
#define ENSEMBLE_CORE_SYNC_MUTATOR_H_

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"

namespace ensemble::core::sync {

// A record kind that syncs, and the table holding it. Every synced table has
// a TEXT primary key `id` and a BIGINT `row_version` (the server change that
// last wrote it; 0 on rows the server has not seen).
struct SyncedTable {
  std::string_view kind;   // "task"
  std::string_view table;  // "tasks"
};

class MutationContext {
 public:
  // `before_write` runs once per record before a mutator first writes it; the
  // client replica uses it to keep the server's copy for rebasing.
  using WriteHook = std::function<Status(std::string_view kind, const std::string& id)>;

  // `row_version` is the server change this mutation writes as, stamped on
  // every row it writes; 0 on a client replica, whose rows keep the version
  // the server last sent.
  MutationContext(store::Database& db, int64_t now_ms, WriteHook before_write = nullptr,
                  int64_t row_version = 0)
      : db_(db),
        now_ms_(now_ms),
        row_version_(row_version),
        before_write_(std::move(before_write)) {}

  store::Database& db() { return db_; }
  // The time to stamp on records: the mutation's client time, on both sides.
  int64_t now_ms() const { return now_ms_; }
  // Every row a mutator inserts must set row_version to this, and every row
  // it updates must too when it is not 0 (pulls find changes by it).
  int64_t row_version() const { return row_version_; }

  // Declares that the mutator is about to write record (kind, id). Must be
  // called before the first write of each record.
  Status WillWrite(std::string_view kind, const std::string& id);
  const std::vector<std::pair<std::string, std::string>>& written() const { return written_; }

  // Structured detail for a failure (e.g. the server's values on SAVE_CONFLICT).
  nlohmann::json& details() { return details_; }

  // Counts every record created against its space's cap
  // (core/sync/space_records.h). Set by the server's authoritative apply,
  // for one push at a time; a replica sets none.
  class RecordCounter {
   public:
    virtual ~RecordCounter() = default;
    // Whether a create in `space_id` counts itself in the store:
    // kCountRecordSql sent ahead of its INSERT, kKeptRecordsSql read back by
    // it and given to Created. False once the counter holds the space's
    // count, which it then keeps up in memory.
    virtual bool CountsInStore(const std::string& space_id) const = 0;
    // After a create in `space_id`: LIMIT_REACHED past the cap (the caller
    // rolls the create back). `kept`, when counted in the store: the count
    // read back, nullopt when the store had no count of the space yet.
    virtual Status Created(store::Database& db, const std::string& space_id,
                           std::optional<int64_t> kept) = 0;
  };
  // `counter` must outlive the mutation; nullptr for none.
  void set_record_counter(RecordCounter* counter) { record_counter_ = counter; }
  RecordCounter* record_counter() const { return record_counter_; }

 private:
  store::Database& db_;
  int64_t now_ms_;
  int64_t row_version_;
  WriteHook before_write_;
  RecordCounter* record_counter_ = nullptr;
  std::vector<std::pair<std::string, std::string>> written_;
  nlohmann::json details_;
};

using Mutator = std::function<Status(MutationContext& ctx, const nlohmann::json& args)>;

class MutatorRegistry {
 public:
  void Register(std::string name, Mutator mutator) {
    mutators_[std::move(name)] = std::move(mutator);
  }
  // Null when no mutator has that name.
  const Mutator* Find(std::string_view name) const;

 private:
  std::map<std::string, Mutator, std::less<>> mutators_;
};

}  // namespace ensemble::core::sync

#endif  // ENSEMBLE_CORE_SYNC_MUTATOR_H_
