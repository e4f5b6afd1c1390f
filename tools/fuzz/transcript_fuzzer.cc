// libFuzzer target for the transcript parser (core/meetings): whatever the
// bytes (text of any format, JSON, captions, a .docx zip), nothing may crash,
// leak or trip a sanitizer, no exception may escape, the JSON views must
// serialize (so no invalid UTF-8 reaches them), and the spec's caps hold.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/meetings/preview.h"
#include "core/meetings/transcript.h"
#include "core/meetings/zip/docx.h"

namespace {

namespace meetings = ensemble::core::meetings;

size_t Chars(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

void Check(const ensemble::core::Result<meetings::Transcript>& result) {
  if (!result.ok()) {
    if (result.status().message().empty()) std::abort();  // Errors must say why.
    return;
  }
  const meetings::Transcript& t = *result;
  if (t.format.empty() || t.turns.empty()) std::abort();
  size_t total = 0;
  for (size_t i = 0; i < t.turns.size(); ++i) {
    const meetings::Turn& turn = t.turns[i];
    if (turn.text.empty()) std::abort();
    total += Chars(turn.text);
    // A turn over the cap can only be one that was never merged with its neighbour.
    if (i > 0 && !turn.speaker.empty() && turn.speaker == t.turns[i - 1].speaker &&
        Chars(turn.text) + Chars(t.turns[i - 1].text) + 1 <= meetings::kMaxMergedTurnChars) {
      std::abort();  // Two turns that should have merged.
    }
  }
  if (total > meetings::kMaxTranscriptChars + t.turns.size()) std::abort();
  // Throws (and so aborts below) on invalid UTF-8.
  (void)meetings::PreviewJson(t).dump();
  (void)meetings::TranscriptJson(t).dump();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    Check(meetings::ParseTranscriptFile(bytes, "Weekly sync 2025-03-14.vtt"));
    Check(meetings::ParseTranscript(bytes));
    auto cues = meetings::ParseCaptionCues(bytes);
    if (cues.ok()) (void)meetings::CuesJson(*cues).dump();
    (void)meetings::zip::DocumentXmlText(bytes);
  } catch (...) {
    std::abort();  // Nothing may throw out of the core.
  }
  return 0;
}
