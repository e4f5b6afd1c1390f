// The runs of the routine tools (spec 002 §2 "Routines": list, add, change,
// pause, resume, delete): hub_list_routines, hub_create_routine,
// hub_update_routine and hub_delete_routine. Definitions are in
// routine_tools.cc, whose table gives them these hooks. A routine is the record of
// core/routines; only the space's owner writes one. Create's Undo deletes
// it, an update's puts the previous values back (based on the written ones),
// delete's restores it from Trash.
//
// Thread-safety: the hooks are stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_ROUTINES_ROUTINE_TOOL_RUNS_H_
#define ENSEMBLE_CORE_ROUTINES_ROUTINE_TOOL_RUNS_H_

#include <string>

#include "core/tools/tool.h"

namespace ensemble::core::routines {

// The hooks of hub_list_routines, hub_create_routine, hub_update_routine, hub_delete_routine, which
// their tool table gives them (routine_tools.cc).
Result<nlohmann::json> RunListRoutines(tools::ToolCall& call);
Result<std::string> PreviewCreateRoutine(const tools::ToolCall& call);
Result<nlohmann::json> RunCreateRoutine(tools::ToolCall& call);
Result<std::string> PreviewUpdateRoutine(const tools::ToolCall& call);
Result<nlohmann::json> RunUpdateRoutine(tools::ToolCall& call);
Result<std::string> PreviewDeleteRoutine(const tools::ToolCall& call);
Result<nlohmann::json> RunDeleteRoutine(tools::ToolCall& call);

}  // namespace ensemble::core::routines

#endif  // ENSEMBLE_CORE_ROUTINES_ROUTINE_TOOL_RUNS_H_
