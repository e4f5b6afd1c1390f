#include "core/sync/authorization.h"

#include <algorithm>
#include <array>
#include <utility>

#include "core/sync/sync_state.h"

namespace ensemble::core::sync {

using nlohmann::json;
using store::Value;

namespace {

constexpr std::array<std::pair<Role, std::string_view>, 4> kRoleNames = {{
    {Role::kOwner, "owner"},
    {Role::kEditor, "editor"},
    {Role::kGuest, "guest"},
    {Role::kViewer, "viewer"},
}};

// Record kinds a guest may create and edit.
constexpr std::array<std::string_view, 3> kGuestContentKinds = {"task", "page", "comment"};
// Record kinds that are the space owner's own (spec 002 §2: reminders and
// watchers, desk lists, the board overview's layout; routines run as their
// owner).
constexpr std::array<std::string_view, 6> kOwnerOnlyKinds = {
    "reminder", "watcher", "routine", "desk_list", "desk_list_item", "board_layout"};

Status Forbidden(std::string message) { return Status(codes::kForbidden, std::move(message)); }

// "desk_list_item" as words: "desk list item".
std::string Spoken(std::string_view kind) {
  std::string out(kind);
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

bool IsGuestContent(std::string_view kind) {
  for (std::string_view k : kGuestContentKinds) {
    if (k == kind) return true;
  }
  return false;
}

// Gives the account's access change a server version of its own, so every
// cursor taken before it is below it.
Status MarkAccessChanged(store::Database& db, const std::string& account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t version, ReserveServerVersions(db, 1));
  return db.Exec(
      "INSERT INTO account_access (account_id, changed_version) VALUES ($1, $2)"
      " ON CONFLICT (account_id) DO UPDATE SET changed_version = excluded.changed_version",
      {Value(account_id), Value(version)});
}

// OK when `role` may run `op` on records of `kind`.
Status RoleAllows(Role role, std::string_view kind, std::string_view op) {
  switch (role) {
    case Role::kOwner:
      return Status::Ok();
    case Role::kEditor:
      if (!IsOwnerOnlyKind(kind)) return Status::Ok();
      return Forbidden("only the space's owner keeps its " + Spoken(kind) + "s");
    case Role::kGuest:
      if (IsGuestContent(kind) && (op == "create" || op == "update")) return Status::Ok();
      return Forbidden("a guest cannot " + std::string(op) + " a " + Spoken(kind) +
                       " in this space");
    case Role::kViewer:
      return Forbidden("viewers cannot change anything in this space");
  }
  return Forbidden("unknown role");
}

}  // namespace

bool IsOwnerOnlyKind(std::string_view kind) {
  for (std::string_view k : kOwnerOnlyKinds) {
    if (k == kind) return true;
  }
  return false;
}

const store::Migration kCreateAccountAccessTable = {
    28, "account access changes",
    "CREATE TABLE account_access (account_id TEXT PRIMARY KEY,"
    " changed_version BIGINT NOT NULL);"};

const store::Migration kCreateSpaceTables = {
    7, "create spaces and members",
    "CREATE TABLE spaces (id TEXT PRIMARY KEY, created_at BIGINT NOT NULL DEFAULT 0);"
    "CREATE TABLE space_members ("
    " space_id TEXT NOT NULL REFERENCES spaces (id), account_id TEXT NOT NULL,"
    " role TEXT NOT NULL, PRIMARY KEY (space_id, account_id));"
    "CREATE INDEX space_members_account ON space_members (account_id, space_id);"};

std::string_view RoleName(Role role) {
  for (const auto& [r, name] : kRoleNames) {
    if (r == role) return name;
  }
  return "viewer";
}

bool RoleAtLeast(Role role, Role least) {
  auto rank = [](Role r) {
    switch (r) {
      case Role::kViewer:
        return 0;
      case Role::kGuest:
        return 1;
      case Role::kEditor:
        return 2;
      case Role::kOwner:
        return 3;
    }
    return 0;
  };
  return rank(role) >= rank(least);
}

std::optional<Role> ParseRole(std::string_view name) {
  for (const auto& [r, n] : kRoleNames) {
    if (n == name) return r;
  }
  return std::nullopt;
}

Status SetMember(store::Database& db, const std::string& space_id, const std::string& account_id,
                 Role role) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<Role> before, RoleIn(db, space_id, account_id));
  ENSEMBLE_RETURN_IF_ERROR(db.Exec(
      "INSERT INTO spaces (id) VALUES ($1) ON CONFLICT (id) DO NOTHING", {Value(space_id)}));
  ENSEMBLE_RETURN_IF_ERROR(
      db.Exec("INSERT INTO space_members (space_id, account_id, role) VALUES ($1, $2, $3)"
              " ON CONFLICT (space_id, account_id) DO UPDATE SET role = excluded.role",
              {Value(space_id), Value(account_id), Value(std::string(RoleName(role)))}));
  // Other role changes keep what the account reads; only these change it.
  const bool reads_more_or_less = !before || ((*before == Role::kOwner) != (role == Role::kOwner));
  if (!reads_more_or_less) return Status::Ok();
  return MarkAccessChanged(db, account_id);
}

