// SyncedMutationSink: the server's write sink for assistant tools
// (tool_context.h's MutationSink). A tool's mutations go through
// ServerSync::Apply, as one push from a client of the assistant's own, so they
// are authorized for the account, written with server versions, logged for
// every client's pull and poked, exactly as a person's pushed edit is.
//
// Each call of the sink is all or nothing: it runs in a savepoint, and when
// any of its mutations is rejected (SAVE_CONFLICT, FORBIDDEN, NOT_FOUND, ...)
// the savepoint is rolled back and that rejection is returned. The sink runs
// inside the caller's transaction when there is one (an Apply's), else in its
// own.
//
// Thread-safety: one sink per turn or Apply, called from one thread at a time;
// the Database, the account id and SyncedWrites must outlive it.

#ifndef ENSEMBLE_CORE_ASSISTANT_SYNCED_MUTATION_SINK_H_
#define ENSEMBLE_CORE_ASSISTANT_SYNCED_MUTATION_SINK_H_

#include <cstdint>
#include <string>

#include "core/assistant/tool_context.h"
#include "core/store/database.h"
#include "core/sync/server_sync.h"

namespace ensemble::core::assistant {

// What a sink wrote, for the poke after the caller's commit.
struct SyncedWrites {
  int64_t first_version = 0;  // 0: nothing written yet.
  int64_t last_version = 0;
};

// A sink pushing as client `client_id` (at most sync::kMaxClientIdChars; a
// fresh one per turn or Apply, so its mutation ids start at 1) on behalf of
// `account_id` (nullptr: the trusted local person), stamping `now_ms` as the
// mutations' client time and adding the versions it writes to `*writes`.
// `config` names the mutators and tables (hub::Config() for the hub).
tools::MutationSink SyncedMutationSink(store::Database& db, sync::SyncConfig config,
                                       const std::string* account_id, std::string client_id,
                                       int64_t now_ms, SyncedWrites* writes);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_SYNCED_MUTATION_SINK_H_
