// People (playbooks/people.md).

#include "core/people/people_tools.h"

#include <utility>
#include <vector>

#include "core/people/people_tool_runs.h"
#include "core/people/person.h"
#include "core/tools/tool_table.h"

namespace ensemble::core::people {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

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
           Object(WithPaging({{"query", Str(kMaxQueryChars)}})), {.run = RunListPeople}),
      Write("hub_create_person", areas::kPeople, "Add a person with the details the person gave.",
            Object(PersonFields(false), {"name"}), Risk::kLow, true,
            {.preview = PreviewCreatePerson, .run = RunCreatePerson}),
      Write(
          "hub_update_person", areas::kPeople,
          "Change a person's name, email, role, team or relationship.",
          Object({{"id", Id()},
                  {"fields", Object(PersonFields(true))},
                  {"base", {{"type", "object"}, {"maxProperties", 10}}}},
                 {"id", "fields"}),
          Risk::kLow, true,
          {.prepare = PrepareUpdatePerson, .preview = PreviewUpdatePerson, .run = RunUpdatePerson}),
      Write(
          "hub_delete_people", areas::kPeople, "Move people to Trash.",
          Object({{"ids", Ids()}}, {"ids"}), Risk::kHigh, true,
          {.prepare = PrepareDeletePeople, .preview = PreviewDeletePeople, .run = RunDeletePeople}),
      Hold(Write("hub_merge_people", areas::kPeople,
                 "Merge two entries of one person: the first's records and addresses move to "
                 "the second, which is kept; the first goes to Trash. Only when the person "
                 "confirms; waits for Apply.",
                 Object({{"personId", Id("The person to merge away")},
                         {"intoPersonId", Id("The person to keep")}},
                        {"personId", "intoPersonId"}),
                 Risk::kMedium, false, {.preview = PreviewMergePeople, .run = RunMergePeople})),
  };
  return tools::RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::people