Status DropMember(store::Database& db, const std::string& space_id, const std::string& account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows gone,
      db.Query("DELETE FROM space_members WHERE space_id = $1 AND account_id = $2 RETURNING role",
               {Value(space_id), Value(account_id)}));
  if (gone.empty()) return Status::Ok();
  return MarkAccessChanged(db, account_id);
}

Result<int64_t> AccessChangedAt(store::Database& db, const std::string& account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows, db.Query("SELECT changed_version FROM account_access WHERE account_id = $1",
                                 {Value(account_id)}));
  return rows.empty() ? int64_t{0} : store::AsInt(rows.rows[0][0]);
}

Result<std::optional<Role>> RoleIn(store::Database& db, const std::string& space_id,
                                   const std::string& account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT role FROM space_members WHERE space_id = $1 AND account_id = $2",
               {Value(space_id), Value(account_id)}));
  if (rows.empty()) return std::optional<Role>();
  return ParseRole(store::AsText(rows.rows[0][0]));
}

Status AuthorizeMutation(store::Database& db, const SyncConfig& config,
                         const std::string& account_id, std::string_view name, const json& args) {
  size_t dot = name.find('.');
  std::string_view kind = name.substr(0, dot);
  std::string_view op = dot == std::string_view::npos ? "" : name.substr(dot + 1);
  const SyncedTable* table = config.FindKind(kind);
  if (!table) return Forbidden("mutation '" + std::string(name) + "' names no synced record kind");

  std::string space_id;
  if (op == "create") {
    if (!args.is_object() || !args.contains("spaceId") || !args["spaceId"].is_string()) {
      return Status(codes::kInvalidArgument, "spaceId must name a space");
    }
    space_id = args["spaceId"].get<std::string>();
  } else {
    if (!args.is_object() || !args.contains("id") || !args["id"].is_string()) {
      return Status(codes::kInvalidArgument, "id must be a record id");
    }
    ENSEMBLE_ASSIGN_OR_RETURN(
        store::Rows rows,
        db.Query("SELECT space_id FROM " + std::string(table->table) + " WHERE id = $1",
                 {Value(args["id"].get<std::string>())}));
    if (rows.empty()) return Status::Ok();  // The mutator answers NOT_FOUND itself.
    space_id = store::AsText(rows.rows[0][0]);
  }

  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<Role> role, RoleIn(db, space_id, account_id));
  if (!role) {
    if (op == "create") return Forbidden("you are not a member of space " + space_id);
    // No access to the record's space: indistinguishable from a missing record.
    return Status(codes::kNotFound,
                  "no " + std::string(kind) + " with id " + args["id"].get<std::string>());
  }
  ENSEMBLE_RETURN_IF_ERROR(RoleAllows(*role, kind, op));
  return config.check_writer ? config.check_writer(db, account_id, name, args) : Status::Ok();
}

Result<std::vector<std::string>> ReadersOfChanges(store::Database& db, const SyncConfig& config,
                                                  int64_t first_version, int64_t last_version) {
  std::string spaces;
  for (const SyncedTable& table : config.tables) {
    if (!spaces.empty()) spaces += " UNION ";
    spaces += "SELECT space_id FROM " + std::string(table.table) +
              " WHERE row_version >= $1 AND row_version <= $2";
  }
  std::vector<std::string> readers;
  if (spaces.empty()) return readers;
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT DISTINCT account_id FROM space_members WHERE space_id IN (" + spaces +
                   ") ORDER BY account_id",
               {Value(first_version), Value(last_version)}));
  readers.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) readers.push_back(store::AsText(rows.rows[i][0]));
  return readers;
}

}  // namespace ensemble::core::sync
