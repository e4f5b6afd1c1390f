// Who may run which hub write tool (spec 000 §7 "Layers"; 002 §2): the rules
// by area, applied to every hub tool as it is registered (ToolDef::least_role)
// and checked by routing (ToolsFor, the fast router) and again by Apply
// (apply_calls.cc). A tool that differs from its area's rule says so in its
// own table entry (tools::ForGuests, tools::ForOwner in tool_defs.h).
//
//   viewer  no write tools.
//   guest   content edits: creating and changing tasks and pages, comments
//           (hub_manage_record), and the person's own settings and skills.
//           Never deletes, restores or structure (sync/authorization.h).
//   editor  every shared record of the space ("shared editors get
//           content-scoped tools"): tasks, boards, projects, pages, people,
//           meetings, files, Trash, workflows.
//   owner   also what is the owner's own (reminders and watchers, routines,
//           the owner's calendar copies, private connected apps, imports
//           from apps, the board overview's layout: spec 002 §2, 000 §7
//           "keep their own checks").
// Reads are every member's. The sync mutators check each write again per
// record (sync::AuthorizeMutation), so this table decides what is offered
// and applied, never more than the store allows.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_TOOLS_TOOL_PERMISSIONS_H_
#define ENSEMBLE_CORE_TOOLS_TOOL_PERMISSIONS_H_

#include <string_view>

#include "core/base/status.h"
#include "core/sync/authorization.h"
#include "core/tools/tool.h"

namespace ensemble::core::tools {

// The least role that may run a write tool of `area` whose table entry asks
// for `from_table` (kEditor unless it says ForGuests or ForOwner).
sync::Role LeastRoleFor(sync::Role from_table, std::string_view area);

// OK when `account_id` (empty: the trusted local person) holds a role in
// `space_id` that may run `tool`; FORBIDDEN naming the tool otherwise, and
// NOT_FOUND when the account is not a member of the space at all.
Status CheckToolRole(store::Database& db, const std::string& space_id,
                     const std::string& account_id, const ToolDef& tool);

}  // namespace ensemble::core::tools

#endif  // ENSEMBLE_CORE_TOOLS_TOOL_PERMISSIONS_H_
