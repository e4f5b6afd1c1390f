// Files saved in Ensemble (playbooks/files.md).

#include "core/files/file_tools.h"

#include "core/tools/tool_table.h"

namespace ensemble::core::files {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

constexpr std::size_t kMaxFileNameChars = 255;
constexpr std::size_t kMaxTags = 20;
constexpr std::size_t kMaxTagChars = 100;

json Tags() { return Array(Text(kMaxTagChars), kMaxTags, "The complete list of tags"); }

}  // namespace

Status RegisterFileTools(tools::ToolRegistry& registry) {
  return RegisterAll(
      registry,
      {
          Read("hub_list_files", areas::kFiles, "Find saved files by name, text or tag; gives ids.",
               Object(WithPaging({{"query", Str(kMaxQueryChars)}, {"tag", Str(kMaxTagChars)}}))),
          Read("hub_view_file", areas::kFiles, "Open a saved file itself (not extracted text).",
               Object({{"id", Id()}}, {"id"})),
          Outside(Write(
              "hub_save_file", areas::kFiles,
              "Save a file from a public web link into Files, optionally attached to a record.",
              Object({{"url", Url()},
                      {"name", Str(kMaxFileNameChars)},
                      {"tags", Tags()},
                      {"attachTo", Object({{"kind", Enum({"task", "page", "project", "meeting"})},
                                           {"id", Id()}},
                                          {"kind", "id"})}},
                     {"url"}),
              Risk::kLow, true)),
          Write("hub_update_file", areas::kFiles, "Rename or tag a saved file.",
                Object({{"id", Id()}, {"name", Text(kMaxFileNameChars)}, {"tags", Tags()}}, {"id"}),
                Risk::kLow, true),
          Write("hub_delete_files", areas::kFiles, "Move saved files to Trash.",
                Object({{"ids", Ids()}}, {"ids"}), Risk::kHigh, true),
      });
}

}  // namespace ensemble::core::files
