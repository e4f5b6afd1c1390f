// The runs of the tools about the person's own account rather than the
// space's records (spec 002 §2 "Settings and models", "Needs me"):
//   hub_get_settings     the allowlisted settings of one area, or all;
//   hub_find_setting     settings whose name or description holds the words;
//   hub_list_model_choices  the model the person's turns call (ToolContext::
//                        model), the efforts it takes, and the built-in
//                        planner;
//   hub_update_settings  changes allowlisted keys (always waits for Apply);
//   hub_list_approvals   what waits for the person on Needs me.
// Definitions and schemas are in assistant_tools.cc, whose
// table gives them these hooks. Settings belong to ToolContext::settings_account and
// are not synced records: hub_update_settings writes them in the caller's
// transaction (Apply's), checked whole before anything is written, and has
// no Undo (a later change sets them back). Where the context keeps no
// settings (the browser's replica) these tools fail with FAILED_PRECONDITION
// saying settings are changed online.
//
// Thread-safety: the hooks are stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_ASSISTANT_ACCOUNT_TOOL_RUNS_H_
#define ENSEMBLE_CORE_ASSISTANT_ACCOUNT_TOOL_RUNS_H_

#include <string>

#include "core/tools/tool.h"

namespace ensemble::core::assistant {

// hub_list_approvals without a limit.
inline constexpr int kDefaultApprovalsListed = 20;

// The hooks of hub_get_settings, hub_find_setting, hub_update_settings, hub_list_model_choices,
// hub_list_approvals, which their tool table gives them (assistant_tools.cc).
namespace account_tools {
Result<nlohmann::json> RunGetSettings(tools::ToolCall& call);
Result<nlohmann::json> RunFindSetting(tools::ToolCall& call);
Status PrepareUpdateSettings(tools::ToolCall& call);
Result<std::string> PreviewUpdateSettings(const tools::ToolCall& call);
Result<nlohmann::json> RunUpdateSettings(tools::ToolCall& call);
Result<nlohmann::json> RunListModelChoices(tools::ToolCall& call);
Result<nlohmann::json> RunListApprovals(tools::ToolCall& call);
}  // namespace account_tools

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_ACCOUNT_TOOL_RUNS_H_
