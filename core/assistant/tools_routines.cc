// Recurring routines (playbooks/routines.md).

#include <utility>
#include <vector>

#include "core/assistant/hub_tool_areas.h"
#include "core/assistant/routine_tool_runs.h"
#include "core/routines/routine.h"
#include "core/tools/tool_schema.h"

namespace ensemble::core::assistant {
namespace {

using namespace tools::schema;  // NOLINT
using tools::Risk;

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
           Object({{"includePaused", Bool()}}), {.run = routine_tools::RunListRoutines}),
      Write(
          "hub_create_routine", areas::kRoutines,
          "Add a routine: a saved instruction run on a schedule.",
          Object({{"title", Text(routines::kMaxTitleChars)},
                  {"instruction", Text(routines::kMaxInstructionChars)},
                  {"schedule", Schedule()}},
                 {"title", "instruction", "schedule"}),
          Risk::kMedium, true,
          {.preview = routine_tools::PreviewCreateRoutine, .run = routine_tools::RunCreateRoutine}),
      Write(
          "hub_update_routine", areas::kRoutines, "Change, pause or resume a routine.",
          Object({{"id", Id()},
                  {"title", Text(routines::kMaxTitleChars)},
                  {"instruction", Text(routines::kMaxInstructionChars)},
                  {"schedule", Schedule()},
                  {"paused", Bool()}},
                 {"id"}),
          Risk::kMedium, true,
          {.preview = routine_tools::PreviewUpdateRoutine, .run = routine_tools::RunUpdateRoutine}),
      Write(
          "hub_delete_routine", areas::kRoutines, "Delete a routine.",
          Object({{"id", Id()}}, {"id"}), Risk::kHigh, true,
          {.preview = routine_tools::PreviewDeleteRoutine, .run = routine_tools::RunDeleteRoutine}),
  };
  return RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::assistant
