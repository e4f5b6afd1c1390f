// Caption files: WebVTT (Teams' <v Speaker> voices, Zoom's numbered
// "Speaker: text" cues, any other captions) and SubRip. Cues are read as
// written; merging into turns happens later.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_MEETINGS_CAPTIONS_H_
#define ENSEMBLE_CORE_MEETINGS_CAPTIONS_H_

#include <string_view>
#include <vector>

#include "core/meetings/transcript.h"

namespace ensemble::core::meetings::internal {

// True when `text` (BOM stripped) starts like WebVTT or SubRip.
bool LooksLikeCaptions(std::string_view text);

struct CaptionFile {
  std::string_view format;  // teams-vtt, zoom-vtt, vtt or srt.
  std::vector<Cue> cues;
  size_t unreadable = 0;  // Blocks whose timing line could not be read.
};

// Reads every cue. Precondition: LooksLikeCaptions(text).
CaptionFile ReadCaptions(std::string_view text);

}  // namespace ensemble::core::meetings::internal

#endif  // ENSEMBLE_CORE_MEETINGS_CAPTIONS_H_
