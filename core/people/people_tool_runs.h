// The runs of the people tools (spec 002 §2 "People", 004 §4.7):
// hub_list_people, hub_create_person, hub_update_person, hub_delete_people
// and hub_merge_people (always waits for Apply; no Undo). Their definitions and schemas are in
// people_tools.cc, whose table gives them these hooks. hub_import_people has no run:
// it brings in a connected app's people, and there are no connections in the core yet.
//
// Reads go to the people of ctx.space_id only; every id is resolved there
// among live records, so one of another space is "no person with id ..."
// (NOT_FOUND). Writes are the person record's sync mutations handed to
// ctx.write; results are {summary, data, undo?} as the task tools'.
//
// Identity (004 §4.7): hub_create_person with an address already saved in
// the space reuses that person (people::FindPersonByEmail), filling in the
// role, team and relationship it was given, instead of adding a copy; a name
// alone never does. hub_update_person refuses an address another person of
// the space has (ALREADY_EXISTS): merging people is the person's decision,
// made by applying hub_merge_people (the person.merge mutation, people/merge.h).
//
// Thread-safety: the hooks are stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_PEOPLE_PEOPLE_TOOL_RUNS_H_
#define ENSEMBLE_CORE_PEOPLE_PEOPLE_TOOL_RUNS_H_

#include <string>

#include "core/tools/tool.h"

namespace ensemble::core::people {

// The hooks of hub_list_people, hub_create_person, hub_update_person, hub_merge_people,
// hub_delete_people, which their tool table gives them (people_tools.cc).
Result<nlohmann::json> RunListPeople(tools::ToolCall& call);
Result<std::string> PreviewCreatePerson(const tools::ToolCall& call);
Result<nlohmann::json> RunCreatePerson(tools::ToolCall& call);
Status PrepareUpdatePerson(tools::ToolCall& call);
Result<std::string> PreviewUpdatePerson(const tools::ToolCall& call);
Result<nlohmann::json> RunUpdatePerson(tools::ToolCall& call);
Result<std::string> PreviewMergePeople(const tools::ToolCall& call);
Result<nlohmann::json> RunMergePeople(tools::ToolCall& call);
Status PrepareDeletePeople(tools::ToolCall& call);
Result<std::string> PreviewDeletePeople(const tools::ToolCall& call);
Result<nlohmann::json> RunDeletePeople(tools::ToolCall& call);

}  // namespace ensemble::core::people

#endif  // ENSEMBLE_CORE_PEOPLE_PEOPLE_TOOL_RUNS_H_
