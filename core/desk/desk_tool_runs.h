// The runs of the desk-list tools (spec 002 §2 "Today, recap, profile
// lists": desk lists list, add, change, remove), the space owner's own:
// hub_list_desk_lists, hub_create_desk_list, hub_update_desk_list (title,
// and lines added, ticked, unticked, reworded or removed in one call) and
// hub_delete_desk_list, each write with Undo. Definitions are in
// desk_tools.cc, whose table gives them these hooks.
//
// Every id (a list, a line) is resolved among the live records of
// ctx.space_id, and a line must be on the list named; the mutations are the
// records' (core/desk), so only the space's owner can write them.
//
// Thread-safety: the hooks are stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_DESK_DESK_TOOL_RUNS_H_
#define ENSEMBLE_CORE_DESK_DESK_TOOL_RUNS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/tools/tool.h"

namespace ensemble::core::desk {

// Lines one hub_create_desk_list or hub_update_desk_list call may name in
// each of its lists (add, check, ...): a call is an edit, not an import.
inline constexpr size_t kMaxDeskLinesPerCall = 50;
// The gap the tools leave between the positions of lines they add, so a
// client can put a line between two without renumbering.
inline constexpr int64_t kDeskLinePositionStep = 1024;

// The hooks of hub_list_desk_lists, hub_create_desk_list, hub_update_desk_list,
// hub_delete_desk_list, which their tool table gives them (desk_tools.cc).
Result<nlohmann::json> RunListDeskLists(tools::ToolCall& call);
Result<std::string> PreviewCreateDeskList(const tools::ToolCall& call);
Result<nlohmann::json> RunCreateDeskList(tools::ToolCall& call);
Result<std::string> PreviewUpdateDeskList(const tools::ToolCall& call);
Result<nlohmann::json> RunUpdateDeskList(tools::ToolCall& call);
Result<std::string> PreviewDeleteDeskList(const tools::ToolCall& call);
Result<nlohmann::json> RunDeleteDeskList(tools::ToolCall& call);

}  // namespace ensemble::core::desk

#endif  // ENSEMBLE_CORE_DESK_DESK_TOOL_RUNS_H_
