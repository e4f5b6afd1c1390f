// hub_search_work and hub_item_context (spec 002 §2 "Context around a
// record (the graph)"): one search over the saved work of the turn's space,
// and what surrounds one record (its project, people, page, linked tasks,
// boards and comments). Both read only the turn's space, so an id of another
// space is "no <kind> with id ..." and never evidence of access.
//
// Thread-safety: stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_CONTEXT_SEARCH_TOOL_RUNS_H_
#define ENSEMBLE_CORE_CONTEXT_SEARCH_TOOL_RUNS_H_

#include <cstddef>
#include <optional>
#include <string>

#include "core/refs/record_handle.h"
#include "core/tools/tool.h"

namespace ensemble::core::context {

// Matches one search returns at most, whatever limit asks (a search is a
// way in, not a listing: the list tools page through a kind).
inline constexpr std::size_t kMaxSearchResults = 50;
// Characters of a matching description or body shown around the match.
inline constexpr std::size_t kSearchSnippetChars = 160;

// A search as GET /api/context/search and the app's search box ask it.
struct SearchRequest {
  std::string query;
  nlohmann::json kinds = nlohmann::json::array();  // Kind names; empty: every kind.
  std::size_t limit = 20;
  // The record the search is near: results it links to, its scored
  // relations name or in its project rank higher (spec §5).
  std::optional<refs::RecordHandle> near;
};

// A SearchRequest from a route's or the app's parameters: q (required, at
// most tools::schema::kMaxQueryChars), kinds (comma-separated kind names),
// limit (1 to kMaxSearchResults), near (a record handle, or empty);
// INVALID_ARGUMENT names what is wrong.
Result<SearchRequest> ParseSearchRequest(std::string_view q, std::string_view kinds,
                                         std::string_view limit, std::string_view near = {});

// {summary, data: {results, total, more?, notKept?}} of `request` in the context's
// space, ranked (search_rank.h); NOT_FOUND for a space the account is not in,
// or for a near record that is not a live record of the space.
Result<nlohmann::json> SearchWork(tools::ToolContext& ctx, const SearchRequest& request);

// The hooks their tool table (context_tools.cc) gives them.
// hub_search_work {query, kinds?, limit?}.
Result<nlohmann::json> RunSearchWork(tools::ToolCall& call);
// hub_item_context {kind, id, rel?, limit?, offset?}: without rel, the
// record and its work packet (packet.h); with rel, that relation's page of
// ItemNeighbors (neighbors.h); a summary sentence either way.
Result<nlohmann::json> RunItemContext(tools::ToolCall& call);

}  // namespace ensemble::core::context

#endif  // ENSEMBLE_CORE_CONTEXT_SEARCH_TOOL_RUNS_H_
