// Cutting oversized text and tool results down to a budget (spec §4, the
// agent's `trim`): a single list is cut at whole items with a note naming the
// offset to continue (FitList); anything else keeps its start and its end with
// the middle cut out (HeadAndTail), so a command's error or a result's last
// fields survive. Whatever is cut says so: an excerpt is never passed off as
// the whole document.
//
// Budgets count characters as Unicode code points (the spec's "characters";
// a person's language should not change how much of a result the model
// sees). Text is never cut inside a UTF-8 sequence; malformed UTF-8 is first
// repaired with U+FFFD so counts and cuts stay well defined. Every result is
// at most `max_chars` code points.
//
// Thread-safety: pure functions; safe to call concurrently.

#ifndef ENSEMBLE_CORE_TEXT_TRIM_H_
#define ENSEMBLE_CORE_TEXT_TRIM_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ensemble::core::text {

// Spec §4 "Turn limits": MAX_TOOL_RESULT_CHARS, per tool result.
inline constexpr size_t kMaxToolResultChars = 6000;

// A cut moves back (head) or forward (tail) to a line break at most this many
// characters away, and never by more than a quarter of its part.
inline constexpr size_t kLineSnapChars = 200;

// HeadAndTail keeps at least this many characters on each side of its
// marker; a budget too small for that gets a plain cut ending in "…".
inline constexpr size_t kMinPartChars = 8;

// `text` if it fits in `max_chars`; otherwise its start and its end joined by
// a marker naming how much was cut: "\n… [12,345 characters cut] …\n". Cuts
// meet a line break when one is within kLineSnapChars.
std::string HeadAndTail(std::string_view text, size_t max_chars);

// The compact JSON of `items` (an array) if it fits; otherwise the whole
// items that fit, as a JSON array, then a line such as
// "Showing 40 of 312; call again with offset: 40 for the rest.". `offset` is
// where `items` start in the full list (the tool's own offset input), so the
// note's offset continues it. At least one item is always shown: one too big
// on its own goes through HeadAndTail and the note says it was cut. A
// non-array is treated as HeadAndTail of its JSON.
std::string FitList(const nlohmann::json& items, size_t max_chars, size_t offset = 0);

// The agent's `trim` of one tool result: its compact JSON if it fits. Else,
// if the result holds one list (the result itself, an array member, or an
// array inside an object member such as {"data":{"tasks":[...]}}, the largest
// if several) and everything beside that list takes at most half the budget,
// the result with that list cut by FitList's rule, followed by FitList's
// note; anything else becomes HeadAndTail of its JSON.
std::string TrimToolResult(const nlohmann::json& result, size_t max_chars = kMaxToolResultChars,
                           size_t offset = 0);

// Compact JSON that never throws: invalid UTF-8 in strings is replaced.
std::string DumpJson(const nlohmann::json& value);

// `s` if it has at most `max_chars` code points, else its first
// max_chars - 1 code points and "…" (empty when max_chars is 0).
std::string TruncateChars(std::string_view s, size_t max_chars);

// `n` with thousands separators: 12345 -> "12,345".
std::string FormatCount(size_t n);

// `n` and the word that fits it: (1, "card", "cards") -> "1 card",
// (1200, ...) -> "1,200 cards".
std::string CountText(size_t n, std::string_view one, std::string_view many);

// The items as a sentence lists them: "a", "a and b", "a, b and c".
std::string JoinWithAnd(const std::vector<std::string>& items);

// `s` with each malformed UTF-8 sequence replaced by U+FFFD.
std::string RepairUtf8(std::string_view s);

}  // namespace ensemble::core::text

#endif  // ENSEMBLE_CORE_TEXT_TRIM_H_
