// Reply text that names records by title (spec §4.1 "What is shown"):
// FormatEntityText turns the ids and record links a model wrote into the
// titles a person reads, leaving code, quotes, URLs and link targets alone.
// The browser (wasm) and the server run this same code, so a streamed reply
// and a saved one read the same everywhere.
//
// Thread-safety: pure functions; safe to call concurrently.

#ifndef ENSEMBLE_CORE_REFS_FORMAT_ENTITY_TEXT_H_
#define ENSEMBLE_CORE_REFS_FORMAT_ENTITY_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "core/refs/record_handle.h"
#include "core/refs/ref_set.h"

namespace ensemble::core::refs {

struct FormatOptions {
  // Terminal, Copy, tool rows and choice buttons: titles as plain words,
  // record links (ensemble://..., app paths) print their text only.
  bool plain = false;
  // The question asked for ids (see QuestionAsksForIds): ids stay as written.
  bool keep_ids = false;
};

// Formats `text` for display. Rich output names records as Markdown links
// [Title](ensemble://kind/id); plain output as their titles.
std::string FormatEntityText(std::string_view text, const RefSet& refs,
                             const FormatOptions& options);

// How many trailing bytes of a reply still streaming to hold back: a
// half-written known id, record link or Markdown link at its end, which would
// otherwise flash as raw text and then change. 0 when nothing is pending.
size_t StreamHoldBack(std::string_view text, const RefSet& refs);

// FormatEntityText of the part of a streaming reply that is safe to show.
std::string FormatStreamingText(std::string_view text, const RefSet& refs,
                                const FormatOptions& options);

// True if the question asks for ids ("id", "ids", "uuid", "identifier", as
// whole words, any case); then FormatOptions::keep_ids applies.
bool QuestionAsksForIds(std::string_view question);

}  // namespace ensemble::core::refs

#endif  // ENSEMBLE_CORE_REFS_FORMAT_ENTITY_TEXT_H_
