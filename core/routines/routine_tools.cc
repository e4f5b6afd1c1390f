// Recurring routines (playbooks/routines.md).

#include "core/routines/routine_tools.h"

#include <utility>
#include <vector>

#include "core/routines/routine.h"
#include "core/routines/routine_tool_runs.h"
#include "core/tools/tool_table.h"

namespace ensemble::core::routines {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

json Schedule() {
  json time = {{"type", "string"},
               {"pattern", "^([01][0-9]|2[0-3]):[0-5][0-9]$"},
               {"maxLength", 5},
               {"description", "HH:MM in the person's time zone"}};
  return Object({{"frequency", Enum({"daily", "weekdays", "weekly", "monthly"})},
                 {"time", time},
                 {"dayOfWeek", Enum({"mon", "tue", "wed", "thu", "fri", "sat", "sun"})},
                 {"dayOfMonth", Int(1, 31)}},
                {"frequency", "time"});
}

}  // namespace

Status RegisterRoutineTools(tools::ToolRegistry& registry) {
  std::vector<tools::ToolDef> defs = {
      Read("hub_list_routines", areas::kRoutines,
           "List routines, their schedules and whether each is paused.",
           Object({{"includePaused", Bool()}}), {.run = RunListRoutines}),
      Write("hub_create_routine", areas::kRoutines,
            "Add a routine: a saved instruction run on a schedule.",
            Object({{"title", Text(routines::kMaxTitleChars)},
                    {"instruction", Text(routines::kMaxInstructionChars)},
                    {"schedule", Schedule()}},
                   {"title", "instruction", "schedule"}),
            Risk::kMedium, true, {.preview = PreviewCreateRoutine, .run = RunCreateRoutine}),
      Write("hub_update_routine", areas::kRoutines, "Change, pause or resume a routine.",
            Object({{"id", Id()},
                    {"title", Text(routines::kMaxTitleChars)},
                    {"instruction", Text(routines::kMaxInstructionChars)},
                    {"schedule", Schedule()},
                    {"paused", Bool()}},
                   {"id"}),
            Risk::kMedium, true, {.preview = PreviewUpdateRoutine, .run = RunUpdateRoutine}),
      Write("hub_delete_routine", areas::kRoutines, "Delete a routine.",
            Object({{"id", Id()}}, {"id"}), Risk::kHigh, true,
            {.preview = PreviewDeleteRoutine, .run = RunDeleteRoutine}),
  };
  return tools::RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::routines
