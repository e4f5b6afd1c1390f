// The comment tools' table (hub_read_record_details, hub_manage_record):
// each tool's name, schema, flags and hooks (comment_tool_runs.h),
// registered by the assistant right after the page tools, whose area they
// share.
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_COMMENTS_COMMENT_TOOLS_H_
#define ENSEMBLE_CORE_COMMENTS_COMMENT_TOOLS_H_

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::comments {

// Registers the comment tools into `registry`; fails on the first refusal.
Status RegisterCommentTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::comments

#endif  // ENSEMBLE_CORE_COMMENTS_COMMENT_TOOLS_H_
