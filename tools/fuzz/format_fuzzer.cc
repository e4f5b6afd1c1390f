// libFuzzer target for FormatEntityText and the streaming hold-back: text a
// model writes is untrusted. Nothing may crash or trip a sanitizer, the hold
// never exceeds the text. (A streamed prefix may legitimately format
// differently from the whole: a code span it opens may close later.)

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/refs/format_entity_text.h"
#include "core/refs/ref_set.h"

namespace {

const ensemble::core::refs::RefSet& Refs() {
  static const auto* refs = new ensemble::core::refs::RefSet({
      {"task", "01JABCDEFGHJKMNPQRSTVWXYZ0", "Draft brief", "2026-03-02"},
      {"task", "01JABCDEFGHJKMNPQRSTVWXYZ1", "Draft brief", "2026-03-09"},
      {"person", "01JABCDEFGHJKMNPQRSTVWXYZ2", "Mira Chen", ""},
      {"project", "01JABCDEFGHJKMNPQRSTVWXYZ3", "Launch: phase one", ""},
  });
  return *refs;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ensemble::core::refs::FormatEntityText;
  using ensemble::core::refs::FormatOptions;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (ensemble::core::refs::StreamHoldBack(text, Refs()) > text.size()) std::abort();
  for (bool plain : {false, true}) {
    for (bool keep_ids : {false, true}) {
      const FormatOptions options{plain, keep_ids};
      (void)FormatEntityText(text, Refs(), options);
      (void)ensemble::core::refs::FormatStreamingText(text, Refs(), options);
    }
  }
  return 0;
}
