// The run of hub_restore_from_trash (spec 002 §2 "Trash and Completed";
// 004 §4.6): a record of a synced kind, soft-deleted in the turn's space,
// comes back with `<kind>.restore`; Undo puts it back in Trash. The id is
// resolved in ToolContext::space_id only, so a record of another space is
// "nothing in Trash with id ..." and never evidence of access; a kind the
// hub does not sync (files, events, ...) is refused by name.
//
// Thread-safety: the hooks are stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_ASSISTANT_TRASH_TOOL_RUNS_H_
#define ENSEMBLE_CORE_ASSISTANT_TRASH_TOOL_RUNS_H_

#include "core/tools/tool.h"

namespace ensemble::core::assistant {

// Sets the hooks of `def` when it is hub_restore_from_trash.
void AttachTrashToolHooks(tools::ToolDef& def);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_TRASH_TOOL_RUNS_H_
