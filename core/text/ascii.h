// ASCII-only character tests and case folding, for the machine-readable parts
// of text (keywords, host names, zone names): no locale, bytes >= 0x80 are
// never letters. Unicode-aware folding lives in unicode_normalize.h.
//
// Thread-safety: pure functions.

#ifndef ENSEMBLE_CORE_TEXT_ASCII_H_
#define ENSEMBLE_CORE_TEXT_ASCII_H_

#include <string>
#include <string_view>

namespace ensemble::core::text {

constexpr char AsciiLower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// `s` with its ASCII letters lower-cased.
inline std::string AsciiLowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = AsciiLower(c);
  return out;
}

constexpr bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

// The C locale's isspace, without the locale.
constexpr bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// A byte of a word: an ASCII letter or digit, or any byte of a non-ASCII
// character (so words in other scripts stay whole).
constexpr bool IsWordByte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

constexpr bool EqualsIgnoringAsciiCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (AsciiLower(a[i]) != AsciiLower(b[i])) return false;
  }
  return true;
}

}  // namespace ensemble::core::text

#endif  // ENSEMBLE_CORE_TEXT_ASCII_H_
