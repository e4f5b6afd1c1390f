// Small UTF-8 helpers used to check and measure text from people and models.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_TEXT_UTF8_H_
#define ENSEMBLE_CORE_TEXT_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ensemble::core::text {

// The replacement for each ill-formed UTF-8 sequence when decoding.
inline constexpr char32_t kReplacementCharacter = 0xFFFD;

// One step of UTF-8 decoding (RFC 3629): either a well-formed sequence, or the
// bytes that one U+FFFD replaces: the maximal subpart of an ill-formed one
// (Unicode 15, section 3.9, "U+FFFD Substitution of Maximal Subparts").
struct Utf8Step {
  char32_t code_point;  // U+FFFD when !ok.
  uint32_t length;      // At least 1.
  bool ok;
};

// Decodes the sequence that starts at s[i]. Precondition: i < s.size(). The
// one UTF-8 decoder of the core: every reader, checker and repairer steps
// with it, so they all agree on what is well formed and what one
// replacement covers. Inline: validity checks run over every byte of a
// transcript or a request.
inline Utf8Step DecodeUtf8Step(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return {c, 1, true};
  uint32_t need;
  char32_t cp;
  unsigned char lower = 0x80;  // The second byte's range: excludes overlongs,
  unsigned char upper = 0xBF;  // surrogates and values past U+10FFFF.
  if (c >= 0xC2 && c <= 0xDF) {
    need = 1;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    need = 2;
    cp = c & 0x0F;
    if (c == 0xE0) lower = 0xA0;
    if (c == 0xED) upper = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 3;
    cp = c & 0x07;
    if (c == 0xF0) lower = 0x90;
    if (c == 0xF4) upper = 0x8F;
  } else {
    return {kReplacementCharacter, 1, false};
  }
  for (uint32_t k = 1; k <= need; ++k) {
    if (i + k >= s.size()) return {kReplacementCharacter, k, false};
    const auto b = static_cast<unsigned char>(s[i + k]);
    if (b < lower || b > upper) return {kReplacementCharacter, k, false};
    cp = (cp << 6) | (b & 0x3F);
    lower = 0x80;
    upper = 0xBF;
  }
  return {cp, need + 1, true};
}

// Appends `c` as UTF-8 (a surrogate or a value past U+10FFFF as U+FFFD). The
// one UTF-8 encoder of the core.
void AppendUtf8(char32_t c, std::string* out);

// True if `s` is well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF).
bool IsValidUtf8(std::string_view s);

// The number of code points in valid UTF-8 `s`.
size_t CountCodePoints(std::string_view s);

// `s` without leading and trailing ASCII white space.
std::string_view Trim(std::string_view s);

}  // namespace ensemble::core::text

#endif  // ENSEMBLE_CORE_TEXT_UTF8_H_
