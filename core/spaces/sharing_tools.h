// The sharing tool's table: who the open space is shared with, read only
// (sharing is the person's own, in Sharing); registered by the assistant
// with every other table.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_SPACES_SHARING_TOOLS_H_
#define ENSEMBLE_CORE_SPACES_SHARING_TOOLS_H_

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::spaces {

// Registers hub_read_sharing into `registry`; fails on a refusal.
Status RegisterSharingTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::spaces

#endif  // ENSEMBLE_CORE_SPACES_SHARING_TOOLS_H_
