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
#include "core/tools/tool_defs.h"

namespace ensemble::core::assistant {

// The builders (core/tools/tool_defs.h), as the area files name them.
using tools::Hold;
using tools::Outside;
using tools::Read;
using tools::RegisterAll;
using tools::Write;

Status RegisterTaskTools(tools::ToolRegistry& registry);
Status RegisterBoardTools(tools::ToolRegistry& registry);
Status RegisterMeetingTools(tools::ToolRegistry& registry);
Status RegisterSkillTools(tools::ToolRegistry& registry);
Status RegisterCalendarTools(tools::ToolRegistry& registry);
Status RegisterFileTools(tools::ToolRegistry& registry);
Status RegisterWebTools(tools::ToolRegistry& registry);
Status RegisterSettingsTools(tools::ToolRegistry& registry);
// `kinds`: the build's synced kinds, which Trash holds.
Status RegisterCoreTools(tools::ToolRegistry& registry, records::RecordKinds kinds);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_HUB_TOOL_AREAS_H_
