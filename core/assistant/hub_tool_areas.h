// Internal to core/assistant: one registration function per area file
// (tools_<area>.cc), and the builders they share.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_ASSISTANT_HUB_TOOL_AREAS_H_
#define ENSEMBLE_CORE_ASSISTANT_HUB_TOOL_AREAS_H_

#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "core/assistant/hub_tools.h"
#include "core/records/record_kind.h"
#include "core/tools/tool.h"

namespace ensemble::core::assistant {

tools::ToolDef Read(std::string_view name, std::string_view area, std::string_view description,
                    nlohmann::json schema);
tools::ToolDef Write(std::string_view name, std::string_view area, std::string_view description,
                     nlohmann::json schema, tools::Risk risk, bool undoable);
// The write always waits for Apply.
tools::ToolDef Hold(tools::ToolDef def);
// Network work: never inside a Hub transaction.
tools::ToolDef Outside(tools::ToolDef def);

Status RegisterAll(tools::ToolRegistry& registry, std::vector<tools::ToolDef> defs);

Status RegisterTaskTools(tools::ToolRegistry& registry);
Status RegisterBoardTools(tools::ToolRegistry& registry);
Status RegisterProjectTools(tools::ToolRegistry& registry);
Status RegisterPageTools(tools::ToolRegistry& registry);
Status RegisterPeopleTools(tools::ToolRegistry& registry);
Status RegisterMeetingTools(tools::ToolRegistry& registry);
Status RegisterReminderTools(tools::ToolRegistry& registry);
Status RegisterRoutineTools(tools::ToolRegistry& registry);
Status RegisterDeskTools(tools::ToolRegistry& registry);
Status RegisterSkillTools(tools::ToolRegistry& registry);
Status RegisterCalendarTools(tools::ToolRegistry& registry);
Status RegisterFileTools(tools::ToolRegistry& registry);
Status RegisterAppTools(tools::ToolRegistry& registry);
Status RegisterWebTools(tools::ToolRegistry& registry);
Status RegisterSettingsTools(tools::ToolRegistry& registry);
// `kinds`: the build's synced kinds, which Trash holds.
Status RegisterCoreTools(tools::ToolRegistry& registry, records::RecordKinds kinds);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_HUB_TOOL_AREAS_H_
