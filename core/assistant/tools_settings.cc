// Allowlisted settings and the model choice (playbooks/settings.md). Changes
// always wait for Apply; which keys may change is checked by the run.

#include "core/assistant/account_tool_runs.h"
#include "core/assistant/hub_tool_areas.h"
#include "core/tools/tool_schema.h"

namespace ensemble::core::assistant {
namespace {

using namespace tools::schema;  // NOLINT
using tools::Risk;

constexpr std::size_t kMaxSettingKeyChars = 200;
constexpr std::size_t kMaxSettingChanges = 10;

}  // namespace

Status RegisterSettingsTools(tools::ToolRegistry& registry) {
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
  };
  return RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::assistant
