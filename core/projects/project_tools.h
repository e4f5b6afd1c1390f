// The projects tools' table: each tool's name, schema, flags and hooks
// (project_tool_runs.h), registered by the assistant with every other domain's.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_PROJECTS_PROJECT_TOOLS_H_
#define ENSEMBLE_CORE_PROJECTS_PROJECT_TOOLS_H_

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::projects {

// Registers the projects tools into `registry`; fails on the first refusal.
Status RegisterProjectTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::projects

#endif  // ENSEMBLE_CORE_PROJECTS_PROJECT_TOOLS_H_
