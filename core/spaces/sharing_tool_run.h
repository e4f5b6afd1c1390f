// hub_read_sharing (spec 002 §2 "Spaces and sharing": the assistant reads
// spaces and sharing, one space per chat): the turn's space, the person's
// role in it, its members and roles, and the person's other spaces. Sharing
// itself stays the person's own (core/spaces/space_admin.h), so no tool
// writes it.
//
// Thread-safety: stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_SPACES_SHARING_TOOL_RUN_H_
#define ENSEMBLE_CORE_SPACES_SHARING_TOOL_RUN_H_

#include <string>

#include "core/tools/tool.h"

namespace ensemble::core::spaces {

// The hooks of hub_read_sharing, which their tool table gives them
// (sharing_tools.cc).
Result<nlohmann::json> RunReadSharing(tools::ToolCall& call);

}  // namespace ensemble::core::spaces

#endif  // ENSEMBLE_CORE_SPACES_SHARING_TOOL_RUN_H_
