// Sharing with consent (issue 27): an owner shares a space with an account
// by email, which makes an invitation; the invitee becomes a member, or an
// existing member becomes an owner, only by accepting it. The invitee may
// decline; an owner may withdraw it. An invitation from someone who no
// longer owns the space is void (not listed, not accepted), so a former
// owner cannot still let people in. Role changes that take nothing from the member's consent (any
// role but owner, for a member already) apply at once (space_admin.h).
//
// Thread-safety: stateless functions; the caller owns the transaction.

#ifndef ENSEMBLE_CORE_SPACES_INVITATIONS_H_
#define ENSEMBLE_CORE_SPACES_INVITATIONS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/spaces/space_admin.h"
#include "core/store/database.h"
#include "core/store/migrations.h"
#include "core/sync/authorization.h"

namespace ensemble::core::spaces {

// Pending invitations one account may hold at once: a bound on what others
// can put in front of a person (and on the work of listing them).
inline constexpr size_t kMaxPendingInvitationsPerAccount = 50;

// Migration 29: space_invitations.
extern const store::Migration kCreateSpaceInvitationsTable;

struct Invitation {
  std::string id;
  std::string space_id;
  std::string space_name;
  std::string account_id;  // The invitee.
  std::string email;       // The invitee's.
  sync::Role role = sync::Role::kViewer;
  std::string from_email;  // Who invited.
  std::string from_name;
  int64_t created_at = 0;
};

// What sharing did: changed a member's role at once, or invited.
struct Shared {
  std::optional<Member> member;
  std::optional<Invitation> invitation;
};

// Shares the space with the account of `email` in `role` (owners only):
// a member's role changes at once unless it would make them an owner; any
// other share makes an invitation with id `invitation_id`, or changes the
// role of the one pending. NOT_FOUND "no account with that email" when there
// is none; LIMIT_REACHED past kMaxMembersPerSpace (members and invitations)
// or the invitee's kMaxPendingInvitationsPerAccount.
Result<Shared> Share(store::Database& db, const std::string& caller, const std::string& space_id,
                     std::string_view email, sync::Role role, const std::string& invitation_id,
                     int64_t now_ms);

// The caller's pending invitations that still stand, newest first.
Result<std::vector<Invitation>> InvitationsFor(store::Database& db, const std::string& caller);

// A space's pending invitations: all of them for an owner, none for another
// member; NOT_FOUND for a stranger.
Result<std::vector<Invitation>> InvitationsOf(store::Database& db, const std::string& caller,
                                              const std::string& space_id);

// Makes the caller a member in the invitation's role and removes it.
// NOT_FOUND unless it is the caller's; FAILED_PRECONDITION when its sender
// no longer owns the space.
Result<SpaceInfo> AcceptInvitation(store::Database& db, const std::string& caller,
                                   const std::string& invitation_id);

// Removes the caller's invitation; NOT_FOUND unless it is theirs.
Status DeclineInvitation(store::Database& db, const std::string& caller,
                         const std::string& invitation_id);

// Removes an invitation to the space (owners only).
Status WithdrawInvitation(store::Database& db, const std::string& caller,
                          const std::string& space_id, const std::string& invitation_id);

}  // namespace ensemble::core::spaces

#endif  // ENSEMBLE_CORE_SPACES_INVITATIONS_H_
