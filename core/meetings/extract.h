// What comes along with a transcript besides its turns (spec §2.4): titles
// and dates from a preamble line or the file name, section headings
// (Summary, Decisions, Action items, ...) and written list items with their
// owners. Dates and durations are read by dates.h; phrases by phrases.h.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_MEETINGS_EXTRACT_H_
#define ENSEMBLE_CORE_MEETINGS_EXTRACT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/meetings/transcript.h"

namespace ensemble::core::meetings::internal {

// A suggested or written item keeps at most this many characters.
inline constexpr size_t kMaxItemChars = 300;
// A heading line is at most this long.
inline constexpr size_t kMaxHeadingBytes = 48;
// A preamble line longer than this is never a title.
inline constexpr size_t kMaxTitleBytes = 160;

// A title from a heading line or a file name stem: stamps, weekdays, clock
// times and words like "Transcript" or "Meeting Recording" removed. Empty
// when nothing specific is left.
std::string CleanTitle(std::string_view s);

// Fills an empty title, date, time and zone from the file name.
void ApplyFileName(std::string_view file_name, Transcript* transcript);

// Reads a preamble line (before the first turn): a date, a duration, a
// title. Returns true when the line was used.
bool ReadPreambleLine(std::string_view line, Transcript* transcript);

enum class SectionKind {
  kNone,        // Not a heading.
  kSummary,
  kDecisions,
  kActions,
  kAttendees,
  kIgnored,     // Keywords, details, outline: skipped.
  kTranscript,  // The transcript itself starts here.
  kDropLine,    // A decorative heading ("Notes"): the line alone is dropped.
};

// The kind of heading `line` is (after Markdown marks, emoji and a trailing
// colon are removed), kNone for anything else.
SectionKind HeadingKind(std::string_view line);

// Parses a written list (one entry per line; bullets, "**Name**" group
// headers, "Name:" and "[Name]" prefixes, "Name will ...") into items.
void ParseWrittenItems(const std::vector<std::string_view>& lines, std::vector<Item>* out);

// "Ana Silva, Ben Okafor and Chen Li" -> the names.
std::vector<std::string> SplitNames(std::string_view list);

}  // namespace ensemble::core::meetings::internal

#endif  // ENSEMBLE_CORE_MEETINGS_EXTRACT_H_
