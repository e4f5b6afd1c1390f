// Context around the work (playbooks/map.md): search, a record's graph, the
// open view and the weekly recap.

#include "core/context/context_tools.h"

#include "core/context/recap_tool_run.h"
#include "core/context/search_tool_runs.h"
#include "core/context/surface_tool_run.h"
#include "core/tools/tool_table.h"

namespace ensemble::core::context {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

}  // namespace

Status RegisterContextTools(tools::ToolRegistry& registry) {
  return tools::RegisterAll(
      registry,
      {
          Read("hub_search_work", areas::kCore,
               "Search all saved work (tasks, pages, projects, people, meetings).",
               Object({{"query", Text(kMaxQueryChars)},
                       {"kinds", Array(RecordKind(), 10)},
                       {"limit", Int(1, kMaxListLimit)}},
                      {"query"}),
               {.run = RunSearchWork}),
          Read("hub_item_context", areas::kCore,
               "What surrounds a record: linked tasks, pages, meetings, people and projects.",
               Object({{"kind", RecordKind()}, {"id", Id()}}, {"kind", "id"}),
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
