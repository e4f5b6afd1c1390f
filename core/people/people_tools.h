// The people tools' table: each tool's name, schema, flags and hooks
// (people_tool_runs.h), registered by the assistant with every other domain's.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_PEOPLE_PEOPLE_TOOLS_H_
#define ENSEMBLE_CORE_PEOPLE_PEOPLE_TOOLS_H_

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::people {

// Registers the people tools into `registry`; fails on the first refusal.
Status RegisterPeopleTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::people

#endif  // ENSEMBLE_CORE_PEOPLE_PEOPLE_TOOLS_H_
