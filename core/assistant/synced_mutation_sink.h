// SyncedMutationSink: the server's write sink for assistant tools
// (core/tools/tool_context.h's MutationSink). A tool's mutations go through
// ServerSync::ApplyServerWrites, so they are authorized for the account,
// written with server versions, pulled by every client and poked, exactly as
// a person's pushed edit is, without a sync client of their own (Apply's
// receipts, not mutation ids, keep a call from running twice).
//
// Each call of the sink is all or nothing: when any of its mutations is
// rejected (SAVE_CONFLICT, FORBIDDEN, NOT_FOUND, ...) nothing of the call is
// written and that rejection is returned. The sink runs inside the caller's
// transaction when there is one (an Apply's), else in its own.
//
// Thread-safety: one sink per turn or Apply, called from one thread at a time;
// the Database, the account id and SyncedWrites must outlive it.

#ifndef ENSEMBLE_CORE_ASSISTANT_SYNCED_MUTATION_SINK_H_
#define ENSEMBLE_CORE_ASSISTANT_SYNCED_MUTATION_SINK_H_

#include <cstdint>
#include <string>

#include "core/store/database.h"
#include "core/sync/server_sync.h"
#include "core/tools/tool_context.h"

namespace ensemble::core::assistant {

// What a sink wrote, for the poke after the caller's commit.
struct SyncedWrites {
  int64_t first_version = 0;  // 0: nothing written yet.
  int64_t last_version = 0;
};

// A sink writing on behalf of `account_id` (nullptr: the trusted local
// person), stamping `now_ms` as the mutations' client time and adding the
// versions it writes to `*writes`. `config` names the mutators and tables
// (hub::Config() for the hub).
tools::MutationSink SyncedMutationSink(store::Database& db, sync::SyncConfig config,
                                       const std::string* account_id, int64_t now_ms,
                                       SyncedWrites* writes);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_SYNCED_MUTATION_SINK_H_
