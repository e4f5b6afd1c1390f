// Allocation-free string_view scanning shared by the transcript readers: line
// iteration, ASCII case folding, clock times. No regex: these run over every
// byte of a transcript.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_MEETINGS_SCAN_H_
#define ENSEMBLE_CORE_MEETINGS_SCAN_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ensemble::core::meetings::scan {

// Yields the lines of `text` without their terminators (\n, \r\n or \r).
class LineReader {
 public:
  explicit LineReader(std::string_view text);
  bool Next(std::string_view* line);
  bool done() const { return rest_.empty(); }

 private:
  std::string_view rest_;
  bool has_cr_;  // Most files have no \r at all: then each line is one memchr.
};

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
inline bool IsAsciiAlpha(char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
inline char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c | 0x20) : c; }
// Letters, digits and any byte of a non-ASCII character.
inline bool IsWordByte(char c) {
  return IsAsciiAlpha(c) || IsDigit(c) || static_cast<unsigned char>(c) >= 0x80;
}

// `s` without surrounding ASCII white space and non-breaking spaces (U+00A0).
std::string_view Trim(std::string_view s);
// `s` without a leading UTF-8 byte order mark.
std::string_view StripBom(std::string_view s);

bool StartsWithIgnoreCase(std::string_view s, std::string_view prefix);
bool EqualsIgnoreCase(std::string_view a, std::string_view b);
// Index of `needle` in `s` ignoring ASCII case, or npos.
size_t FindIgnoreCase(std::string_view s, std::string_view needle);

// A clock time "h:mm", "mm:ss", "h:mm:ss" with an optional ".fff" or ",fff"
// fraction, the whole of `s`. Two fields are minutes and seconds. Sets
// *ms; false (leaving *ms alone) if `s` is anything else.
bool ParseClock(std::string_view s, int64_t* ms);

// The length of the clock time at the start of `s` (as ParseClock reads
// it), 0 if none; the time must end at white space or the end of `s`.
size_t ClockPrefix(std::string_view s, int64_t* ms);

// "[1:02:03]"-style rendering of a time for transcript lines: [mm:ss] under
// an hour, [h:mm:ss] from there.
std::string FormatStamp(int64_t ms);

// The byte length of the longest prefix of `s` with at most `max_chars`
// code points, cut at a character boundary.
size_t PrefixBytesForChars(std::string_view s, size_t max_chars);

// True when `s` is well-formed UTF-8 without C0 controls other than tab,
// newline and carriage return (what AppendCleanUtf8 would leave unchanged).
bool IsCleanUtf8(std::string_view s);

// Appends `s` to `out`, replacing bytes that are not well-formed UTF-8 with
// U+FFFD and dropping NUL and other C0 controls except tab and newline.
void AppendCleanUtf8(std::string_view s, std::string* out);

// Collapses runs of white space to one space and trims.
std::string CollapseSpaces(std::string_view s);
// The same, in place; leaves `s` untouched (no copy) when nothing changes.
void CollapseSpacesInPlace(std::string* s);

// CollapseSpaces, then cut to `max_chars` characters with "…" appended.
std::string BoundedText(std::string_view s, size_t max_chars);

}  // namespace ensemble::core::meetings::scan

#endif  // ENSEMBLE_CORE_MEETINGS_SCAN_H_
