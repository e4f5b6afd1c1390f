// Decisions and action items suggested from what was said (spec §2.4), for
// transcripts that have none written: "I'll send…", "Could you review…",
// "We agreed…", "Action item: …". One pass over the turns that looks only at
// word starts; suggested items are marked so.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_MEETINGS_PHRASES_H_
#define ENSEMBLE_CORE_MEETINGS_PHRASES_H_

#include <cstddef>

#include "core/meetings/transcript.h"

namespace ensemble::core::meetings::internal {

// At most this many decisions and this many action items are suggested.
inline constexpr size_t kMaxSuggestedItems = 50;

// When no decisions (or no action items) were written, finds them from
// phrases in the turns, marked suggested, and sets transcript->suggested.
void SuggestItems(Transcript* transcript);

}  // namespace ensemble::core::meetings::internal

#endif  // ENSEMBLE_CORE_MEETINGS_PHRASES_H_
