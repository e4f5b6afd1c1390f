// Pages and notes (playbooks/pages.md).

#include "core/pages/page_tools.h"

#include <utility>
#include <vector>

#include "core/pages/page.h"
#include "core/pages/page_tool_runs.h"
#include "core/tools/tool_table.h"

namespace ensemble::core::pages {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

constexpr std::size_t kMaxBlockEdits = 100;
constexpr std::size_t kMaxBlockChars = 20000;

}  // namespace

Status RegisterPageTools(tools::ToolRegistry& registry) {
  std::vector<tools::ToolDef> defs = {
      Read("hub_list_pages", areas::kPages, "Find pages and notes by title or text; gives ids.",
           Object(WithPaging({{"query", Str(kMaxQueryChars)}, {"projectId", Id()}})),
           {.run = RunListPages}),
      Read("hub_read_page", areas::kPages, "Read a page: its blocks with ids, and its revision.",
           Object({{"id", Id()}}, {"id"}), {.run = RunReadPage}),
      ForGuests(Write("hub_create_page", areas::kPages,
                      "Create a page with a title and a Markdown body.",
                      Object({{"title", Text(pages::kMaxTitleChars)},
                              {"body", Str(pages::kMaxBodyChars, "Markdown")},
                              {"projectId", Id()},
                              {"parentId", Id("Parent page id")}},
                             {"title"}),
                      Risk::kLow, true, {.preview = PreviewCreatePage, .run = RunCreatePage})),
      ForGuests(Write(
          "hub_update_page", areas::kPages,
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
          Risk::kMedium, true, {.preview = PreviewUpdatePage, .run = RunUpdatePage})),
      Write("hub_delete_pages", areas::kPages, "Move pages to Trash.",
            Object({{"ids", Ids()}}, {"ids"}), Risk::kHigh, true,
            {.prepare = PrepareDeletePages, .preview = PreviewDeletePages, .run = RunDeletePages}),
  };
  return tools::RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::pages
