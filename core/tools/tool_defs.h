// Building a tool's definition: the read and write shapes every domain's
// table of tools is written in, and registering such a table with each
// write's least role (tool_permissions.h).
//
// Thread-safety: the builders are stateless; RegisterAll is as
// ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_TOOLS_TOOL_DEFS_H_
#define ENSEMBLE_CORE_TOOLS_TOOL_DEFS_H_

#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/tools/tool.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::tools {

// A tool's one table entry: what it is and the hooks that do its work.
ToolDef Read(std::string_view name, std::string_view area, std::string_view description,
             nlohmann::json schema, Hooks hooks = {});
ToolDef Write(std::string_view name, std::string_view area, std::string_view description,
              nlohmann::json schema, Risk risk, bool undoable, Hooks hooks = {});
// The write always waits for Apply.
ToolDef Hold(ToolDef def);
// Network work: never inside a Hub transaction.
ToolDef Outside(ToolDef def);
// A content write a guest of a shared space may run too (000 §7).
ToolDef ForGuests(ToolDef def);
// A write of an otherwise shared area that stays the space owner's.
ToolDef ForOwner(ToolDef def);

// Registers each of `defs`, a write with its least role (LeastRoleFor);
// fails on the first refusal.
Status RegisterAll(ToolRegistry& registry, std::vector<ToolDef> defs);

}  // namespace ensemble::core::tools

#endif  // ENSEMBLE_CORE_TOOLS_TOOL_DEFS_H_
