// The view open beside the chat, as the client describes it with a message
// (POST .../messages {surface}), and the run of hub_read_surface, which reads
// it (spec 002 §2: "hub_read_surface reads the open one"). The description
// is checked here, in the core, so the browser's replica and the server agree
// on it:
//   {path?: "/tasks", kind?: "desk"|"board"|"context"|"widgets",
//    boardId?: id, filters?: [{name, value}], shownIds?: [id], selectedIds?: [id]}
// Ids are only what the view shows: hub_read_surface resolves each among the
// live tasks of the turn's space (a board by its id there), so an id of
// another space, or of nothing, is left out and never read.
//
// Thread-safety: stateless functions; as the ToolContext given.

#ifndef ENSEMBLE_CORE_CONTEXT_SURFACE_TOOL_RUN_H_
#define ENSEMBLE_CORE_CONTEXT_SURFACE_TOOL_RUN_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "core/base/status.h"
#include "core/tools/tool.h"

namespace ensemble::core::context {

// A view lists more than this only while scrolled; the rest is not "shown".
inline constexpr std::size_t kMaxSurfaceIds = 200;
inline constexpr std::size_t kMaxSurfaceFilters = 10;
inline constexpr std::size_t kMaxSurfaceTextChars = 200;

// The surface checked and normalized (only the fields above, ids valid and
// distinct); INVALID_ARGUMENT naming the field for anything else. Null or
// an empty object is "no view": null.
Result<nlohmann::json> CheckSurface(const nlohmann::json& surface);

// The hooks of hub_read_surface, which their tool table gives them
// (context_tools.cc).
Result<nlohmann::json> RunReadSurface(tools::ToolCall& call);

}  // namespace ensemble::core::context

#endif  // ENSEMBLE_CORE_CONTEXT_SURFACE_TOOL_RUN_H_
