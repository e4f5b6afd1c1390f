// hub_read_sharing (spec 002 §2 "Spaces and sharing": the assistant reads
// spaces and sharing, one space per chat): the turn's space, the person's
// role in it, its members and roles, and the person's other spaces. Sharing
// itself stays the person's own (core/spaces/space_admin.h), so no tool
// writes it.
//
// Thread-safety: stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_ASSISTANT_SHARING_TOOL_RUN_H_
#define ENSEMBLE_CORE_ASSISTANT_SHARING_TOOL_RUN_H_

#include "core/tools/tool.h"

namespace ensemble::core::assistant {

// Attaches run to hub_read_sharing.
void AttachSharingToolHooks(tools::ToolDef& def);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_SHARING_TOOL_RUN_H_
