// The public web (playbooks/web-research.md): network reads, never inside a
// Hub transaction.

#include "core/web/web_tools.h"

#include "core/tools/tool_table.h"

namespace ensemble::core::web {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

constexpr int kMaxSearchResults = 10;
constexpr std::size_t kMaxFocusChars = 200;

}  // namespace

Status RegisterWebTools(tools::ToolRegistry& registry) {
  return RegisterAll(
      registry,
      {
          Outside(
              Read(kWebSearchTool, areas::kWeb,
                   "Search the public web for facts that change; then read the sources.",
                   Object({{"query", Text(kMaxQueryChars)}, {"limit", Int(1, kMaxSearchResults)}},
                          {"query"}))),
          Outside(Read("hub_read_web_page", areas::kWeb,
                       "Read one public page or PDF by its address (no sign-in, no scripts).",
                       Object({{"url", Url()}, {"focus", Str(kMaxFocusChars, "The part to read")}},
                              {"url"}))),
      });
}

}  // namespace ensemble::core::web
