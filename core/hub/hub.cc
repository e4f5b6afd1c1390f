#include "core/hub/hub.h"

#include <vector>

#include "core/accounts/account.h"
#include "core/accounts/account_settings.h"
#include "core/accounts/model_credentials.h"
#include "core/assistant/conversation_store.h"
#include "core/assistant/proposal_store.h"
#include "core/boards/board.h"
#include "core/pages/page.h"
#include "core/people/person.h"
#include "core/projects/project.h"
#include "core/sync/authorization.h"
#include "core/tasks/task.h"

namespace ensemble::core::hub {

std::span<const store::Migration> Migrations() {
  // Append only: a shipped migration keeps its number and its text.
  static const std::vector<store::Migration> kAll = {tasks::kCreateTasksTable,
                                                     sync::kCreateSyncTables,
                                                     projects::kCreateProjectTable,
                                                     people::kCreatePeopleTable,
                                                     pages::kCreatePageTable,
                                                     boards::kCreateBoardTable,
                                                     sync::kCreateSpaceTables,
                                                     sync::kCreateSyncVerdicts,
                                                     assistant::kCreateConversationTables,
                                                     accounts::kCreateAccountTables,
                                                     accounts::kCreateModelCredentialsTable,
                                                     assistant::kCreateProposalTable,
                                                     sync::kAddSyncClientAccounts,
                                                     accounts::kCreateAccountSettingsTable};
  return kAll;
}

Status Migrate(store::Database& db) { return store::Migrate(db, Migrations()); }

sync::SyncConfig Config() {
  static const sync::MutatorRegistry* registry = [] {
    auto* r = new sync::MutatorRegistry();
    tasks::RegisterMutators(*r);
    projects::RegisterMutators(*r);
    people::RegisterMutators(*r);
    pages::RegisterMutators(*r);
    boards::RegisterMutators(*r);
    return r;
  }();
  static constexpr sync::SyncedTable kTables[] = {{tasks::kKind, tasks::kTable},
                                                  {projects::kKind, projects::kTable},
                                                  {people::kKind, people::kTable},
                                                  {pages::kKind, pages::kTable},
                                                  {boards::kKind, boards::kTable}};
  return sync::SyncConfig{registry, kTables};
}

}  // namespace ensemble::core::hub
