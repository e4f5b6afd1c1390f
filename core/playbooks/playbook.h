// A playbook: one Markdown file that tells the assistant how to work in one
// request area, with key: value front matter between two `---` lines.
//
//   ---
//   name: tasks
//   title: Tasks
//   when: List, create, change or delete tasks
//   tools: [hub_list_tasks, hub_create_tasks]
//   match:
//     - task
//     - "to do"
//   ---
//   Recipe text for the model...
//
// Lists are written inline (`[a, "b, c"]`), as a block of `- item` lines, or
// as a plain comma-separated value; strings may be single- or double-quoted.
// `#` starts a comment line. The parser takes text, never a path: the core has
// no filesystem (whoever reads the files passes their contents).
//
// Thread-safety: ParsePlaybook is a pure function; a Playbook is a value.

#ifndef ENSEMBLE_CORE_PLAYBOOKS_PLAYBOOK_H_
#define ENSEMBLE_CORE_PLAYBOOKS_PLAYBOOK_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace ensemble::core::playbooks {

// Bounds on one playbook file, so a broken or hostile file cannot make the
// parser (or the prompt a playbook lands in) grow without limit.
inline constexpr std::size_t kMaxPlaybookBytes = 32 * 1024;
inline constexpr std::size_t kMaxFrontMatterLines = 200;
inline constexpr std::size_t kMaxListItems = 64;
inline constexpr std::size_t kMaxValueLength = 400;
inline constexpr std::size_t kMaxNameLength = 40;
inline constexpr std::size_t kMaxToolNameLength = 64;

struct Playbook {
  std::string name;   // What hub_how_to takes: [a-z][a-z0-9-]*.
  std::string title;  // Shown to people.
  std::string when;   // The index line naming what the playbook covers.
  std::vector<std::string> tools;     // Offered while the playbook is loaded.
  std::vector<std::string> match;     // Words or phrases that preload it.
  std::vector<std::string> paths;     // Open paths (each starts with '/').
  std::vector<std::string> mentions;  // Mention kinds that preload it.
  bool app_tools = false;             // `appTools: true`: every app tool.
  std::string module;                 // Hidden without this module; "" = none.
  std::vector<std::string> requires_tools;  // `requires`: tools the build needs.
  std::vector<std::string> include;   // Names of playbooks appended to this one.
  std::string body;                   // The recipe (Markdown), trimmed.
};

// Parses one playbook file. Any mistake (no front matter, unknown or repeated
// key, missing name/title/when/tools, a bad name, tool or list) gives
// INVALID_ARGUMENT naming `source` (a file name, for messages; may be empty),
// the line and the field.
Result<Playbook> ParsePlaybook(std::string_view text, std::string_view source = {});

// True for a valid playbook name: 1..kMaxNameLength of [a-z0-9-], starting
// with a letter.
bool IsValidPlaybookName(std::string_view name);

}  // namespace ensemble::core::playbooks

#endif  // ENSEMBLE_CORE_PLAYBOOKS_PLAYBOOK_H_
