// Desk lists, the space owner's own (playbooks/today.md).

#include "core/desk/desk_tools.h"

#include <utility>
#include <vector>

#include "core/desk/desk_list.h"
#include "core/desk/desk_tool_runs.h"
#include "core/tools/tool_table.h"

namespace ensemble::core::desk {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

json Lines(std::string_view description) {
  return Array(Text(desk::kMaxDeskItemChars), kMaxDeskLinesPerCall, description);
}

json LineIds(std::string_view description) { return Ids(description, kMaxDeskLinesPerCall); }

}  // namespace

Status RegisterDeskTools(tools::ToolRegistry& registry) {
  std::vector<tools::ToolDef> defs = {
      Read("hub_list_desk_lists", areas::kDesk,
           "List the person's desk lists with their lines, ticks and ids.",
           Object({{"limit", Int(1, static_cast<int>(desk::kMaxDeskLists))}}),
           {.run = RunListDeskLists}),
      Write("hub_create_desk_list", areas::kDesk, "Add a desk list, optionally with its lines.",
            Object({{"title", Text(desk::kMaxDeskListTitleChars)},
                    {"lines", Lines("The list's lines, in order")}},
                   {"title"}),
            Risk::kLow, true, {.preview = PreviewCreateDeskList, .run = RunCreateDeskList}),
      Write("hub_update_desk_list", areas::kDesk,
            "Change a desk list: rename it; add, tick, untick, reword or remove lines.",
            Object({{"id", Id("The list's id")},
                    {"title", Text(desk::kMaxDeskListTitleChars)},
                    {"add", Lines("New lines, added at the end in order")},
                    {"check", LineIds("Lines to tick as done")},
                    {"uncheck", LineIds("Lines to tick as not done")},
                    {"reword",
                     Array(Object({{"lineId", Id()}, {"text", Text(desk::kMaxDeskItemChars)}},
                                  {"lineId", "text"}),
                           kMaxDeskLinesPerCall, "Lines to give new text")},
                    {"remove", LineIds("Lines to take off the list")}},
                   {"id"}),
            Risk::kLow, true, {.preview = PreviewUpdateDeskList, .run = RunUpdateDeskList}),
      Write("hub_delete_desk_list", areas::kDesk, "Remove a desk list with its lines (to Trash).",
            Object({{"id", Id()}}, {"id"}), Risk::kMedium, true,
            {.preview = PreviewDeleteDeskList, .run = RunDeleteDeskList}),
  };
  return tools::RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::desk
