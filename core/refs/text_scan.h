// Byte-level scanning helpers shared by FormatEntityText and the streaming
// hold-back: a character class table (so the hot loop is one lookup per
// byte), ASCII case folding and prefix tests. Internal to core/refs.
//
// Thread-safety: constants and pure functions.

#ifndef ENSEMBLE_CORE_REFS_TEXT_SCAN_H_
#define ENSEMBLE_CORE_REFS_TEXT_SCAN_H_

#include <array>
#include <cstddef>
#include <string_view>

namespace ensemble::core::refs::internal {

// A link's label and target are looked for at most this far (bytes), so a
// stray "[" or "(" cannot make a scan quadratic.
inline constexpr size_t kMaxLinkScan = 2048;

enum CharClass : unsigned char {
  kOther = 0,
  kWord,       // [A-Za-z0-9_]
  kNewline,
  kBacktick,
  kOpenBracket,
  kOpenParen,
  kBang,
};

constexpr std::array<unsigned char, 256> MakeClasses() {
  std::array<unsigned char, 256> t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = kWord;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = kWord;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = kWord;
  t['_'] = kWord;
  t['\n'] = kNewline;
  t['`'] = kBacktick;
  t['['] = kOpenBracket;
  t['('] = kOpenParen;
  t['!'] = kBang;
  return t;
}
constexpr std::array<unsigned char, 256> kClasses = MakeClasses();

inline bool IsWord(char c) { return kClasses[static_cast<unsigned char>(c)] == kWord; }

inline char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

inline bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != Lower(b[i])) return false;
  }
  return true;
}

inline bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace ensemble::core::refs::internal

#endif  // ENSEMBLE_CORE_REFS_TEXT_SCAN_H_
