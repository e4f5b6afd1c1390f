#include "core/hub/hub.h"

#include <string>
#include <vector>

#include "core/accounts/account.h"
#include "core/accounts/account_settings.h"
#include "core/accounts/model_credentials.h"
#include "core/accounts/sign_in_limits.h"
#include "core/assistant/conversation_store.h"
#include "core/assistant/proposal_store.h"
#include "core/assistant/running_turns.h"
#include "core/boards/board.h"
#include "core/boards/board_layout.h"
#include "core/boards/card.h"
#include "core/comments/comment.h"
#include "core/connections/connection.h"
#include "core/context/derived_rows.h"
#include "core/context/record_links.h"
#include "core/context/search_index.h"
#include "core/desk/desk_list.h"
#include "core/pages/page.h"
#include "core/people/identity.h"
#include "core/people/merge.h"
#include "core/people/person.h"
#include "core/people/suppressions.h"
#include "core/projects/project.h"
#include "core/reminders/reminder.h"
#include "core/reminders/watcher_news.h"
#include "core/routines/routine.h"
#include "core/routines/routine_runs.h"
#include "core/spaces/invitations.h"
#include "core/spaces/space_admin.h"
#include "core/sync/authorization.h"
#include "core/sync/space_records.h"
#include "core/tasks/task.h"

namespace ensemble::core::hub {

namespace {

// Migration 15: the task's fields after due, and the comments table.
const store::Migration& AddTaskFields() {
  static const std::string* sql = new std::string(std::string(tasks::kAddTaskFieldsSql) +
                                                  std::string(comments::kCreateCommentsTableSql));
  static const store::Migration m = {15, "task fields and comments", *sql};
  return m;
}

// Migration 18: reminders, watchers and routines.
const store::Migration& AddRemindersAndRoutines() {
  static const std::string* sql = new std::string(std::string(reminders::kCreateReminderTablesSql) +
                                                  std::string(routines::kCreateRoutineTableSql));
  static const store::Migration m = {18, "reminders, watchers and routines", *sql};
  return m;
}

// What follows a mutation on the server: the news of a change a watcher
// waits for, and the author of the kinds that speak or act for a person.
Status AfterMutation(sync::MutationContext& ctx, const std::string* account_id,
                     std::string_view mutation, const nlohmann::json& args) {
  ENSEMBLE_RETURN_IF_ERROR(reminders::RecordWatcherNews(ctx, account_id, mutation, args));
  if (!account_id) return Status::Ok();  // The trusted local person, or the server itself.
  ENSEMBLE_RETURN_IF_ERROR(comments::StampCommentAuthor(ctx.db(), *account_id, mutation, args));
  return routines::StampRoutineAuthor(ctx.db(), *account_id, mutation, args);
}

Status CheckWriter(store::Database& db, const std::string& account_id, std::string_view mutation,
                   const nlohmann::json& args) {
  return comments::CheckCommentWriter(db, account_id, mutation, args);
}

}  // namespace

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
                                                     accounts::kCreateAccountSettingsTable,
                                                     AddTaskFields(),
                                                     boards::kAddBoardColumnsAndCards,
                                                     projects::kAddProjectPagePersonFields,
                                                     AddRemindersAndRoutines(),
                                                     spaces::kAddSpaceNames,
                                                     assistant::kCreateRunningTurnsTable,
                                                     routines::kCreateRoutineRunsTable,
                                                     people::kCreatePersonIdentitiesTable,
                                                     desk::kCreateDeskListTables,
                                                     people::kAddPersonDistinctFrom,
                                                     reminders::kAddWatcherNews,
                                                     boards::kCreateBoardLayoutTable,
                                                     connections::kCreateConnectionsTable,
                                                     sync::kCreateAccountAccessTable,
                                                     spaces::kCreateSpaceInvitationsTable,
                                                     comments::kAddCommentAuthors,
                                                     routines::kAddRoutineAuthors,
                                                     accounts::kCreateSignInAttemptsTable,
                                                     sync::kCreateSpaceRecordsTable,
                                                     assistant::kCreateAssistantPausesTable,
                                                     people::kCreateContextSuppressionsTable,
                                                     context::kCreateSearchIndex,
                                                     context::kCreateRecordLinks,
                                                     context::kCreateRecentSearchTerms,
                                                     context::kRecentTermsByRecord};
  return kAll;
}

Status Migrate(store::Database& db) { return store::Migrate(db, Migrations()); }

namespace {

// Every synced kind, in the order its table syncs.
const records::RecordKind* const kKinds[] = {&tasks::kTaskKind,
                                             &projects::kProjectKind,
                                             &people::kPersonKind,
                                             &pages::kPageKind,
                                             &boards::kBoardKind,
                                             &boards::kCardRecordKind,
                                             &comments::kCommentKind,
                                             &reminders::kReminderRecordKind,
                                             &reminders::kWatcherRecordKind,
                                             &routines::kRoutineKind,
                                             &people::kIdentityRecordKind,
                                             &desk::kListRecordKind,
                                             &desk::kItemRecordKind,
                                             &boards::kLayoutRecordKind};

std::span<const sync::SyncedTable> Tables() {
  static const std::vector<sync::SyncedTable>* tables = [] {
    auto* out = new std::vector<sync::SyncedTable>();
    for (const records::RecordKind* k : kKinds) out->push_back(k->synced_table());
    return out;
  }();
  return *tables;
}

// The records besides people lists that name a person, moved by a merge.
const people::RecordLink kPersonLinks[] = {
    {&comments::kCommentKind, "target_kind", "target"},
    {&reminders::kReminderRecordKind, "item_kind", "item"},
    {&reminders::kWatcherRecordKind, "target_kind", "target"}};

}  // namespace

records::RecordKinds RecordKinds() { return {kKinds}; }

const records::RecordKind* FindRecordKind(std::string_view kind) {
  return RecordKinds().Find(kind);
}

sync::SyncConfig Config() {
  static const sync::MutatorRegistry* registry = [] {
    auto* r = new sync::MutatorRegistry();
    tasks::RegisterMutators(*r);
    comments::RegisterMutators(*r, RecordKinds());
    projects::RegisterMutators(*r);
    people::RegisterMutators(*r);
    people::RegisterIdentityMutators(*r);
    people::RegisterMergeMutator(*r, kPersonLinks);
    pages::RegisterMutators(*r);
    boards::RegisterMutators(*r);
    boards::RegisterCardMutators(*r);
    reminders::RegisterMutators(*r, RecordKinds());
    routines::RegisterMutators(*r);
    desk::RegisterMutators(*r);
    boards::RegisterLayoutMutators(*r);
    return r;
  }();
  return sync::SyncConfig{registry,
                          Tables(),
                          AfterMutation,
                          CheckWriter,
                          people::SuppressPurgedPeople,
                          context::DerivedRows()};
}

}  // namespace ensemble::core::hub
