// The preview of a held write whose tool has none of its own (spec §4
// readablePreview, §6 "known ids as titles, other ids left out"): its action
// and fields as words, never raw JSON.
//
//   hub_update_task {"id": <Draft brief>, "status": "done",
//                    "dueDate": "2026-12-03", "people": [<Mira Chen>]}
//   -> Update task “Draft brief”: status done, due date 2026-12-03, people “Mira Chen”
//
// Rules: the action is the tool name without its "hub_"/"apps_" prefix, in
// words. The record it acts on ("id", "ids") follows the action. Every other
// field is "<name in words> <value>" in input order, camelCase and snake_case
// names split into words, a trailing "Id"/"Ids" dropped ("projectId" ->
// "project"). A string that is a known id shows the record's title in curly
// quotes; an id the turn does not know is left out (a field of only unknown
// ids is left out whole). Lists read "a, b and c", at most kMaxPreviewListItems
// then "and N more"; objects read "field (a b, c d)", or their title when they
// have one; true/false read yes/no, null reads none. Values and the whole
// preview are bounded. Ids inside free text are named by title through
// FormatEntityText's plain mode.
//
// Thread-safety: pure functions; safe to call concurrently.

#ifndef ENSEMBLE_CORE_REFS_READABLE_PREVIEW_H_
#define ENSEMBLE_CORE_REFS_READABLE_PREVIEW_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/refs/ref_set.h"

namespace ensemble::core::refs {

// The whole preview, in code points; longer previews end at a whole field
// with ", …" (or are cut with "…" when one field alone is too long).
inline constexpr size_t kMaxPreviewChars = 300;
// One string value, in code points.
inline constexpr size_t kMaxPreviewValueChars = 80;
// List items shown before "and N more".
inline constexpr size_t kMaxPreviewListItems = 5;
// Objects nested deeper than this read "…".
inline constexpr size_t kMaxPreviewDepth = 3;

// The preview of calling `tool_name` with `input`. Fields follow the input's
// own member order, so pass an ordered_json parsed from the call to keep the
// model's order (nlohmann::json sorts members by name).
std::string ReadablePreview(std::string_view tool_name, const nlohmann::json& input,
                            const RefSet& refs);
std::string ReadablePreview(std::string_view tool_name, const nlohmann::ordered_json& input,
                            const RefSet& refs);

// "hub_move_to_board" -> "Move to board".
std::string ToolAction(std::string_view tool_name);

// "dueDate" -> "due date", "assignee_ids" -> "assignees", "projectId" -> "project".
std::string FieldWords(std::string_view key);

}  // namespace ensemble::core::refs

#endif  // ENSEMBLE_CORE_REFS_READABLE_PREVIEW_H_
