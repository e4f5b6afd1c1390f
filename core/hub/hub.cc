#include "core/hub/hub.h"

#include <vector>

#include "core/tasks/task.h"

namespace ensemble::core::hub {

std::span<const store::Migration> Migrations() {
  static const std::vector<store::Migration> kAll = {tasks::kCreateTasksTable,
                                                     sync::kCreateSyncTables};
  return kAll;
}

Status Migrate(store::Database& db) { return store::Migrate(db, Migrations()); }

sync::SyncConfig Config() {
  static const sync::MutatorRegistry* registry = [] {
    auto* r = new sync::MutatorRegistry();
    tasks::RegisterMutators(*r);
    return r;
  }();
  static constexpr sync::SyncedTable kTables[] = {{tasks::kKind, tasks::kTable}};
  return sync::SyncConfig{registry, kTables};
}

}  // namespace ensemble::core::hub
