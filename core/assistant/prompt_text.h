// Text helpers shared by the prompt builders (instructions, turn context):
// they make values from people, pages and apps safe to place inside a prompt.
// A value is cleaned to valid UTF-8, cut to a bound counted in characters
// (code points, so a cut always falls on a UTF-8 boundary), kept to one line
// where a line is expected, and stripped of anything that could close or open
// the prompt's own <context> and <guide> tags or forge a record link.
//
// Thread-safety: pure functions.

#ifndef ENSEMBLE_CORE_ASSISTANT_PROMPT_TEXT_H_
#define ENSEMBLE_CORE_ASSISTANT_PROMPT_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace ensemble::core::assistant {

// A link to a record as the model sees it: [Title](ensemble://kind/id).
struct RecordLink {
  std::string kind;   // "task", "person", "project", "file", ...
  std::string id;     // the record id (core/base/id.h)
  std::string title;  // its title or name
};

// Marks a value that was cut (one character, U+2026).
inline constexpr std::string_view kEllipsis = "\xE2\x80\xA6";

// `s` with every invalid UTF-8 sequence replaced by U+FFFD and every NUL
// dropped, so the prompt is always valid UTF-8.
std::string CleanUtf8(std::string_view s);

// The first `max_chars` characters of valid UTF-8 `s`; `*cut` (if given) says
// whether anything was left out. Never splits a character.
std::string_view HeadChars(std::string_view s, size_t max_chars, bool* cut = nullptr);

// A one-line value: cleaned, control characters and line breaks folded into
// single spaces, trimmed, tags neutralised, at most `max_chars` characters
// (ending in U+2026 when cut).
std::string OneLine(std::string_view s, size_t max_chars);

// A multi-line value: cleaned, CR LF folded to LF, other control characters
// (except tab) dropped, tags neutralised. Not cut: the caller cuts first.
std::string Block(std::string_view s);

// Replaces the '<' of anything that reads as one of the prompt's own tags
// (<context>, </context>, <guide ...>, </guide>, in any case and with spaces
// before the name) by U+2039 '‹', so text inside the context cannot end it
// early or start a guide of its own. The character count does not change.
std::string NeutraliseTags(std::string_view s);

// A Markdown link label: '[', ']' and '\' escaped with a backslash so a title
// cannot end its link early and forge another one.
std::string EscapeLinkLabel(std::string_view s);

// True for a record kind the prompt may link: 1..32 of [a-z0-9_-], starting
// with a letter.
bool IsLinkableKind(std::string_view kind);

// "[Title](ensemble://kind/id)" when kind and id are a valid kind and record
// id; otherwise only the title (escaped), so a malformed id never reaches a
// link target. The title is one line of at most `max_title_chars`.
std::string FormatRecordLink(const RecordLink& link, size_t max_title_chars);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_PROMPT_TEXT_H_
