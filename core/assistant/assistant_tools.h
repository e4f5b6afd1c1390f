// Internal to core/assistant: the table of the assistant's own tools (the
// playbooks, workflows, approvals and settings), registered by
// RegisterHubTools (hub_tools.h) after every domain's.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_ASSISTANT_ASSISTANT_TOOLS_H_
#define ENSEMBLE_CORE_ASSISTANT_ASSISTANT_TOOLS_H_

#include <string_view>

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::assistant {

// The playbook reader's name: the turn loop answers it itself (turn_loop.h).
inline constexpr std::string_view kHowToTool = "hub_how_to";

// Registers the assistant's own tools into `registry`; fails on the first
// refusal.
Status RegisterAssistantTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_ASSISTANT_TOOLS_H_
