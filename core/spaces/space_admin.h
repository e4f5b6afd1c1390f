// Spaces and their members, as people manage them (spec 002 §2 "Spaces and
// sharing"; issue 6): list the spaces one belongs to, make a space, see who
// is in one, share it with an account by email in a role, change a role,
// remove a member or leave. These are the person's own decisions (spec 002
// §3: "Permission and credential changes stay the person's own"), so no
// assistant tool calls them; the server's /api/spaces routes do.
//
// Rules: only an owner shares, changes roles or removes others; anyone may
// leave; a space always keeps at least one owner (FAILED_PRECONDITION);
// nobody joins or becomes an owner without accepting (invitations.h). A
// space the caller is not a member of is NOT_FOUND, never FORBIDDEN, so its
// id is not confirmed. Membership itself is sync/authorization.h's.
//
// Thread-safety: stateless functions; the caller owns the transaction.

#ifndef ENSEMBLE_CORE_SPACES_SPACE_ADMIN_H_
#define ENSEMBLE_CORE_SPACES_SPACE_ADMIN_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/store/migrations.h"
#include "core/sync/authorization.h"

namespace ensemble::core::spaces {

// A space's name is a short label in a sidebar.
inline constexpr size_t kMaxSpaceNameChars = 100;
// Bounds one person's list and one space's member list (and the work a
// request can cause); far above everyday use.
inline constexpr size_t kMaxSpacesPerAccount = 200;
inline constexpr size_t kMaxMembersPerSpace = 500;

// Migration 19: spaces get a name.
extern const store::Migration kAddSpaceNames;

struct SpaceInfo {
  std::string id;
  std::string name;                       // "" for a space made before names (the personal one).
  sync::Role role = sync::Role::kViewer;  // The caller's.
  int64_t members = 0;
};

struct Member {
  std::string account_id;
  std::string email;
  std::string name;
  sync::Role role = sync::Role::kViewer;
};

// The spaces `account_id` belongs to, by name then id.
Result<std::vector<SpaceInfo>> SpacesOf(store::Database& db, const std::string& account_id);

// Makes space `space_id` named `name` (trimmed; INVALID_ARGUMENT when empty
// or too long) with `account_id` its owner. LIMIT_REACHED past
// kMaxSpacesPerAccount.
Result<SpaceInfo> CreateSpace(store::Database& db, const std::string& account_id,
                              const std::string& space_id, std::string_view name);

// Renames a space; owners only.
Status RenameSpace(store::Database& db, const std::string& caller, const std::string& space_id,
                   std::string_view name);

// The members of a space the caller belongs to, by role (owners first) then
// email.
Result<std::vector<Member>> MembersOf(store::Database& db, const std::string& caller,
                                      const std::string& space_id);

// Changes the role of `account_id`, a member already, to `role` (owners
// only; FAILED_PRECONDITION for the last owner). Becoming an owner is not
// here: that needs the member's consent (invitations.h).
Result<Member> ChangeRole(store::Database& db, const std::string& caller,
                          const std::string& space_id, const std::string& account_id,
                          sync::Role role);

// The checks sharing and accepting share:
// Serializes membership changes of one space until the transaction ends.
Status LockSpace(store::Database& db, const std::string& space_id);
// FORBIDDEN unless the caller owns the space ("only an owner of the space
// can <what>"); NOT_FOUND when not a member.
Status OwnerOnly(store::Database& db, const std::string& caller, const std::string& space_id,
                 std::string_view what);
// LIMIT_REACHED when the space's members and pending invitations fill
// kMaxMembersPerSpace.
Status CheckRoomInSpace(store::Database& db, const std::string& space_id);
// LIMIT_REACHED when the account is in kMaxSpacesPerAccount spaces already.
Status CheckRoomForAnotherSpace(store::Database& db, const std::string& account_id);

// Removes `account_id` from the space: an owner removes anyone, a member
// themself (leaving).
Status RemoveMember(store::Database& db, const std::string& caller, const std::string& space_id,
                    const std::string& account_id);

}  // namespace ensemble::core::spaces

#endif  // ENSEMBLE_CORE_SPACES_SPACE_ADMIN_H_
