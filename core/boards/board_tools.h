// The board tools' table: each tool's name, schema, flags and hooks
// (board_tool_runs.h, layout_tool_runs.h), registered by the assistant with
// every other domain's.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_BOARDS_BOARD_TOOLS_H_
#define ENSEMBLE_CORE_BOARDS_BOARD_TOOLS_H_

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::boards {

// Registers the board tools into `registry`; fails on the first refusal.
Status RegisterBoardTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::boards

#endif  // ENSEMBLE_CORE_BOARDS_BOARD_TOOLS_H_
