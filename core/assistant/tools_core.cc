// Tools of no one area: the map and playbooks, search and context around a
// record, the open view, workflows, approvals, the weekly recap and Trash.

#include "core/assistant/account_tool_runs.h"
#include "core/assistant/hub_tool_areas.h"
#include "core/assistant/recap_tool_run.h"
#include "core/assistant/search_tool_runs.h"
#include "core/assistant/sharing_tool_run.h"
#include "core/assistant/surface_tool_run.h"
#include "core/assistant/trash_tool_runs.h"
#include "core/assistant/workflow.h"
#include "core/tools/tool_schema.h"

namespace ensemble::core::assistant {
namespace {

using namespace tools::schema;  // NOLINT
using tools::Risk;

json StepId() {
  return {{"type", "string"},
          {"pattern", "^[a-z][a-z0-9_]*$"},
          {"maxLength", kMaxWorkflowStepIdLength},
          {"description", "Step id later steps refer to with {\"$ref\": \"<id>.<path>\"}"}};
}

// The kinds Trash holds: every synced kind.
json TrashKind(records::RecordKinds kinds, std::string_view description) {
  json names = json::array();
  for (const records::RecordKind* k : kinds.all) names.push_back(std::string(k->kind));
  return {{"type", "string"}, {"enum", names}, {"description", std::string(description)}};
}

}  // namespace

Status RegisterCoreTools(tools::ToolRegistry& registry, records::RecordKinds kinds) {
  std::vector<tools::ToolDef> defs = {
      Read("hub_how_to", areas::kCore,
           "Load a playbook by name for how to work in an area; \"map\" lists them all.",
           Object({{"name", Text(40, "Playbook name, or map")}}, {"name"})),
      Read("hub_search_work", areas::kCore,
           "Search all saved work (tasks, pages, projects, people, meetings).",
           Object({{"query", Text(kMaxQueryChars)},
                   {"kinds", Array(RecordKind(), 10)},
                   {"limit", Int(1, kMaxListLimit)}},
                  {"query"}),
           {.run = search_tools::RunSearchWork}),
      Read("hub_item_context", areas::kCore,
           "What surrounds a record: linked tasks, pages, meetings, people and projects.",
           Object({{"kind", RecordKind()}, {"id", Id()}}, {"kind", "id"}),
           {.run = search_tools::RunItemContext}),
      Read("hub_read_sharing", areas::kCore,
           "Who the open space is shared with and in which role, and the person's other spaces "
           "(reads only: sharing is the person's own, in Sharing).",
           Object(json::object()), {.run = sharing_tool::RunReadSharing}),
      Read("hub_read_surface", areas::kCore,
           "Read the data of the view the person has open (filters, shown and selected items).",
           Object({{"limit", Int(1, kMaxListLimit)}}), {.run = surface_tools::RunReadSurface}),
      Hold(
          Write(kWorkflowToolName, areas::kWorkflows,
                "Propose 2-12 ordered writes under one Apply; later steps may use earlier results.",
                Object({{"title", Str(200)},
                        {"steps", Array(Object({{"id", StepId()},
                                                {"tool", Text(64)},
                                                {"input", {{"type", "object"}}}},
                                               {"id", "tool", "input"}),
                                        kMaxWorkflowSteps, {}, kMinWorkflowSteps)}},
                       {"steps"}),
                Risk::kHigh, false)),
      Read("hub_list_approvals", areas::kCore, "List what waits for the person on Needs me.",
           Object({{"limit", Int(1, kMaxListLimit)}}), {.run = account_tools::RunListApprovals}),
      Read("hub_weekly_recap", areas::kCore,
           "Summarise a week's finished, changed and upcoming work.",
           Object({{"weekOf", Date("Any day of the week; default this week")}}),
           {.run = recap_tools::RunRecap}),
      Read("hub_list_trash", areas::kTrash,
           "List what is in Trash, newest first, with kinds and ids to restore.",
           Object(WithPaging({{"kind", TrashKind(kinds, "Only records of this kind")},
                              {"query", Str(kMaxQueryChars)}})),
           {.run = trash_tools::RunListTrash}),
      Write("hub_restore_from_trash", areas::kTrash, "Restore a record from Trash.",
            Object({{"kind", TrashKind(kinds, "The record's kind, as hub_list_trash gives it")},
                    {"id", Id()}},
                   {"kind", "id"}),
            Risk::kLow, true,
            {.preview = trash_tools::PreviewRestore, .run = trash_tools::RunRestore}),
  };
  return RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::assistant
