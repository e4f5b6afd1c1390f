// The runs of hub_read_record_details and hub_manage_record (spec 002 §2,
// "Comments": read, add, edit, resolve, delete internal comments; "Pages":
// a page into a task). Their definitions are in comment_tools.cc, whose table
// gives them these hooks.
//
// Both resolve the record (kind, id) among the live records of ctx.space_id:
// one of another space, in Trash or of no record is "no <kind> with id ..."
// (NOT_FOUND), so a call never confirms that an id exists elsewhere. A
// comment named by commentId must be a live comment on that same record.
//
// hub_manage_record's actions and their Undo:
//   add_comment      comment.create          Undo: comment.delete
//   edit_comment     comment.update (body)   Undo: the previous body back
//   resolve_comment  comment.update          Undo: open again
//   delete_comment   comment.delete (Trash)  Undo: comment.restore
//   page_to_task     task.create (page set)  Undo: task.delete
// Updates carry the values read as their base, so an edit made meanwhile by
// someone else is a conflict, not overwritten.
//
// Thread-safety: the hooks are stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_COMMENTS_COMMENT_TOOL_RUNS_H_
#define ENSEMBLE_CORE_COMMENTS_COMMENT_TOOL_RUNS_H_

#include <string>

#include "core/tools/tool.h"

namespace ensemble::core::comments {

// A comment's text in a preview or summary is cut to this many characters.
inline constexpr std::size_t kCommentQuoteChars = 80;

// The hooks of hub_read_record_details, hub_manage_record, which their tool table gives them
// (comment_tools.cc).
Result<nlohmann::json> RunReadDetails(tools::ToolCall& call);
Status PrepareManage(tools::ToolCall& call);
Result<std::string> PreviewManage(const tools::ToolCall& call);
Result<nlohmann::json> RunManage(tools::ToolCall& call);

}  // namespace ensemble::core::comments

#endif  // ENSEMBLE_CORE_COMMENTS_COMMENT_TOOL_RUNS_H_
