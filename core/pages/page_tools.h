// The pages tools' table: each tool's name, schema, flags and hooks
// (page_tool_runs.h), registered by the assistant with every other domain's.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_PAGES_PAGE_TOOLS_H_
#define ENSEMBLE_CORE_PAGES_PAGE_TOOLS_H_

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::pages {

// Registers the pages tools into `registry`; fails on the first refusal.
Status RegisterPageTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::pages

#endif  // ENSEMBLE_CORE_PAGES_PAGE_TOOLS_H_
