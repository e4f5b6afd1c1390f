// Meeting transcripts read from files and pastes (spec §2.4): the format is
// detected from the content, never from the file name; turns by one speaker
// are merged; title, date, duration, attendees and any written summary,
// decisions and next steps come along; with none written, decisions and
// action items are suggested from phrases in what was said.
//
// Everything here is a pure function of its input (no clock, no filesystem),
// so the browser's preview equals the server's import byte for byte.
// Thread-safety: stateless; safe to call from any thread.

#ifndef ENSEMBLE_CORE_MEETINGS_TRANSCRIPT_H_
#define ENSEMBLE_CORE_MEETINGS_TRANSCRIPT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace ensemble::core::meetings {

// A file stops here (spec §2.4, MAX_TRANSCRIPT_CHARS), with a warning.
inline constexpr size_t kMaxTranscriptChars = 400'000;
// Consecutive turns by one speaker merge while the merged text stays within this.
inline constexpr size_t kMaxMergedTurnChars = 2'400;
// Uploads are at most 10 MB (spec §2.4); anything larger is refused before parsing.
inline constexpr size_t kMaxFileBytes = 10 * 1024 * 1024;
// At most this many attendees are kept (a bound of ours, not the spec's).
inline constexpr size_t kMaxAttendees = 1'000;
// The preview shows this many lines.
inline constexpr size_t kPreviewLines = 6;

// Stable values of Transcript::format.
namespace formats {
inline constexpr std::string_view kTeamsVtt = "teams-vtt";
inline constexpr std::string_view kZoomVtt = "zoom-vtt";
inline constexpr std::string_view kVtt = "vtt";
inline constexpr std::string_view kSrt = "srt";
inline constexpr std::string_view kTeamsDocx = "teams-docx";
inline constexpr std::string_view kTeamsCopy = "teams-copy";
inline constexpr std::string_view kZoomTxt = "zoom-txt";
inline constexpr std::string_view kOtter = "otter";
inline constexpr std::string_view kGoogleMeet = "google-meet";
inline constexpr std::string_view kSpeakerLines = "speaker-lines";
inline constexpr std::string_view kFirefliesJson = "fireflies-json";
inline constexpr std::string_view kTldvJson = "tldv-json";
inline constexpr std::string_view kJson = "json";
inline constexpr std::string_view kPlain = "plain";
}  // namespace formats

inline constexpr int64_t kNoTime = -1;

// Warnings, word for word (the preview shows them).
inline constexpr std::string_view kTruncatedWarning =
    "The transcript is longer than 400,000 characters; the rest was not read.";
inline constexpr std::string_view kPlainWarning =
    "No speakers were recognised; the text was read as paragraphs without speakers.";
inline constexpr std::string_view kUnreadableCuesWarning =
    "Some captions had unreadable times and were skipped.";

// One caption cue as written, before any merging (vtt, srt).
struct Cue {
  int64_t start_ms = 0;
  int64_t end_ms = 0;
  std::string voice;  // Empty when the cue names nobody.
  std::string text;
};

// One turn of the conversation; after parsing, consecutive turns by one
// speaker are merged.
struct Turn {
  std::string speaker;  // Empty for plain paragraphs.
  int64_t start_ms = kNoTime;
  int64_t end_ms = kNoTime;
  std::string text;
};

// A decision or action item: written in the file, or suggested from a phrase.
struct Item {
  std::string text;
  std::string owner;  // Empty when nobody is named.
  bool suggested = false;
};

struct Transcript {
  std::string format;
  std::string title;
  std::string date;       // YYYY-MM-DD, or empty.
  std::string time;       // HH:MM (24 h), or empty.
  std::string time_zone;  // As the file names it ("UTC", "GMT+1", "Europe/Berlin"), or empty.
  int64_t duration_seconds = kNoTime;
  std::vector<std::string> attendees;
  std::vector<std::string> speakers;  // In order of first appearance.
  std::vector<Turn> turns;
  std::string summary;
  std::vector<Item> decisions;
  std::vector<Item> action_items;
  bool suggested = false;  // Decisions or action items were found from phrases.
  std::vector<std::string> warnings;
};

// Parses pasted or decoded text. `file_name` (may be empty) can supply a title
// and a date; it never decides the format. INVALID_ARGUMENT when there is no
// text, MALFORMED_JSON for a broken JSON document.
Result<Transcript> ParseTranscript(std::string_view text, std::string_view file_name = {});

// Parses an uploaded file's bytes: a .docx (zip) is unpacked to its text
// first; anything else is read as UTF-8 text. Refuses a legacy .doc, other
// binary data and files over kMaxFileBytes with a readable message.
Result<Transcript> ParseTranscriptFile(std::string_view bytes, std::string_view file_name = {});

// Every cue of a caption file (teams-vtt, zoom-vtt, vtt, srt) before merging;
// INVALID_ARGUMENT naming the detected format for anything else.
Result<std::vector<Cue>> ParseCaptionCues(std::string_view bytes);

}  // namespace ensemble::core::meetings

#endif  // ENSEMBLE_CORE_MEETINGS_TRANSCRIPT_H_
