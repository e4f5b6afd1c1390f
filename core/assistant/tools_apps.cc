// Connected apps (playbooks/apps.md). App content is read over the network;
// an app write always waits for Apply and has no Hub Undo (spec 000 §6).

#include <utility>
#include <vector>

#include "core/assistant/connection_tool_runs.h"
#include "core/assistant/hub_tool_areas.h"
#include "core/tools/tool_schema.h"

namespace ensemble::core::assistant {
namespace {

using namespace tools::schema;  // NOLINT
using tools::Risk;

constexpr std::size_t kMaxUpdateChars = 10000;

json Item() { return Text(kMaxUrlChars, "The app's item id or link"); }

}  // namespace

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
  return RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::assistant
