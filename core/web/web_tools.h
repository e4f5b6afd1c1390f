// The web tools' table (the public web): each tool's name, schema and flags,
// registered by the assistant with every other domain's. The tools are
// declared ahead of the part of the product that runs them, so no turn is
// offered them yet (assistant::TurnCanRun).
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_WEB_WEB_TOOLS_H_
#define ENSEMBLE_CORE_WEB_WEB_TOOLS_H_

#include <string_view>

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::web {

// The search tool's name: the turn loop answers it itself (turn_loop.h).
inline constexpr std::string_view kWebSearchTool = "hub_web_search";

// Registers the web tools into `registry`; fails on the first refusal.
Status RegisterWebTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::web

#endif  // ENSEMBLE_CORE_WEB_WEB_TOOLS_H_
