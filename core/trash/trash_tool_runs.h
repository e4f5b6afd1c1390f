// The runs of hub_list_trash and hub_restore_from_trash (spec 002 §2 "Trash
// and Completed": read them, restore a trashed record; 004 §4.6). The list
// gives the turn's space's records in Trash, every synced kind, last deleted
// first, with the kind and id a restore takes; a record of a synced kind,
// soft-deleted in the turn's space, comes back with `<kind>.restore`; Undo
// puts it back in Trash. (Completed work is hub_list_tasks' status "done".) The id is
// resolved in ToolContext::space_id only, so a record of another space is
// "nothing in Trash with id ..." and never evidence of access; a kind the
// hub does not sync (files, events, ...) is refused by name.
//
// Thread-safety: the hooks are stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_TRASH_TRASH_TOOL_RUNS_H_
#define ENSEMBLE_CORE_TRASH_TRASH_TOOL_RUNS_H_

#include <string>

#include "core/tools/tool.h"

namespace ensemble::core::trash {

// The hooks of hub_list_trash, hub_restore_from_trash, which their tool table gives them
// (trash_tools.cc).
Result<nlohmann::json> RunListTrash(tools::ToolCall& call);
Result<std::string> PreviewRestore(const tools::ToolCall& call);
Result<nlohmann::json> RunRestore(tools::ToolCall& call);

}  // namespace ensemble::core::trash

#endif  // ENSEMBLE_CORE_TRASH_TRASH_TOOL_RUNS_H_
