// The connected apps' tools: two tables, each registered by the assistant
// where the tool list has always had them: hub_import_people right after
// the people tools (its area is people), the app tools (area apps) after
// the file tools. Hooks in connection_tool_runs.h.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_CONNECTIONS_CONNECTION_TOOLS_H_
#define ENSEMBLE_CORE_CONNECTIONS_CONNECTION_TOOLS_H_

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::connections {

// Registers hub_import_people; fails on a refusal.
Status RegisterImportTools(tools::ToolRegistry& registry);
// Registers the connected-app tools; fails on the first refusal.
Status RegisterAppTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::connections

#endif  // ENSEMBLE_CORE_CONNECTIONS_CONNECTION_TOOLS_H_
