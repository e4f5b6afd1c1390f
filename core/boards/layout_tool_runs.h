// The board overview's layout tools (spec 002 §2 "Board overview and
// layouts"): hub_read_layout, for every member, and hub_edit_layout, the
// space owner's only (core/tools/tool_permissions.h; the sync check refuses anyone
// else too). The layout is core/boards/board_layout.h's record: tiles
// [{id, x, y, w, h}] placing the space's boards on a grid, one per space.
//
// hub_edit_layout takes the complete list of tiles and the version it was
// based on (0: there is no layout yet). prepare resolves each tile's board
// (id, link or title, among the live boards of ctx.space_id: another
// space's is NOT_FOUND) and fills a tile's missing place (x 0, y its index,
// w and h 1), so Apply writes exactly what the preview showed; a layout
// changed since that version is SAVE_CONFLICT. Undo puts the previous tiles
// back (or removes a layout the edit made).
//
// Thread-safety: the hooks are stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_BOARDS_LAYOUT_TOOL_RUNS_H_
#define ENSEMBLE_CORE_BOARDS_LAYOUT_TOOL_RUNS_H_

#include <string>

#include "core/tools/tool.h"

namespace ensemble::core::boards {

// The hooks of hub_read_layout, hub_edit_layout, which their tool table gives them
// (board_tools.cc).
Result<nlohmann::json> RunReadLayout(tools::ToolCall& call);
Status PrepareEditLayout(tools::ToolCall& call);
Result<std::string> PreviewEditLayout(const tools::ToolCall& call);
Result<nlohmann::json> RunEditLayout(tools::ToolCall& call);

}  // namespace ensemble::core::boards

#endif  // ENSEMBLE_CORE_BOARDS_LAYOUT_TOOL_RUNS_H_
