// Connected apps (playbooks/apps.md), and bringing in an app's people
// (playbooks/people.md). App content is read over the network;
// an app write always waits for Apply and has no Hub Undo (spec 000 §6).

#include "core/connections/connection_tools.h"

#include <utility>
#include <vector>

#include "core/connections/calendar_people.h"
#include "core/connections/connection.h"
#include "core/connections/connection_tool_runs.h"
#include "core/people/person.h"
#include "core/tools/tool_table.h"

namespace ensemble::core::connections {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

constexpr std::size_t kMaxUpdateChars = 10000;

json Item() { return Text(kMaxUrlChars, "The app's item id or link"); }

}  // namespace

Status RegisterImportTools(tools::ToolRegistry& registry) {
  std::vector<tools::ToolDef> defs = {
      // Not an outside write: what it writes are Hub people, applied with the
      // Hub's calls and undone with them; the app is only read (in prepare).
      // Imports come from the owner's apps.
      Hold(ForOwner(
          Write("hub_import_people", areas::kPeople,
                "Bring in a connected app's people; waits for Apply.",
                Object({{"connectionId", Id("From hub_list_connections")},
                        {"query", Str(kMaxQueryChars,
                                      "Only people whose name or "
                                      "address has these words")},
                        {"emails", Array(Str(people::kMaxEmailChars), connections::kMaxImportPeople,
                                         "Only these addresses")}},
                       {"connectionId"}),
                Risk::kMedium, true,
                {.prepare = connection_runs::PrepareImport,
                 .preview = connection_runs::PreviewImport,
                 .run = connection_runs::RunImport}))),
  };
  return tools::RegisterAll(registry, std::move(defs));
}

Status RegisterAppTools(tools::ToolRegistry& registry) {
  std::vector<tools::ToolDef> defs = {
      Read("hub_list_connections", areas::kApps,
           "List the apps connected in this space, how each is reached, and those failing.",
           Object({{"app", Str(100, "Narrow to one app by name")}}),
           {.run = connection_runs::RunListConnections}),
      Outside(Read(
          "apps_search", areas::kApps, "Search connected apps' content for the person's question.",
          Object({{"query", Text(kMaxQueryChars)}, {"connectionId", Id()}, {"limit", Int(1, 50)}},
                 {"query"}))),
      Outside(Read("apps_read", areas::kApps, "Read one app item by id or link.",
                   Object({{"item", Item()}, {"connectionId", Id()}}, {"item"}))),
      Outside(Hold(
          Write("apps_post_update", areas::kApps,
                "Post an update to an app item; waits for Apply, which says who gets an email.",
                Object({{"item", Item()}, {"connectionId", Id()}, {"text", Text(kMaxUpdateChars)}},
                       {"item", "text"}),
                Risk::kHigh, false))),
      Read("hub_list_app_relationships", areas::kApps,
           "List links between app items and an Ensemble record.",
           Object({{"kind", RecordKind()}, {"id", Id()}})),
      Write("hub_manage_app_relationship", areas::kApps,
            "Link or unlink an app item and an Ensemble record.",
            Object({{"action", Enum({"link", "unlink"})},
                    {"kind", RecordKind()},
                    {"id", Id()},
                    {"connectionId", Id()},
                    {"item", Item()}},
                   {"action", "kind", "id", "item"}),
            Risk::kMedium, false),
  };
  return tools::RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::connections
