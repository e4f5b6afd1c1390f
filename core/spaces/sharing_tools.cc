// Sharing (playbooks/map.md): the assistant reads it and never changes it.

#include "core/spaces/sharing_tools.h"

#include "core/spaces/sharing_tool_run.h"
#include "core/tools/tool_table.h"

namespace ensemble::core::spaces {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

}  // namespace

Status RegisterSharingTools(tools::ToolRegistry& registry) {
  return tools::RegisterAll(
      registry,
      {
          Read("hub_read_sharing", areas::kCore,
               "Who the open space is shared with and in which role, and the person's other "
               "spaces (reads only: sharing is the person's own, in Sharing).",
               Object(json::object()), {.run = RunReadSharing}),
      });
}

}  // namespace ensemble::core::spaces
