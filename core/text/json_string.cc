#include "core/text/json_string.h"

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/text/utf8.h"

namespace ensemble::core::text {
namespace {

bool NeedsEscape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

constexpr uint64_t kOnes = 0x0101010101010101ull;
constexpr uint64_t kHighs = 0x8080808080808080ull;

// True if some byte of `w` is zero (exact, whatever the byte order).
constexpr bool HasZeroByte(uint64_t w) { return ((w - kOnes) & ~w & kHighs) != 0; }

// True if any of the 8 bytes at `p` needs escaping: below 0x20, '"' or '\\'.
bool WordNeedsEscape(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof w);
  const bool below_space = ((w - kOnes * 0x20) & ~w & kHighs) != 0;
  return below_space || HasZeroByte(w ^ (kOnes * '"')) || HasZeroByte(w ^ (kOnes * '\\'));
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view s) {
  if (!IsValidUtf8(s)) {
    // Rare (a model's or a person's broken bytes): the library's replacement
    // rules, rather than a second copy of them.
    out += nlohmann::json(std::string(s))
               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  out.reserve(out.size() + s.size() + 2);
  out += '"';
  size_t run = 0;  // Start of the bytes not yet copied.
  for (size_t i = 0; i < s.size(); ++i) {
    // Most text needs no escaping: skip it eight bytes at a time.
    while (i + 8 <= s.size() && !WordNeedsEscape(s.data() + i)) i += 8;
    if (i == s.size()) break;
    const auto c = static_cast<unsigned char>(s[i]);
    if (!NeedsEscape(c)) continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xF];
    }
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

}  // namespace ensemble::core::text
