// The context tools' table: search over the saved work, what surrounds one
// record, the view the person has open and the weekly recap. They read
// across every domain, so they sit above them; registered by the assistant
// with every other table.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_CONTEXT_CONTEXT_TOOLS_H_
#define ENSEMBLE_CORE_CONTEXT_CONTEXT_TOOLS_H_

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::context {

// Registers the context tools into `registry`; fails on the first refusal.
Status RegisterContextTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::context

#endif  // ENSEMBLE_CORE_CONTEXT_CONTEXT_TOOLS_H_
