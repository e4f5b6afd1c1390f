// What the context module derives from the synced records, as the sync
// machinery's DerivedRows hooks (core/sync/sync_config.h): the search index
// (search_index.h) and the link index (record_links.h), both kept in the
// transaction of every write.
//
// Thread-safety: stateless; as the Database given.

#ifndef ENSEMBLE_CORE_CONTEXT_DERIVED_ROWS_H_
#define ENSEMBLE_CORE_CONTEXT_DERIVED_ROWS_H_

#include "core/sync/sync_config.h"

namespace ensemble::core::context {

// The hooks the hub's SyncConfig carries.
sync::DerivedRows DerivedRows();

}  // namespace ensemble::core::context

#endif  // ENSEMBLE_CORE_CONTEXT_DERIVED_ROWS_H_
