#include "core/tools/tool_permissions.h"

#include <algorithm>
#include <string>

#include "core/tools/tool_registry.h"
#include "core/tools/write_areas.h"

namespace ensemble::core::tools {
namespace {

using sync::Role;

// Areas that are the person's own account, whatever their role in the space.
constexpr std::string_view kPersonalAreas[] = {areas::kSettings, areas::kSkills};

// Areas that are the space owner's own (000 §7: they keep their own checks).
constexpr std::string_view kOwnerAreas[] = {areas::kReminders, areas::kRoutines, areas::kDesk,
                                            areas::kCalendar, areas::kApps};

bool In(std::span<const std::string_view> list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

}  // namespace

Role LeastRoleFor(Role from_table, std::string_view area) {
  if (from_table == Role::kOwner || In(kOwnerAreas, area)) return Role::kOwner;
  if (from_table == Role::kGuest || In(kPersonalAreas, area)) return Role::kGuest;
  return Role::kEditor;
}

Status CheckToolRole(store::Database& db, const std::string& space_id,
                     const std::string& account_id, const ToolDef& tool) {
  if (account_id.empty()) return Status::Ok();
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<Role> role, sync::RoleIn(db, space_id, account_id));
  if (!role) return Status(codes::kNotFound, "no space " + space_id);
  if (RoleMayRun(*role, tool)) return Status::Ok();
  return Status(codes::kForbidden, "as " + std::string(sync::RoleName(*role)) +
                                       " of this space you cannot use " + tool.name);
}

}  // namespace ensemble::core::tools
