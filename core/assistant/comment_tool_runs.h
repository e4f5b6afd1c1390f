// The runs of hub_read_record_details and hub_manage_record (spec 002 §2,
// "Comments": read, add, edit, resolve, delete internal comments; "Pages":
// a page into a task). Their definitions are in tools_pages.cc, which
// attaches these hooks when it registers them.
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

#ifndef ENSEMBLE_CORE_ASSISTANT_COMMENT_TOOL_RUNS_H_
#define ENSEMBLE_CORE_ASSISTANT_COMMENT_TOOL_RUNS_H_

#include "core/tools/tool.h"

namespace ensemble::core::assistant {

// A comment's text in a preview or summary is cut to this many characters.
inline constexpr std::size_t kCommentQuoteChars = 80;

// Sets the prepare, preview and run hooks of `def` when it is
// hub_read_record_details or hub_manage_record; any other is left as it is.
void AttachCommentToolHooks(tools::ToolDef& def);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_COMMENT_TOOL_RUNS_H_
