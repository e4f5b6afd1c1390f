#include "core/spaces/invitations.h"

#include <utility>

#include "core/accounts/account.h"

namespace ensemble::core::spaces {

using store::Value;

namespace {

constexpr char kSelectInvitation[] =
    "SELECT i.id, i.space_id, s.name, i.account_id, a.email, i.role, f.email, f.name,"
    " i.created_at, i.invited_by FROM space_invitations i JOIN spaces s ON s.id = i.space_id"
    " JOIN accounts a ON a.id = i.account_id LEFT JOIN accounts f ON f.id = i.invited_by ";

Invitation InvitationAt(const store::Rows& rows, size_t i) {
  const auto& r = rows.rows[i];
  auto text = [](const Value& v) { return store::IsNull(v) ? std::string() : store::AsText(v); };
  return {text(r[0]), text(r[1]), text(r[2]),
          text(r[3]), text(r[4]), sync::ParseRole(text(r[5])).value_or(sync::Role::kViewer),
          text(r[6]), text(r[7]), store::AsInt(r[8])};
}

Result<std::vector<Invitation>> Select(store::Database& db, const std::string& where,
                                       std::vector<Value> params) {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, db.Query(std::string(kSelectInvitation) + where +
                                                           " ORDER BY i.created_at DESC, i.id",
                                                       std::move(params)));
  std::vector<Invitation> out;
  for (size_t i = 0; i < rows.size(); ++i) out.push_back(InvitationAt(rows, i));
  return out;
}

Status NoInvitation() { return Status(codes::kNotFound, "no such invitation"); }

Status CheckRoomForInvitee(store::Database& db, const std::string& account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows count,
                            db.Query("SELECT COUNT(*) FROM space_invitations WHERE account_id = $1",
                                     {Value(account_id)}));
  if (static_cast<size_t>(store::AsInt(count.rows[0][0])) >= kMaxPendingInvitationsPerAccount) {
    return Status(codes::kLimitReached, "that person has " +
                                            std::to_string(kMaxPendingInvitationsPerAccount) +
                                            " invitations waiting already");
  }
  return Status::Ok();
}

}  // namespace

const store::Migration kCreateSpaceInvitationsTable = {
    29, "space invitations",
    "CREATE TABLE space_invitations ("
    " id TEXT PRIMARY KEY, space_id TEXT NOT NULL REFERENCES spaces (id),"
    " account_id TEXT NOT NULL, role TEXT NOT NULL, invited_by TEXT NOT NULL,"
    " created_at BIGINT NOT NULL, UNIQUE (space_id, account_id));"
    "CREATE INDEX space_invitations_account ON space_invitations (account_id);"};

Result<Shared> Share(store::Database& db, const std::string& caller, const std::string& space_id,
                     std::string_view email, sync::Role role, const std::string& invitation_id,
                     int64_t now_ms) {
  ENSEMBLE_RETURN_IF_ERROR(LockSpace(db, space_id));
  ENSEMBLE_RETURN_IF_ERROR(OwnerOnly(db, caller, space_id, "share it or change roles"));
  ENSEMBLE_ASSIGN_OR_RETURN(std::string normalized, accounts::NormalizeEmail(email));
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<accounts::Account> account,
                            accounts::FindAccountByEmail(db, normalized));
  if (!account) return Status(codes::kNotFound, "no account with that email");
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<sync::Role> current,
                            sync::RoleIn(db, space_id, account->id));
  if (current && (role != sync::Role::kOwner || *current == sync::Role::kOwner)) {
    // Their consent stands for every role short of owner: changed at once.
    ENSEMBLE_RETURN_IF_ERROR(
        db.Exec("DELETE FROM space_invitations WHERE space_id = $1 AND account_id = $2",
                {Value(space_id), Value(account->id)}));
    ENSEMBLE_ASSIGN_OR_RETURN(Member m, ChangeRole(db, caller, space_id, account->id, role));
    return Shared{std::move(m), std::nullopt};
  }
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows pending,
      db.Query("SELECT id FROM space_invitations WHERE space_id = $1 AND account_id = $2",
               {Value(space_id), Value(account->id)}));
  if (pending.empty()) {
    if (!current) ENSEMBLE_RETURN_IF_ERROR(CheckRoomInSpace(db, space_id));
    ENSEMBLE_RETURN_IF_ERROR(CheckRoomForInvitee(db, account->id));
    ENSEMBLE_RETURN_IF_ERROR(
        db.Exec("INSERT INTO space_invitations"
                " (id, space_id, account_id, role, invited_by, created_at)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                {Value(invitation_id), Value(space_id), Value(account->id),
                 Value(std::string(sync::RoleName(role))), Value(caller), Value(now_ms)}));
  } else {
    ENSEMBLE_RETURN_IF_ERROR(
        db.Exec("UPDATE space_invitations SET role = $2, invited_by = $3 WHERE id = $1",
                {Value(store::AsText(pending.rows[0][0])), Value(std::string(sync::RoleName(role))),
                 Value(caller)}));
  }
  const std::string id = pending.empty() ? invitation_id : store::AsText(pending.rows[0][0]);
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<Invitation> made,
                            Select(db, "WHERE i.id = $1", {Value(id)}));
  if (made.empty()) return Status(codes::kInternal, "the invitation vanished");
  return Shared{std::nullopt, std::move(made[0])};
}

