// Text transcripts: Teams (copied from the panel or a .docx), Zoom's saved
// transcript, Otter, the Google Meet transcript Doc, speaker lines and plain
// paragraphs. One pass over the lines: a preamble (title, date, duration),
// headed sections (summary, decisions, next steps, attendees) and the turns.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_MEETINGS_TEXT_FORMATS_H_
#define ENSEMBLE_CORE_MEETINGS_TEXT_FORMATS_H_

#include <string_view>

#include "core/meetings/transcript.h"

namespace ensemble::core::meetings::internal {

// Reads `text` as `format` (one of DetectTextFormat's answers) into
// *transcript: unmerged turns plus whatever was written besides them.
void ReadTextTranscript(std::string_view text, std::string_view format, Transcript* transcript);

}  // namespace ensemble::core::meetings::internal

#endif  // ENSEMBLE_CORE_MEETINGS_TEXT_FORMATS_H_
