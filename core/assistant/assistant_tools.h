// Internal to core/assistant: the table of the assistant's own tools (the
// playbooks, workflows, approvals and settings), registered by
// RegisterHubTools (hub_tools.h) after every domain's.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_ASSISTANT_ASSISTANT_TOOLS_H_
#define ENSEMBLE_CORE_ASSISTANT_ASSISTANT_TOOLS_H_

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::assistant {

// Registers the assistant's own tools into `registry`; fails on the first
// refusal.
Status RegisterAssistantTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_ASSISTANT_TOOLS_H_
