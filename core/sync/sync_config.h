// What the sync machinery needs to know about the domains: which mutators
// exist and which tables sync. Built once by core/hub and shared.
//
// Thread-safety: immutable; may be shared.

#ifndef ENSEMBLE_CORE_SYNC_SYNC_CONFIG_H_
#define ENSEMBLE_CORE_SYNC_SYNC_CONFIG_H_

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::sync {

// Runs on the server after each mutation applies, in its savepoint and as its
// version, for writes the change itself causes (a watcher's news): the
// mutation's writer (null: the trusted local person), name and arguments.
using AfterMutation = Status (*)(MutationContext& ctx, const std::string* account_id,
                                 std::string_view mutation, const nlohmann::json& args);

// Runs on the server after a mutation's role check passed, before its
// mutator: the rules of a record's own writer beyond roles (only a comment's
// author edits it). FORBIDDEN refuses the mutation.
using CheckWriter = Status (*)(store::Database& db, const std::string& account_id,
                               std::string_view mutation, const nlohmann::json& args);

// Runs on the server in a compaction's transaction before it purges the
// tombstones at or below server version `through`: what must outlive a
// purged record (a removed person's address, core/people/suppressions.h).
using BeforePurge = Status (*)(store::Database& db, int64_t through);

// What is derived from synced rows (the search index,
// core/context/search_index.h), kept current in the same transaction as the
// rows on every path that writes them: a mutator on the server or a replica,
// a pull, a rebase.
struct DerivedRows {
  // After records (kind, id) were written, restored or removed; each once.
  Status (*records_written)(store::Database& db,
                            std::span<const std::pair<std::string, std::string>> records) = nullptr;
  // After every synced table was emptied (a reset pull refills them).
  Status (*cleared)(store::Database& db) = nullptr;
};

struct SyncConfig {
  const MutatorRegistry* mutators = nullptr;
  std::span<const SyncedTable> tables;
  AfterMutation after_mutation = nullptr;  // Null: nothing follows a mutation.
  CheckWriter check_writer = nullptr;      // Null: roles alone decide.
  BeforePurge before_purge = nullptr;      // Null: a purge keeps nothing.
  DerivedRows derived;                     // Null hooks: nothing is derived.

  // Null for an unknown kind.
  const SyncedTable* FindKind(std::string_view kind) const {
    for (const auto& t : tables) {
      if (t.kind == kind) return &t;
    }
    return nullptr;
  }
};

// Brings `config.derived` up to date with the records `ctx` wrote.
Status NoteWrites(const SyncConfig& config, MutationContext& ctx);
// Records (kind, id) written by a batch, each once when noted.
using WrittenRecords = std::vector<std::pair<std::string, std::string>>;
// Brings `config.derived` up to date with `written` (sorted and made unique
// first): a whole push's records at once, after its mutations.
Status NoteWrites(const SyncConfig& config, store::Database& db, WrittenRecords& written);
// Brings `config.derived` up to date with record (kind, id) written by a pull.
Status NoteWrite(const SyncConfig& config, store::Database& db, std::string_view kind,
                 const std::string& id);

// Tables the sync machinery itself keeps (client state, outbox, server
// cursor, per-client mutation ids), in the hub's migration list.
extern const store::Migration kCreateSyncTables;
// Server: the verdicts of rejected mutations, repeated when a client re-sends
// a mutation whose response it never received.
extern const store::Migration kCreateSyncVerdicts;
// Who owns each client id (issue 3: exactly once per account's client).
extern const store::Migration kAddSyncClientAccounts;

}  // namespace ensemble::core::sync

#endif  // ENSEMBLE_CORE_SYNC_SYNC_CONFIG_H_
