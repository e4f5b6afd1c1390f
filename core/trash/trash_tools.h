// The Trash tools' table: list what is in Trash and restore from it, over
// every synced kind of the build; registered by the assistant with every
// other table.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_TRASH_TRASH_TOOLS_H_
#define ENSEMBLE_CORE_TRASH_TRASH_TOOLS_H_

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::trash {

// Registers the Trash tools into `registry`, their kind enums naming
// `kinds` (every synced kind: what Trash holds); fails on the first refusal.
Status RegisterTrashTools(tools::ToolRegistry& registry, records::RecordKinds kinds);

}  // namespace ensemble::core::trash

#endif  // ENSEMBLE_CORE_TRASH_TRASH_TOOLS_H_
