// JSON views of a parsed transcript: the preview the upload dialog shows
// (spec §2.4: format, speakers, line count, the first six lines, counts of
// decisions and action items, warnings), the whole transcript, and caption
// cues. Key names are camelCase for JS; both builds serialize identically.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_MEETINGS_PREVIEW_H_
#define ENSEMBLE_CORE_MEETINGS_PREVIEW_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/meetings/transcript.h"

namespace ensemble::core::meetings {

// A preview line keeps at most this many characters (then "…").
inline constexpr size_t kPreviewLineChars = 240;

// "[mm:ss] Speaker: words", "Speaker: words" or "words": one line of the
// note's transcript (spec §2.3).
std::string RenderLine(const Turn& turn);

// {format, title, date, time, timeZone, durationSeconds, attendees,
//  speakers: [{name, lines}], lineCount, firstLines, decisions, actionItems,
//  suggested, hasSummary, warnings}; absent values are null.
nlohmann::json PreviewJson(const Transcript& transcript);

// Everything: the preview's metadata plus turns [{speaker, start, end, text}]
// (seconds or null), summary, and decisions and actionItems as
// [{text, owner, suggested}].
nlohmann::json TranscriptJson(const Transcript& transcript);

// [{start, end, voice, text}] with times in seconds.
nlohmann::json CuesJson(const std::vector<Cue>& cues);

}  // namespace ensemble::core::meetings

#endif  // ENSEMBLE_CORE_MEETINGS_PREVIEW_H_
