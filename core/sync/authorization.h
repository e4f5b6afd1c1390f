// Who may write what: spaces, their members' roles, and the check every pushed
// mutation passes before its mutator runs.
//
// A client-supplied id is never evidence of access: the space a mutation
// touches is the one the record already lives in (read from the store), or,
// for a create, the space it names, and the account must hold a role there
// that allows the write. Roles:
//   owner, editor  write every synced kind;
//   guest          writes content records only (tasks, pages, comments):
//                  creates and edits, never deletes or restores, and nothing
//                  structural (projects, people, boards, board cards). The
//                  spec gives guests of a shared space a narrower reach than
//                  editors without listing it per record; this is our
//                  reading, kept here. Cards: spec 002 §5 lets an agent
//                  change boards only where its owner edits, so a card
//                  (putting, moving, taking off) is an editor's write, like
//                  its board.
//   viewer         never writes.
// A record in a space the account cannot read is answered as not found, so a
// refusal does not confirm that an id exists.
//
// What an account reads follows the same roles: the rows of its spaces,
// except the owner's own kinds (IsOwnerOnlyKind), which only owners receive.
// Whenever that set changes (joining, leaving, becoming or ceasing to be an
// owner) the change takes a server version of its own, recorded in
// account_access; a client whose cursor is below it gets reset pages, so a
// new member receives every existing row and a removed one drops them.
//
// Thread-safety: stateless; as the Database given.

#ifndef ENSEMBLE_CORE_SYNC_AUTHORIZATION_H_
#define ENSEMBLE_CORE_SYNC_AUTHORIZATION_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/store/migrations.h"
#include "core/sync/sync_config.h"

namespace ensemble::core::sync {

enum class Role { kOwner, kEditor, kGuest, kViewer };

std::string_view RoleName(Role role);

// True when `role` reaches at least `least`: viewer < guest < editor < owner
// (each holds everything the one before it may do).
bool RoleAtLeast(Role role, Role least);
std::optional<Role> ParseRole(std::string_view name);

// Kinds that are the space owner's own: only owners write and receive them.
bool IsOwnerOnlyKind(std::string_view kind);

// The spaces and space_members tables, in the hub's migration list.
extern const store::Migration kCreateSpaceTables;
// Migration 28: account_access, the server version of each account's latest
// change of what it may read.
extern const store::Migration kCreateAccountAccessTable;

// Gives `account_id` `role` in `space_id`, creating the space if needed.
// Records an access change when the account joins or its owner rights
// change. Run it in the caller's transaction (it locks the version counter).
Status SetMember(store::Database& db, const std::string& space_id, const std::string& account_id,
                 Role role);

// Takes `account_id` out of `space_id` and records the access change;
// nothing happens when it is not a member.
Status DropMember(store::Database& db, const std::string& space_id, const std::string& account_id);

// The server version of the account's latest access change, 0 when none.
Result<int64_t> AccessChangedAt(store::Database& db, const std::string& account_id);

// The account's role in the space, or nullopt when it has none.
Result<std::optional<Role>> RoleIn(store::Database& db, const std::string& space_id,
                                   const std::string& account_id);

// OK when `account_id` may run mutation `name` with `args`; otherwise
// FORBIDDEN (a role that does not allow it) or NOT_FOUND (no access to the
// record's space, or the record does not exist).
Status AuthorizeMutation(store::Database& db, const SyncConfig& config,
                         const std::string& account_id, std::string_view name,
                         const nlohmann::json& args);

// The accounts that can read a row written with a server version in
// [first_version, last_version] (members of those rows' spaces), sorted and
// distinct: who a push's poke is for. One query.
Result<std::vector<std::string>> ReadersOfChanges(store::Database& db, const SyncConfig& config,
                                                  int64_t first_version, int64_t last_version);

}  // namespace ensemble::core::sync

#endif  // ENSEMBLE_CORE_SYNC_AUTHORIZATION_H_
