// Format detection for text transcripts (spec §2.4 "Recognised by"): the
// line shapes each format uses, and the choice between them. The content
// decides, never the file name; only "it came out of a .docx" is a hint.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_MEETINGS_DETECT_H_
#define ENSEMBLE_CORE_MEETINGS_DETECT_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ensemble::core::meetings::internal {

// Lines examined from the start of a file to choose its format.
inline constexpr size_t kDetectLines = 400;
// Marker text ("otter.ai", "Notes by Gemini") is looked for in this many
// bytes at each end of the file: the apps write it in a header or a footer.
inline constexpr size_t kMarkerWindowBytes = 16 * 1024;
// A speaker name is at most this long and this many words.
inline constexpr size_t kMaxNameBytes = 64;
inline constexpr size_t kMaxNameWords = 5;

// A person's name as transcripts write it: starts with a capital (or a
// non-ASCII letter), at most kMaxNameWords words, no sentence punctuation.
bool IsPlausibleName(std::string_view name);

// "Ana Silva 0:03" on its own line (Teams, Otter), or inline
// "Ana Silva 0:03 text" (then *rest is the text, else empty).
bool MatchTimedHeader(std::string_view line, std::string_view* name, int64_t* ms,
                      std::string_view* rest);

// "[Ana Silva] 00:00:01" (Zoom's saved transcript), optionally with text after.
bool MatchZoomHeader(std::string_view line, std::string_view* name, int64_t* ms,
                     std::string_view* rest);

// "Name: text", "[00:01] Name: text", "(00:01) Name: text", "00:01 Name: text".
// *ms is kNoTime when no stamp leads the line.
bool MatchSpeakerLine(std::string_view line, std::string_view* name, int64_t* ms,
                      std::string_view* rest);

// A line holding only a time: "00:00:00", "[00:01]", "(1:02:03)".
bool MatchTimeLine(std::string_view line, int64_t* ms);

// A "Key: value" metadata line (Title, Date, Duration, Attendees, ...) that
// must not be read as a speaker; returns the value.
bool MatchMetaKey(std::string_view line, std::string_view* key, std::string_view* value);

// The format of a text that is neither JSON nor captions: teams-docx,
// teams-copy, zoom-txt, otter, google-meet, speaker-lines or plain.
std::string_view DetectTextFormat(std::string_view text, bool from_docx);

}  // namespace ensemble::core::meetings::internal

#endif  // ENSEMBLE_CORE_MEETINGS_DETECT_H_
