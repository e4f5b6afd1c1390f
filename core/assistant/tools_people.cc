// People (playbooks/people.md).

#include <utility>
#include <vector>

#include "core/assistant/connection_tool_runs.h"
#include "core/assistant/hub_tool_areas.h"
#include "core/assistant/people_tool_runs.h"
#include "core/connections/calendar_people.h"
#include "core/people/person.h"
#include "core/tools/tool_schema.h"

namespace ensemble::core::assistant {
namespace {

using namespace tools::schema;  // NOLINT
using tools::Risk;

json PersonFields(bool for_update) {
  json email = Str(people::kMaxEmailChars);
  return {{"name", Text(people::kMaxNameChars)},
          {"email", for_update ? Nullable(email) : email},
          {"role", Str(people::kMaxRoleChars)},
          {"team", Str(people::kMaxRoleChars)},
          {"relationship", Enum({"colleague", "client", "partner", "vendor", "other"})}};
}

}  // namespace

Status RegisterPeopleTools(tools::ToolRegistry& registry) {
  std::vector<tools::ToolDef> defs = {
      Read("hub_list_people", areas::kPeople, "Find people by name or email; gives ids.",
           Object(WithPaging({{"query", Str(kMaxQueryChars)}})),
           {.run = people_tools::RunListPeople}),
      Write("hub_create_person", areas::kPeople, "Add a person with the details the person gave.",
            Object(PersonFields(false), {"name"}), Risk::kLow, true,
            {.preview = people_tools::PreviewCreatePerson, .run = people_tools::RunCreatePerson}),
      Write("hub_update_person", areas::kPeople,
            "Change a person's name, email, role, team or relationship.",
            Object({{"id", Id()},
                    {"fields", Object(PersonFields(true))},
                    {"base", {{"type", "object"}, {"maxProperties", 10}}}},
                   {"id", "fields"}),
            Risk::kLow, true,
            {.prepare = people_tools::PrepareUpdatePerson,
             .preview = people_tools::PreviewUpdatePerson,
             .run = people_tools::RunUpdatePerson}),
      Write("hub_delete_people", areas::kPeople, "Move people to Trash.",
            Object({{"ids", Ids()}}, {"ids"}), Risk::kHigh, true,
            {.prepare = people_tools::PrepareDeletePeople,
             .preview = people_tools::PreviewDeletePeople,
             .run = people_tools::RunDeletePeople}),
      Hold(Write(
          "hub_merge_people", areas::kPeople,
          "Merge two entries of one person: the first's records and addresses move to "
          "the second, which is kept; the first goes to Trash. Only when the person "
          "confirms; waits for Apply.",
          Object({{"personId", Id("The person to merge away")},
                  {"intoPersonId", Id("The person to keep")}},
                 {"personId", "intoPersonId"}),
          Risk::kMedium, false,
          {.preview = people_tools::PreviewMergePeople, .run = people_tools::RunMergePeople})),
      // Not an outside write: what it writes are Hub people, applied with the
      // Hub's calls and undone with them; the app is only read (in prepare).
      Hold(Write("hub_import_people", areas::kPeople,
                 "Bring in a connected app's people; waits for Apply.",
                 Object({{"connectionId", Id("From hub_list_connections")},
                         {"query", Str(kMaxQueryChars,
                                       "Only people whose name or "
                                       "address has these words")},
                         {"emails", Array(Str(people::kMaxEmailChars),
                                          connections::kMaxImportPeople, "Only these addresses")}},
                        {"connectionId"}),
                 Risk::kMedium, true,
                 {.prepare = connection_runs::PrepareImport,
                  .preview = connection_runs::PreviewImport,
                  .run = connection_runs::RunImport})),
  };
  return RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::assistant