Result<std::vector<Invitation>> InvitationsFor(store::Database& db, const std::string& caller) {
  return Select(db,
                "WHERE i.account_id = $1 AND EXISTS (SELECT 1 FROM space_members m"
                " WHERE m.space_id = i.space_id AND m.account_id = i.invited_by"
                " AND m.role = 'owner')",
                {Value(caller)});
}

Result<std::vector<Invitation>> InvitationsOf(store::Database& db, const std::string& caller,
                                              const std::string& space_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<sync::Role> role, sync::RoleIn(db, space_id, caller));
  if (!role) return Status(codes::kNotFound, "no space " + space_id);
  if (*role != sync::Role::kOwner) return std::vector<Invitation>();
  return Select(db, "WHERE i.space_id = $1", {Value(space_id)});
}

Result<SpaceInfo> AcceptInvitation(store::Database& db, const std::string& caller,
                                   const std::string& invitation_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      std::vector<Invitation> found,
      Select(db, "WHERE i.id = $1 AND i.account_id = $2", {Value(invitation_id), Value(caller)}));
  if (found.empty()) return NoInvitation();
  const Invitation& inv = found[0];
  ENSEMBLE_RETURN_IF_ERROR(LockSpace(db, inv.space_id));
  // Read again under the space's lock: a withdrawal may have won the race.
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows still,
      db.Query("SELECT role, invited_by FROM space_invitations WHERE id = $1 AND account_id = $2",
               {Value(invitation_id), Value(caller)}));
  if (still.empty()) return NoInvitation();
  const std::optional<sync::Role> role = sync::ParseRole(store::AsText(still.rows[0][0]));
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<sync::Role> sender,
                            sync::RoleIn(db, inv.space_id, store::AsText(still.rows[0][1])));
  if (sender != sync::Role::kOwner) {
    return Status(codes::kFailedPrecondition,
                  "this invitation no longer stands: whoever sent it does not own the space now");
  }
  ENSEMBLE_RETURN_IF_ERROR(
      db.Exec("DELETE FROM space_invitations WHERE id = $1", {Value(invitation_id)}));
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<sync::Role> current,
                            sync::RoleIn(db, inv.space_id, caller));
  if (!current) ENSEMBLE_RETURN_IF_ERROR(CheckRoomForAnotherSpace(db, caller));
  ENSEMBLE_RETURN_IF_ERROR(
      sync::SetMember(db, inv.space_id, caller, role.value_or(sync::Role::kViewer)));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<SpaceInfo> mine, SpacesOf(db, caller));
  for (SpaceInfo& s : mine) {
    if (s.id == inv.space_id) return std::move(s);
  }
  return Status(codes::kInternal, "the accepted space is missing");
}

Status DeclineInvitation(store::Database& db, const std::string& caller,
                         const std::string& invitation_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows gone,
      db.Query("DELETE FROM space_invitations WHERE id = $1 AND account_id = $2 RETURNING id",
               {Value(invitation_id), Value(caller)}));
  return gone.empty() ? NoInvitation() : Status::Ok();
}

Status WithdrawInvitation(store::Database& db, const std::string& caller,
                          const std::string& space_id, const std::string& invitation_id) {
  ENSEMBLE_RETURN_IF_ERROR(LockSpace(db, space_id));
  ENSEMBLE_RETURN_IF_ERROR(OwnerOnly(db, caller, space_id, "withdraw an invitation"));
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows gone,
      db.Query("DELETE FROM space_invitations WHERE id = $1 AND space_id = $2 RETURNING id",
               {Value(invitation_id), Value(space_id)}));
  return gone.empty() ? NoInvitation() : Status::Ok();
}

}  // namespace ensemble::core::spaces
