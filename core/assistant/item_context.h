// Internal to search_tool_runs.cc: hub_item_context's run, and the record
// kinds the tools' schemas name that this hub does not keep as records yet
// (meetings, files, personal skills, calendar events), which both tools
// report rather than search.
//
// Thread-safety: stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_ASSISTANT_ITEM_CONTEXT_H_
#define ENSEMBLE_CORE_ASSISTANT_ITEM_CONTEXT_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/tools/tool.h"

namespace ensemble::core::assistant::search_tools {

// True for a kind of the schemas' RecordKind enum kept nowhere in the hub.
bool IsUnkeptKind(std::string_view kind);
// The unkept kinds among `kinds` (an array of kind names), in its order.
std::vector<std::string> UnkeptKinds(const nlohmann::json& kinds);
// "Meetings and files are not kept in this hub yet".
std::string UnkeptText(const std::vector<std::string>& kinds);

// hub_item_context {kind, id}: the record (in Trash or not) with what links
// to it and what it links to, each list at most kMaxContextItems long with
// its total.
Result<nlohmann::json> RunItemContext(tools::ToolCall& call);

// hub_search_work {query, kinds?, limit?}.
Result<nlohmann::json> RunSearchWork(tools::ToolCall& call);

}  // namespace ensemble::core::assistant::search_tools

#endif  // ENSEMBLE_CORE_ASSISTANT_ITEM_CONTEXT_H_
