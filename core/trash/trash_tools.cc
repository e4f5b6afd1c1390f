// Trash (playbooks/map.md): what was deleted, and putting it back.

#include "core/trash/trash_tools.h"

#include <string>
#include <string_view>

#include "core/tools/tool_table.h"
#include "core/trash/trash_tool_runs.h"

namespace ensemble::core::trash {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

// The kinds Trash holds: every synced kind.
json TrashKind(records::RecordKinds kinds, std::string_view description) {
  json names = json::array();
  for (const records::RecordKind* k : kinds.all) names.push_back(std::string(k->kind));
  return {{"type", "string"}, {"enum", names}, {"description", std::string(description)}};
}

}  // namespace

Status RegisterTrashTools(tools::ToolRegistry& registry, records::RecordKinds kinds) {
  return tools::RegisterAll(
      registry,
      {
          Read("hub_list_trash", areas::kTrash,
               "List what is in Trash, newest first, with kinds and ids to restore.",
               Object(WithPaging({{"kind", TrashKind(kinds, "Only records of this kind")},
                                  {"query", Str(kMaxQueryChars)}})),
               {.run = RunListTrash}),
          Write("hub_restore_from_trash", areas::kTrash, "Restore a record from Trash.",
                Object({{"kind", TrashKind(kinds, "The record's kind, as hub_list_trash gives it")},
                        {"id", Id()}},
                       {"kind", "id"}),
                Risk::kLow, true, {.preview = PreviewRestore, .run = RunRestore}),
      });
}

}  // namespace ensemble::core::trash
