// The hub: where the record domains (tasks, projects, people, pages, boards,
// and later more) are put together for storage and sync. The browser
// replica, the server and the tests all build their schema and mutator set
// from here, so they cannot drift apart.
//
// Thread-safety: the returned objects are immutable and may be shared.

#ifndef ENSEMBLE_CORE_HUB_HUB_H_
#define ENSEMBLE_CORE_HUB_HUB_H_

#include <span>
#include <string_view>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/store/database.h"
#include "core/store/migrations.h"
#include "core/sync/sync_config.h"

namespace ensemble::core::hub {

// Every migration of every domain, in version order.
std::span<const store::Migration> Migrations();

// Brings `db` to the current schema.
Status Migrate(store::Database& db);

// The mutators and synced tables of every domain.
sync::SyncConfig Config();

// Every synced kind's descriptor (its fields and their types): each table
// of Config() has one.
records::RecordKinds RecordKinds();

// RecordKinds().Find(kind): null for a name that is no kind.
const records::RecordKind* FindRecordKind(std::string_view kind);

}  // namespace ensemble::core::hub

#endif  // ENSEMBLE_CORE_HUB_HUB_H_
