// The runs of the page tools (spec 002 §2 "Pages and notes", 000 §8.1, 004
// §12): hub_list_pages, hub_read_page, hub_create_page, hub_update_page and
// hub_delete_pages. Their definitions and schemas are in page_tools.cc,
// whose table gives them these hooks.
//
// Reads go to the pages of ctx.space_id only; every id (a page's, a
// project's, a parent page's) is resolved there among live records, so one
// of another space is "no page with id ..." (NOT_FOUND). Writes are the page
// record's sync mutations handed to ctx.write; results are {summary, data,
// undo?} as the task tools' (task_tool_runs.h).
//
// hub_read_page gives the page's blocks (pages::SplitBlocks) and revision;
// hub_update_page appends, rewrites or edits blocks of the revision it names
// and refuses a stale one with VERSION_CONFLICT and
// pages::kStaleRevisionMessage, writing nothing; page.update checks the
// revision again when the write is applied. Undo puts the previous title and
// body back, based on the written ones.
//
// hub_read_record_details and hub_manage_record (comments, a page into a
// task) have no runs here: comments are core/comments'.
//
// Thread-safety: the hooks are stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_PAGES_PAGE_TOOL_RUNS_H_
#define ENSEMBLE_CORE_PAGES_PAGE_TOOL_RUNS_H_

#include <cstddef>
#include <string>

#include "core/tools/tool.h"

namespace ensemble::core::pages {

// hub_list_pages shows this much of each page's body.
inline constexpr std::size_t kPageExcerptChars = 200;

// The hooks of hub_list_pages, hub_read_page, hub_create_page, hub_update_page, hub_delete_pages,
// which their tool table gives them (page_tools.cc).
Result<nlohmann::json> RunListPages(tools::ToolCall& call);
Result<nlohmann::json> RunReadPage(tools::ToolCall& call);
Result<std::string> PreviewCreatePage(const tools::ToolCall& call);
Result<nlohmann::json> RunCreatePage(tools::ToolCall& call);
Result<std::string> PreviewUpdatePage(const tools::ToolCall& call);
Result<nlohmann::json> RunUpdatePage(tools::ToolCall& call);
Status PrepareDeletePages(tools::ToolCall& call);
Result<std::string> PreviewDeletePages(const tools::ToolCall& call);
Result<nlohmann::json> RunDeletePages(tools::ToolCall& call);

}  // namespace ensemble::core::pages

#endif  // ENSEMBLE_CORE_PAGES_PAGE_TOOL_RUNS_H_
