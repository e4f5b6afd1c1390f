// Recurring routines (playbooks/routines.md).

#include "core/assistant/hub_tool_areas.h"
#include "core/assistant/tool_schema.h"

namespace ensemble::core::assistant {
namespace {

using namespace schema;  // NOLINT
using tools::Risk;

constexpr std::size_t kMaxRoutineTitleChars = 200;
constexpr std::size_t kMaxInstructionChars = 4000;

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
  return RegisterAll(
      registry,
      {
          Read("hub_list_routines", areas::kRoutines,
               "List routines, their schedules and whether each is paused.",
               Object({{"includePaused", Bool()}})),
          Write("hub_create_routine", areas::kRoutines,
                "Add a routine: a saved instruction run on a schedule.",
                Object({{"title", Text(kMaxRoutineTitleChars)},
                        {"instruction", Text(kMaxInstructionChars)},
                        {"schedule", Schedule()}},
                       {"title", "instruction", "schedule"}),
                Risk::kMedium, true),
          Write("hub_update_routine", areas::kRoutines, "Change, pause or resume a routine.",
                Object({{"id", Id()},
                        {"title", Text(kMaxRoutineTitleChars)},
                        {"instruction", Text(kMaxInstructionChars)},
                        {"schedule", Schedule()},
                        {"paused", Bool()}},
                       {"id"}),
                Risk::kMedium, true),
          Write("hub_delete_routine", areas::kRoutines, "Delete a routine.",
                Object({{"id", Id()}}, {"id"}), Risk::kHigh, true),
      });
}

}  // namespace ensemble::core::assistant
