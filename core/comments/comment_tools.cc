// Comments on records, and a page into a task (playbooks/pages.md): the two
// tools registered with the page tools' area.

#include "core/comments/comment_tools.h"

#include <utility>
#include <vector>

#include "core/comments/comment.h"
#include "core/comments/comment_tool_runs.h"
#include "core/tools/tool_table.h"

namespace ensemble::core::comments {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

json Kind() { return RecordKind(); }

}  // namespace

Status RegisterCommentTools(tools::ToolRegistry& registry) {
  std::vector<tools::ToolDef> defs = {
      Read("hub_read_record_details", areas::kPages,
           "Read a record's details and its comments with their ids.",
           Object({{"kind", Kind()}, {"id", Id()}}, {"kind", "id"}), {.run = RunReadDetails}),
      ForGuests(Write("hub_manage_record", areas::kPages,
                      "Add, edit, resolve or delete a comment, or turn a page into a task.",
                      Object({{"kind", Kind()},
                              {"id", Id()},
                              {"action", Enum({"add_comment", "edit_comment", "resolve_comment",
                                               "delete_comment", "page_to_task"})},
                              {"commentId", Id()},
                              {"text", Str(comments::kMaxBodyChars)}},
                             {"kind", "id", "action"}),
                      Risk::kLow, true,
                      {.prepare = PrepareManage, .preview = PreviewManage, .run = RunManage})),
  };
  return tools::RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::comments
