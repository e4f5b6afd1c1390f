#include "core/assistant/hub_tools.h"

#include <set>
#include <string>
#include <utility>

#include "core/assistant/assistant_tools.h"
#include "core/assistant/turn_loop.h"
#include "core/assistant/workflow.h"
#include "core/boards/board_tools.h"
#include "core/calendar/tools/calendar_tools.h"
#include "core/comments/comment_tools.h"
#include "core/connections/connection_tools.h"
#include "core/context/context_tools.h"
#include "core/desk/desk_tools.h"
#include "core/files/file_tools.h"
#include "core/meetings/meeting_tools.h"
#include "core/pages/page_tools.h"
#include "core/people/people_tools.h"
#include "core/projects/project_tools.h"
#include "core/reminders/reminder_tools.h"
#include "core/routines/routine_tools.h"
#include "core/skills/skill_tools.h"
#include "core/spaces/sharing_tools.h"
#include "core/tasks/task_tools.h"
#include "core/trash/trash_tools.h"
#include "core/web/web_tools.h"

namespace ensemble::core::assistant {

Status RegisterHubTools(tools::ToolRegistry& registry, records::RecordKinds kinds) {
  using RegisterFn = Status (*)(tools::ToolRegistry&);
  for (RegisterFn fn :
       {tasks::RegisterTaskTools, boards::RegisterBoardTools, projects::RegisterProjectTools,
        pages::RegisterPageTools, comments::RegisterCommentTools, people::RegisterPeopleTools,
        connections::RegisterImportTools, meetings::RegisterMeetingTools,
        reminders::RegisterReminderTools, routines::RegisterRoutineTools, desk::RegisterDeskTools,
        skills::RegisterSkillTools, calendar::RegisterCalendarTools, files::RegisterFileTools,
        connections::RegisterAppTools, web::RegisterWebTools, RegisterAssistantTools,
        context::RegisterContextTools, spaces::RegisterSharingTools}) {
    ENSEMBLE_RETURN_IF_ERROR(fn(registry));
  }
  return trash::RegisterTrashTools(registry, kinds);
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
