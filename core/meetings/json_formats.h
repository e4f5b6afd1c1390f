// JSON transcripts: Fireflies sentences (speaker_name, start_time), tl;dv
// segments (speaker, startTime) and any other array of sentences or segments
// with text/sentence, speaker_name/speaker and start_time/start, bare or
// inside a wrapper object that may also carry title, date, attendees,
// summary, decisions and action items.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_MEETINGS_JSON_FORMATS_H_
#define ENSEMBLE_CORE_MEETINGS_JSON_FORMATS_H_

#include <string_view>

#include "core/base/status.h"
#include "core/meetings/transcript.h"

namespace ensemble::core::meetings::internal {

// Documents nested deeper than this are refused before parsing (the JSON
// library recurses).
inline constexpr size_t kMaxJsonDepth = 64;
// Wrapper objects are searched this deep for the sentence array.
inline constexpr int kMaxWrapperDepth = 4;

// True when `text` starts with '{' or '[' and parses as JSON.
bool LooksLikeJson(std::string_view text);

// Reads a JSON transcript; MALFORMED_JSON or INVALID_ARGUMENT (no sentences).
// *not_json is set when the text did not parse as JSON at all (so it may be
// some other format starting with '['). Turns stop once their text passes
// kMaxTranscriptChars, with a warning.
Status ReadJsonTranscript(std::string_view text, Transcript* transcript, bool* not_json);

}  // namespace ensemble::core::meetings::internal

#endif  // ENSEMBLE_CORE_MEETINGS_JSON_FORMATS_H_
