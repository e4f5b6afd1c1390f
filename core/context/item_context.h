// Internal to the context tools (search_tool_runs.h): the record kinds the tools' schemas name that
// this hub does not keep as records yet (meetings, files, personal skills, calendar events), which
// both tools report rather than search.
//
// Thread-safety: stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_CONTEXT_ITEM_CONTEXT_H_
#define ENSEMBLE_CORE_CONTEXT_ITEM_CONTEXT_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/tools/tool.h"

namespace ensemble::core::context {

// True for a kind of the schemas' RecordKind enum kept nowhere in the hub.
bool IsUnkeptKind(std::string_view kind);
// The unkept kinds among `kinds` (an array of kind names), in its order.
std::vector<std::string> UnkeptKinds(const nlohmann::json& kinds);
// "Meetings and files are not kept in this hub yet".
std::string UnkeptText(const std::vector<std::string>& kinds);

}  // namespace ensemble::core::context

#endif  // ENSEMBLE_CORE_CONTEXT_ITEM_CONTEXT_H_
