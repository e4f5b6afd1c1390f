// The assistant's own tools (playbooks/map.md, playbooks/settings.md): the
// map and playbooks, workflows, what waits for Apply, and the person's
// allowlisted settings and model choice, whose changes always wait for Apply
// (which keys may change is checked by the run). The other tools of no one
// domain are in core/context (search, a record's context, the open view,
// the recap), core/trash and core/spaces (sharing).

#include "core/assistant/assistant_tools.h"

#include <utility>
#include <vector>

#include "core/assistant/account_tool_runs.h"
#include "core/assistant/workflow.h"
#include "core/tools/tool_table.h"

namespace ensemble::core::assistant {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

constexpr std::size_t kMaxSettingKeyChars = 200;
constexpr std::size_t kMaxSettingChanges = 10;

json StepId() {
  return {{"type", "string"},
          {"pattern", "^[a-z][a-z0-9_]*$"},
          {"maxLength", kMaxWorkflowStepIdLength},
          {"description", "Step id later steps refer to with {\"$ref\": \"<id>.<path>\"}"}};
}

}  // namespace

Status RegisterAssistantTools(tools::ToolRegistry& registry) {
  std::vector<tools::ToolDef> defs = {
      Read("hub_get_settings", areas::kSettings, "Read the settings of one area, or all.",
           Object({{"area",
                    Enum({"assistant", "appearance", "notifications", "calendar", "general"})}}),
           {.run = account_tools::RunGetSettings}),
      Read("hub_find_setting", areas::kSettings,
           "Find settings by words; gives their keys and values.",
           Object({{"query", Text(kMaxQueryChars)}}, {"query"}),
           {.run = account_tools::RunFindSetting}),
      Read("hub_list_model_choices", areas::kSettings,
           "List the models and efforts this account can choose.", Object(json::object()),
           {.run = account_tools::RunListModelChoices}),
      Hold(Write("hub_update_settings", areas::kSettings,
                 "Change allowlisted settings or the model choice; waits for Apply.",
                 Object({{"changes", Array(Object({{"key", Text(kMaxSettingKeyChars)},
                                                   {"value", {{"description", "The new value"}}}},
                                                  {"key", "value"}),
                                           kMaxSettingChanges, {}, 1)}},
                        {"changes"}),
                 Risk::kHigh, false,
                 {.prepare = account_tools::PrepareUpdateSettings,
                  .preview = account_tools::PreviewUpdateSettings,
                  .run = account_tools::RunUpdateSettings})),
      Read(kHowToTool, areas::kCore,
           "Load a playbook by name for how to work in an area; \"map\" lists them all.",
           Object({{"name", Text(40, "Playbook name, or map")}}, {"name"})),
      Hold(
          Write(kWorkflowToolName, areas::kWorkflows,
                "Propose 2-12 ordered writes under one Apply; later steps may use earlier results.",
                Object({{"title", Str(200)},
                        {"steps", Array(Object({{"id", StepId()},
                                                {"tool", Text(64)},
                                                {"input", {{"type", "object"}}}},
                                               {"id", "tool", "input"}),
                                        kMaxWorkflowSteps, {}, kMinWorkflowSteps)}},
                       {"steps"}),
                Risk::kHigh, false)),
      Read("hub_list_approvals", areas::kCore, "List what waits for the person on Needs me.",
           Object({{"limit", Int(1, kMaxListLimit)}}), {.run = account_tools::RunListApprovals}),
  };
  return tools::RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::assistant
