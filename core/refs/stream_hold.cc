// Holding back the end of a reply that is still streaming (spec §4.1: "a
// half-written known id or record link at the end is held back").

#include <algorithm>

#include "core/base/id.h"
#include "core/refs/format_entity_text.h"
#include "core/refs/text_scan.h"

namespace ensemble::core::refs {

using internal::IsWord;
using internal::kMaxLinkScan;
using internal::StartsWith;

size_t StreamHoldBack(std::string_view text, const RefSet& refs) {
  const size_t n = text.size();
  size_t hold = 0;
  // A trailing word that may still become a known id or "ensemble://...".
  size_t s = n;
  while (s > 0 && n - s <= kIdLength && IsWord(text[s - 1])) --s;
  size_t word = n - s;
  if (word > 0 && word <= kIdLength && (s == 0 || !IsWord(text[s - 1]))) {
    std::string_view tail = text.substr(s);
    if (refs.HasIdWithPrefix(tail) || StartsWith(kRecordScheme, tail)) hold = word;
  }
  // A trailing bare record link still being written.
  size_t t = n;
  while (t > 0 && n - t < kMaxLinkScan &&
         (IsWord(text[t - 1]) || text[t - 1] == ':' || text[t - 1] == '/' || text[t - 1] == '-')) {
    --t;
  }
  size_t at = text.find(kRecordScheme.substr(0, 9), t);  // "ensemble:"
  if (at != std::string_view::npos) {
    std::string_view tail = text.substr(at);
    if (StartsWith(kRecordScheme, tail) || StartsWith(tail, kRecordScheme)) {
      std::string_view rest = tail.substr(std::min(tail.size(), kRecordScheme.size()));
      size_t slash = rest.find('/');
      std::string_view partial =
          slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
      if (slash == std::string_view::npos || partial.size() < kIdLength ||
          refs.Find(partial) != nullptr) {
        hold = std::max(hold, n - at);
      }
    }
  }
  // A trailing Markdown link not yet closed: its label, or a record target.
  size_t floor = n > kMaxLinkScan ? n - kMaxLinkScan : 0;
  for (size_t b = n; b > floor; --b) {
    char c = text[b - 1];
    if (c == '\n') break;
    if (c != '[') continue;
    std::string_view tail = text.substr(b - 1);
    size_t close = tail.find(']');
    bool pending = false;
    if (close == std::string_view::npos || close + 1 == tail.size()) {
      pending = true;
    } else if (tail[close + 1] == '(') {
      std::string_view target = tail.substr(close + 2);
      pending = target.find(')') == std::string_view::npos &&
                (StartsWith(kRecordScheme, target) || StartsWith(target, kRecordScheme));
    }
    if (pending) hold = std::max(hold, tail.size());
    break;
  }
  return hold;
}

std::string FormatStreamingText(std::string_view text, const RefSet& refs,
                                const FormatOptions& options) {
  return FormatEntityText(text.substr(0, text.size() - StreamHoldBack(text, refs)), refs,
                          options);
}

}  // namespace ensemble::core::refs
