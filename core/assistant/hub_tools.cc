#include "core/assistant/hub_tools.h"

#include <set>
#include <string>
#include <utility>

#include "core/assistant/hub_tool_areas.h"
#include "core/assistant/turn_loop.h"
#include "core/assistant/workflow.h"
#include "core/comments/comment_tools.h"
#include "core/connections/connection_tools.h"
#include "core/desk/desk_tools.h"
#include "core/pages/page_tools.h"
#include "core/people/people_tools.h"
#include "core/projects/project_tools.h"
#include "core/reminders/reminder_tools.h"
#include "core/routines/routine_tools.h"

namespace ensemble::core::assistant {

Status RegisterHubTools(tools::ToolRegistry& registry, records::RecordKinds kinds) {
  using RegisterFn = Status (*)(tools::ToolRegistry&);
  for (RegisterFn fn :
       {RegisterTaskTools, RegisterBoardTools, projects::RegisterProjectTools,
        pages::RegisterPageTools, comments::RegisterCommentTools, people::RegisterPeopleTools,
        connections::RegisterImportTools, RegisterMeetingTools, reminders::RegisterReminderTools,
        routines::RegisterRoutineTools, desk::RegisterDeskTools, RegisterSkillTools,
        RegisterCalendarTools, RegisterFileTools, connections::RegisterAppTools, RegisterWebTools,
        RegisterSettingsTools}) {
    ENSEMBLE_RETURN_IF_ERROR(fn(registry));
  }
  return RegisterCoreTools(registry, kinds);
}

bool TurnCanRun(const tools::ToolDef& def) {
  return def.run || def.name == kHowToTool || def.name == kWorkflowToolName;
}

std::vector<std::string_view> RunnableWriteAreas(const tools::ToolRegistry& registry,
                                                 std::span<const std::string_view> areas) {
  std::set<std::string, std::less<>> runnable;
  for (const std::string& name : registry.names()) {
    const tools::ToolDef* def = registry.Find(name);
    if (def->is_write && TurnCanRun(*def)) runnable.insert(def->area);
  }
  std::vector<std::string_view> out;
  for (std::string_view area : areas) {
    if (runnable.contains(area)) out.push_back(area);
  }
  return out;
}

}  // namespace ensemble::core::assistant
