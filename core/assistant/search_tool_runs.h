// hub_search_work and hub_item_context (spec 002 §2 "Context around a
// record (the graph)"): one search over the saved work of the turn's space,
// and what surrounds one record (its project, people, page, linked tasks,
// boards and comments). Both read only the turn's space, so an id of another
// space is "no <kind> with id ..." and never evidence of access.
//
// Thread-safety: stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_ASSISTANT_SEARCH_TOOL_RUNS_H_
#define ENSEMBLE_CORE_ASSISTANT_SEARCH_TOOL_RUNS_H_

#include <cstddef>
#include <string>

#include "core/tools/tool.h"

namespace ensemble::core::assistant {

// Matches one search returns at most, whatever limit asks (a search is a
// way in, not a listing: the list tools page through a kind).
inline constexpr std::size_t kMaxSearchResults = 50;
// Characters of a matching description or body shown around the match.
inline constexpr std::size_t kSearchSnippetChars = 160;
// Records of one link kind hub_item_context names (their total is given).
inline constexpr std::size_t kMaxContextItems = 20;

// The hooks of hub_search_work, hub_item_context, which their tool table gives them
// (tools_<area>.cc).
namespace search_tools {
Result<nlohmann::json> RunSearchWork(tools::ToolCall& call);
Result<nlohmann::json> RunItemContext(tools::ToolCall& call);
}  // namespace search_tools

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_SEARCH_TOOL_RUNS_H_
