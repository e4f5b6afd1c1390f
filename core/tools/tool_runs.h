// What every tool's hooks share, whatever their domain: the call's context
// checked (a store, a space, an object input, and membership of the space
// for a named account), the input's fields of a known type, a title quoted
// as summaries quote it, a date as a person reads it, and an Undo list.
//
// Thread-safety: stateless functions; as the ToolContext given.

#ifndef ENSEMBLE_CORE_TOOLS_TOOL_RUNS_H_
#define ENSEMBLE_CORE_TOOLS_TOOL_RUNS_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/tools/tool.h"
#include "core/tools/tool_context.h"

namespace ensemble::core::tools {

// The call's context, checked: a store, a space, an object input; and, for a
// named account, membership of the space (NOT_FOUND otherwise, as for a
// space that does not exist).
Result<ToolContext*> ReadableContext(const ToolCall& call);
// The same, with a write sink (FAILED_PRECONDITION without one).
Result<ToolContext*> WritableContext(const ToolCall& call);

// Input fields of a known type, or the fallback.
std::string StringIn(const nlohmann::json& input, const char* key);
int IntIn(const nlohmann::json& input, const char* key, int fallback);
bool BoolIn(const nlohmann::json& input, const char* key, bool fallback);

// “Title”, bounded as summaries bound titles.
std::string Quoted(std::string_view title);
// "3 Dec" ("3 Dec 2027" outside today's year).
std::string DayText(const std::string& date, const std::string& today);
// An undo entry: [{name, args}].
nlohmann::json UndoJson(std::vector<Mutation> mutations);

}  // namespace ensemble::core::tools

#endif  // ENSEMBLE_CORE_TOOLS_TOOL_RUNS_H_
