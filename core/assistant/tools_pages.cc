// Pages, notes and their comments (playbooks/pages.md).

#include <utility>
#include <vector>

#include "core/assistant/comment_tool_runs.h"
#include "core/assistant/hub_tool_areas.h"
#include "core/assistant/page_tool_runs.h"
#include "core/comments/comment.h"
#include "core/pages/page.h"
#include "core/tools/tool_schema.h"

namespace ensemble::core::assistant {
namespace {

using namespace tools::schema;  // NOLINT
using tools::Risk;

constexpr std::size_t kMaxBlockEdits = 100;
constexpr std::size_t kMaxBlockChars = 20000;

json Kind() { return RecordKind(); }

}  // namespace

Status RegisterPageTools(tools::ToolRegistry& registry) {
  std::vector<tools::ToolDef> defs = {
      Read("hub_list_pages", areas::kPages, "Find pages and notes by title or text; gives ids.",
           Object(WithPaging({{"query", Str(kMaxQueryChars)}, {"projectId", Id()}})),
           {.run = page_tools::RunListPages}),
      Read("hub_read_page", areas::kPages, "Read a page: its blocks with ids, and its revision.",
           Object({{"id", Id()}}, {"id"}), {.run = page_tools::RunReadPage}),
      Write("hub_create_page", areas::kPages, "Create a page with a title and a Markdown body.",
            Object({{"title", Text(pages::kMaxTitleChars)},
                    {"body", Str(pages::kMaxBodyChars, "Markdown")},
                    {"projectId", Id()},
                    {"parentId", Id("Parent page id")}},
                   {"title"}),
            Risk::kLow, true,
            {.preview = page_tools::PreviewCreatePage, .run = page_tools::RunCreatePage}),
      Write("hub_update_page", areas::kPages,
            "Append to, rewrite or edit blocks of a page, or move it (under another page, into a "
            "project); send the revision you read.",
            Object({{"id", Id()},
                    {"revision", Int(0, static_cast<int>(pages::kMaxRevision))},
                    {"mode", Enum({"append", "rewrite", "blocks", "move"})},
                    {"parentId", Nullable(Id("The page to put it under; null: the top level"))},
                    {"projectId", Nullable(Id("Its project; null: none"))},
                    {"title", Text(pages::kMaxTitleChars)},
                    {"body", Str(pages::kMaxBodyChars, "Markdown, for append or rewrite")},
                    {"blocks", Array(Object({{"blockId", Id()},
                                             {"action", Enum({"replace", "insertAfter", "delete"})},
                                             {"markdown", Str(kMaxBlockChars)}},
                                            {"blockId", "action"}),
                                     kMaxBlockEdits)}},
                   {"id", "revision", "mode"}),
            Risk::kMedium, true,
            {.preview = page_tools::PreviewUpdatePage, .run = page_tools::RunUpdatePage}),
      Write("hub_delete_pages", areas::kPages, "Move pages to Trash.",
            Object({{"ids", Ids()}}, {"ids"}), Risk::kHigh, true,
            {.prepare = page_tools::PrepareDeletePages,
             .preview = page_tools::PreviewDeletePages,
             .run = page_tools::RunDeletePages}),
      Read("hub_read_record_details", areas::kPages,
           "Read a record's details and its comments with their ids.",
           Object({{"kind", Kind()}, {"id", Id()}}, {"kind", "id"}),
           {.run = comment_tools::RunReadDetails}),
      Write("hub_manage_record", areas::kPages,
            "Add, edit, resolve or delete a comment, or turn a page into a task.",
            Object({{"kind", Kind()},
                    {"id", Id()},
                    {"action", Enum({"add_comment", "edit_comment", "resolve_comment",
                                     "delete_comment", "page_to_task"})},
                    {"commentId", Id()},
                    {"text", Str(comments::kMaxBodyChars)}},
                   {"kind", "id", "action"}),
            Risk::kLow, true,
            {.prepare = comment_tools::PrepareManage,
             .preview = comment_tools::PreviewManage,
             .run = comment_tools::RunManage}),
  };
  return RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::assistant
