// Context around the work (playbooks/map.md): search, a record's graph, the
// open view and the weekly recap.

#include "core/context/context_tools.h"

#include "core/context/neighbors.h"
#include "core/context/recap_tool_run.h"
#include "core/context/search_tool_runs.h"
#include "core/context/surface_tool_run.h"
#include "core/tools/tool_table.h"

namespace ensemble::core::context {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

// The relations hub_item_context can page (neighbors.h).
nlohmann::json RelationEnum() {
  nlohmann::json rels = nlohmann::json::array();
  for (std::string_view rel : AllRelations()) rels.push_back(std::string(rel));
  return {{"type", "string"},
          {"enum", std::move(rels)},
          {"description", "One relation to page through (its kind's names)"}};
}

}  // namespace

Status RegisterContextTools(tools::ToolRegistry& registry) {
  return tools::RegisterAll(
      registry,
      {
          Read("hub_search_work", areas::kCore,
               "Search all saved work (tasks, pages, projects, people, meetings).",
               Object({{"query", Text(kMaxQueryChars)},
                       {"kinds", Array(RecordKind(), 10)},
                       {"limit", Int(1, kMaxListLimit)},
                       {"near", Object({{"kind", RecordKind()}, {"id", Id()}}, {"kind", "id"})}},
                      {"query"}),
               {.run = RunSearchWork}),
          Read("hub_item_context", areas::kCore,
               "What surrounds a record: its project, people, linked and related tasks, "
               "mentions and comments, 6 of each; give rel (with limit, offset) to page "
               "through one relation.",
               Object({{"kind", RecordKind()},
                       {"id", Id()},
                       {"rel", RelationEnum()},
                       {"limit", Int(1, static_cast<int>(kMaxRelationItems))},
                       {"offset", Int(0, static_cast<int>(kMaxRelationOffset))}},
                      {"kind", "id"}),
               {.run = RunItemContext}),
          Read("hub_read_surface", areas::kCore,
               "Read the data of the view the person has open (filters, shown and selected "
               "items).",
               Object({{"limit", Int(1, kMaxListLimit)}}), {.run = RunReadSurface}),
          Read("hub_weekly_recap", areas::kCore,
               "Summarise a week's finished, changed and upcoming work.",
               Object({{"weekOf", Date("Any day of the week; default this week")}}),
               {.run = RunRecap}),
      });
}

}  // namespace ensemble::core::context
