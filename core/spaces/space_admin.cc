#include "core/spaces/space_admin.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "core/accounts/account.h"
#include "core/text/utf8.h"

namespace ensemble::core::spaces {

using store::Value;

namespace {

Status NoSpace(const std::string& id) { return Status(codes::kNotFound, "no space " + id); }

Result<std::string> NormalizeSpaceName(std::string_view name) {
  const std::string out(text::Trim(name));
  if (out.empty()) return InvalidArgument("a space needs a name");
  if (!text::IsValidUtf8(out)) return InvalidArgument("the name is not valid UTF-8");
  if (text::CountCodePoints(out) > kMaxSpaceNameChars) {
    return InvalidArgument("a space's name holds at most " + std::to_string(kMaxSpaceNameChars) +
                           " characters");
  }
  for (unsigned char c : out) {
    if (c < 0x20 || c == 0x7f)
      return InvalidArgument("a space's name cannot hold control characters");
  }
  return out;
}

// The caller's role in the space; NOT_FOUND when not a member.
Result<sync::Role> RoleOf(store::Database& db, const std::string& caller,
                          const std::string& space_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<sync::Role> role, sync::RoleIn(db, space_id, caller));
  if (!role) return NoSpace(space_id);
  return *role;
}

Result<int64_t> CountOwners(store::Database& db, const std::string& space_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT COUNT(*) FROM space_members WHERE space_id = $1 AND role = 'owner'",
               {Value(space_id)}));
  return store::AsInt(rows.rows[0][0]);
}

// FAILED_PRECONDITION when `account_id` is the space's last owner, so
// removing or demoting them would leave nobody to manage it.
Status KeepAnOwner(store::Database& db, const std::string& space_id,
                   const std::string& account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<sync::Role> role, sync::RoleIn(db, space_id, account_id));
  if (role != sync::Role::kOwner) return Status::Ok();
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t owners, CountOwners(db, space_id));
  if (owners <= 1) {
    return Status(codes::kFailedPrecondition,
                  "a space keeps at least one owner: make someone else an owner first");
  }
  return Status::Ok();
}

int RoleRank(sync::Role r) {
  switch (r) {
    case sync::Role::kOwner:
      return 0;
    case sync::Role::kEditor:
      return 1;
    case sync::Role::kGuest:
      return 2;
    case sync::Role::kViewer:
      return 3;
  }
  return 4;
}

}  // namespace

const store::Migration kAddSpaceNames = {
    19, "space names", "ALTER TABLE spaces ADD COLUMN name TEXT NOT NULL DEFAULT '';"};

// On PostgreSQL the row lock holds until the transaction ends, and the checks after it (read
// committed) see what a change that held it before committed, so two owners demoting each other at
// once cannot both pass "keeps an owner". SQLite has one writer already.
Status LockSpace(store::Database& db, const std::string& space_id) {
  return db.Exec("UPDATE spaces SET name = name WHERE id = $1", {Value(space_id)});
}

Status OwnerOnly(store::Database& db, const std::string& caller, const std::string& space_id,
                 std::string_view what) {
  ENSEMBLE_ASSIGN_OR_RETURN(sync::Role role, RoleOf(db, caller, space_id));
  if (role != sync::Role::kOwner) {
    return Status(codes::kForbidden, "only an owner of the space can " + std::string(what));
  }
  return Status::Ok();
}

Status CheckRoomInSpace(store::Database& db, const std::string& space_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows count,
      db.Query("SELECT (SELECT COUNT(*) FROM space_members WHERE space_id = $1) +"
               " (SELECT COUNT(*) FROM space_invitations WHERE space_id = $1)",
               {Value(space_id)}));
  if (static_cast<size_t>(store::AsInt(count.rows[0][0])) >= kMaxMembersPerSpace) {
    return Status(codes::kLimitReached, "a space holds at most " +
                                            std::to_string(kMaxMembersPerSpace) +
                                            " members and invitations");
  }
  return Status::Ok();
}

Status CheckRoomForAnotherSpace(store::Database& db, const std::string& account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows count,
      db.Query("SELECT COUNT(*) FROM space_members WHERE account_id = $1", {Value(account_id)}));
  if (static_cast<size_t>(store::AsInt(count.rows[0][0])) >= kMaxSpacesPerAccount) {
    return Status(codes::kLimitReached, "an account belongs to at most " +
                                            std::to_string(kMaxSpacesPerAccount) + " spaces");
  }
  return Status::Ok();
}

Result<std::vector<SpaceInfo>> SpacesOf(store::Database& db, const std::string& account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows, db.Query("SELECT s.id, s.name, m.role,"
                                 " (SELECT COUNT(*) FROM space_members c WHERE c.space_id = s.id)"
                                 " FROM space_members m JOIN spaces s ON s.id = m.space_id"
                                 " WHERE m.account_id = $1 ORDER BY s.name, s.id",
                                 {Value(account_id)}));
  std::vector<SpaceInfo> out;
  for (const auto& r : rows.rows) {
    out.push_back({store::AsText(r[0]), store::AsText(r[1]),
                   sync::ParseRole(store::AsText(r[2])).value_or(sync::Role::kViewer),
                   store::AsInt(r[3])});
  }
  return out;
}

Result<SpaceInfo> CreateSpace(store::Database& db, const std::string& account_id,
                              const std::string& space_id, std::string_view name) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::string clean, NormalizeSpaceName(name));
  ENSEMBLE_RETURN_IF_ERROR(CheckRoomForAnotherSpace(db, account_id));
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows inserted,
      db.Query("INSERT INTO spaces (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING"
               " RETURNING id",
               {Value(space_id), Value(clean)}));
  if (inserted.empty()) return Status(codes::kAlreadyExists, "space " + space_id + " exists");
  ENSEMBLE_RETURN_IF_ERROR(sync::SetMember(db, space_id, account_id, sync::Role::kOwner));
  return SpaceInfo{space_id, clean, sync::Role::kOwner, 1};
}

Status RenameSpace(store::Database& db, const std::string& caller, const std::string& space_id,
                   std::string_view name) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::string clean, NormalizeSpaceName(name));
  ENSEMBLE_RETURN_IF_ERROR(OwnerOnly(db, caller, space_id, "rename it"));
  return db.Exec("UPDATE spaces SET name = $2 WHERE id = $1", {Value(space_id), Value(clean)});
}

Result<std::vector<Member>> MembersOf(store::Database& db, const std::string& caller,
                                      const std::string& space_id) {
  ENSEMBLE_RETURN_IF_ERROR(RoleOf(db, caller, space_id).status());
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows, db.Query("SELECT m.account_id, a.email, a.name, m.role FROM space_members m"
                                 " JOIN accounts a ON a.id = m.account_id WHERE m.space_id = $1",
                                 {Value(space_id)}));
  std::vector<Member> out;
  for (const auto& r : rows.rows) {
    out.push_back({store::AsText(r[0]), store::AsText(r[1]), store::AsText(r[2]),
                   sync::ParseRole(store::AsText(r[3])).value_or(sync::Role::kViewer)});
  }
  std::sort(out.begin(), out.end(), [](const Member& a, const Member& b) {
    if (RoleRank(a.role) != RoleRank(b.role)) return RoleRank(a.role) < RoleRank(b.role);
    return a.email < b.email;
  });
  return out;
}

Result<Member> ChangeRole(store::Database& db, const std::string& caller,
                          const std::string& space_id, const std::string& account_id,
                          sync::Role role) {
  ENSEMBLE_RETURN_IF_ERROR(LockSpace(db, space_id));
  ENSEMBLE_RETURN_IF_ERROR(OwnerOnly(db, caller, space_id, "change roles"));
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<sync::Role> current,
                            sync::RoleIn(db, space_id, account_id));
  if (!current) return Status(codes::kNotFound, "no member " + account_id + " in this space");
  if (role == sync::Role::kOwner && *current != sync::Role::kOwner) {
    return Status(codes::kFailedPrecondition,
                  "becoming an owner needs the member's consent: invite them as an owner");
  }
  if (role != sync::Role::kOwner) ENSEMBLE_RETURN_IF_ERROR(KeepAnOwner(db, space_id, account_id));
  ENSEMBLE_RETURN_IF_ERROR(sync::SetMember(db, space_id, account_id, role));
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<accounts::Account> account,
                            accounts::FindAccount(db, account_id));
  if (!account) return Member{account_id, "", "", role};
  return Member{account->id, account->email, account->name, role};
}

Status RemoveMember(store::Database& db, const std::string& caller, const std::string& space_id,
                    const std::string& account_id) {
  ENSEMBLE_RETURN_IF_ERROR(LockSpace(db, space_id));
  ENSEMBLE_ASSIGN_OR_RETURN(sync::Role role, RoleOf(db, caller, space_id));
  if (caller != account_id && role != sync::Role::kOwner) {
    return Status(codes::kForbidden, "only an owner of the space can remove others");
  }
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<sync::Role> theirs,
                            sync::RoleIn(db, space_id, account_id));
  if (!theirs) return Status(codes::kNotFound, "no member " + account_id + " in this space");
  ENSEMBLE_RETURN_IF_ERROR(KeepAnOwner(db, space_id, account_id));
  return sync::DropMember(db, space_id, account_id);
}

}  // namespace ensemble::core::spaces
