#include "core/meetings/scan.h"

#include <cstring>

#include "core/text/utf8.h"

namespace ensemble::core::meetings::scan {

LineReader::LineReader(std::string_view text)
    : rest_(text),
      has_cr_(!text.empty() && std::memchr(text.data(), '\r', text.size()) != nullptr) {}

bool LineReader::Next(std::string_view* line) {
  if (rest_.empty()) return false;
  const char* data = rest_.data();
  size_t n = rest_.size();
  const void* nl = std::memchr(data, '\n', n);
  size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - data) : n;
  // A lone \r (old Mac files) also ends a line; look for one only when the
  // candidate line holds one.
  const void* cr = has_cr_ ? std::memchr(data, '\r', end) : nullptr;
  if (cr) {
    size_t at = static_cast<size_t>(static_cast<const char*>(cr) - data);
    if (at + 1 < n && data[at + 1] == '\n') {
      *line = rest_.substr(0, at);
      rest_.remove_prefix(at + 2);
      return true;
    }
    *line = rest_.substr(0, at);
    rest_.remove_prefix(at + 1);
    return true;
  }
  *line = rest_.substr(0, end);
  rest_.remove_prefix(end < n ? end + 1 : n);
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty()) {
    if (IsSpace(s.front())) {
      s.remove_prefix(1);
    } else if (s.size() >= 2 && static_cast<unsigned char>(s[0]) == 0xC2 &&
               static_cast<unsigned char>(s[1]) == 0xA0) {
      s.remove_prefix(2);
    } else {
      break;
    }
  }
  while (!s.empty()) {
    if (IsSpace(s.back())) {
      s.remove_suffix(1);
    } else if (s.size() >= 2 && static_cast<unsigned char>(s[s.size() - 2]) == 0xC2 &&
               static_cast<unsigned char>(s.back()) == 0xA0) {
      s.remove_suffix(2);
    } else {
      break;
    }
  }
  return s;
}

std::string_view StripBom(std::string_view s) {
  if (s.size() >= 3 && static_cast<unsigned char>(s[0]) == 0xEF &&
      static_cast<unsigned char>(s[1]) == 0xBB && static_cast<unsigned char>(s[2]) == 0xBF) {
    s.remove_prefix(3);
  }
  return s;
}

bool StartsWithIgnoreCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (Lower(s[i]) != Lower(prefix[i])) return false;
  }
  return true;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && StartsWithIgnoreCase(a, b);
}

size_t FindIgnoreCase(std::string_view s, std::string_view needle) {
  if (needle.empty()) return 0;
  if (s.size() < needle.size()) return std::string_view::npos;
  const char first = Lower(needle[0]);
  for (size_t i = 0; i + needle.size() <= s.size(); ++i) {
    if (Lower(s[i]) == first && StartsWithIgnoreCase(s.substr(i), needle)) return i;
  }
  return std::string_view::npos;
}

namespace {

// Reads 1-2 digits (or more for the first field) as a number.
size_t ReadNumber(std::string_view s, size_t at, size_t max_digits, int64_t* value) {
  size_t i = at;
  int64_t v = 0;
  while (i < s.size() && IsDigit(s[i]) && i - at < max_digits) {
    v = v * 10 + (s[i] - '0');
    ++i;
  }
  *value = v;
  return i - at;
}

}  // namespace

size_t ClockPrefix(std::string_view s, int64_t* ms) {
  int64_t fields[3] = {0, 0, 0};
  size_t count = 0;
  size_t i = 0;
  while (count < 3) {
    int64_t v = 0;
    size_t digits = ReadNumber(s, i, count == 0 ? 3 : 2, &v);
    if (digits == 0 || (count > 0 && digits != 2)) return 0;
    if (count > 0 && v >= 60) return 0;
    fields[count++] = v;
    i += digits;
    if (i < s.size() && s[i] == ':' && count < 3) {
      ++i;
      continue;
    }
    break;
  }
  if (count < 2) return 0;
  int64_t millis = 0;
  if (i < s.size() && (s[i] == '.' || s[i] == ',') && i + 1 < s.size() && IsDigit(s[i + 1])) {
    ++i;
    int64_t scale = 100;
    size_t start = i;
    while (i < s.size() && IsDigit(s[i]) && i - start < 9) {
      millis += (s[i] - '0') * scale;
      scale /= 10;
      ++i;
    }
  }
  if (i < s.size() && !IsSpace(s[i])) return 0;
  int64_t seconds =
      count == 3 ? fields[0] * 3600 + fields[1] * 60 + fields[2] : fields[0] * 60 + fields[1];
  *ms = seconds * 1000 + millis;
  return i;
}

bool ParseClock(std::string_view s, int64_t* ms) {
  int64_t value = 0;
  size_t n = ClockPrefix(s, &value);
  if (n == 0 || n != s.size()) return false;
  *ms = value;
  return true;
}

std::string FormatStamp(int64_t ms) {
  int64_t total = ms / 1000;
  int64_t h = total / 3600, m = (total / 60) % 60, s = total % 60;
  char buffer[32];
  auto two = [](char* p, int64_t v) {
    p[0] = static_cast<char>('0' + v / 10);
    p[1] = static_cast<char>('0' + v % 10);
  };
  std::string out = "[";
  if (h > 0) {
    out += std::to_string(h);
    out += ':';
  }
  two(buffer, m);
  buffer[2] = ':';
  two(buffer + 3, s);
  out.append(buffer, 5);
  out += ']';
  return out;
}

size_t PrefixBytesForChars(std::string_view s, size_t max_chars) {
  if (s.size() <= max_chars) return s.size();  // Fewer bytes than chars allowed.
  size_t chars = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (chars == max_chars) return i;
      ++chars;
    }
  }
  return s.size();
}

namespace {

// True when all 8 bytes are ASCII from 0x20 up: nothing to check or drop.
inline bool PlainWord(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  constexpr uint64_t kSpaces = 0x2020202020202020ull;
  return ((w & kHigh) | ((w - kSpaces) & ~w & kHigh)) == 0;
}

}  // namespace

namespace {

// Checks the character at s[*i] and moves past it; false if it is not clean.
inline bool StepClean(std::string_view s, size_t* i) {
  unsigned char c = static_cast<unsigned char>(s[*i]);
  if (c < 0x80) {
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
    ++*i;
    return true;
  }
  const text::Utf8Step step = text::DecodeUtf8Step(s, *i);
  if (!step.ok) return false;
  *i += step.length;
  return true;
}

}  // namespace

bool IsCleanUtf8(std::string_view s) {
  size_t i = 0;
  const size_t n = s.size();
  while (i + 8 <= n) {
    if (PlainWord(s.data() + i)) {
      i += 8;
      continue;
    }
    // A line break or a non-ASCII character in these 8 bytes: step through them.
    const size_t stop = i + 8;
    while (i < stop) {
      if (!StepClean(s, &i)) return false;
    }
  }
  while (i < n) {
    if (!StepClean(s, &i)) return false;
  }
  return true;
}

void AppendCleanUtf8(std::string_view s, std::string* out) {
  if (IsCleanUtf8(s)) {
    out->append(s);
    return;
  }
  static constexpr char kReplacement[] = "\xEF\xBF\xBD";
  out->reserve(out->size() + s.size());
  size_t i = 0;
  const size_t n = s.size();
  while (i < n) {
    // ASCII run.
    size_t start = i;
    while (i < n) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      if (c >= 0x80 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r')) break;
      ++i;
    }
    out->append(s.data() + start, i - start);
    if (i >= n) break;
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {  // A control character: dropped.
      ++i;
      continue;
    }
    const text::Utf8Step step = text::DecodeUtf8Step(s, i);
    if (step.ok) {
      out->append(s.data() + i, step.length);
      i += step.length;
    } else {  // One replacement per byte that is not part of a character.
      out->append(kReplacement, 3);
      ++i;
    }
  }
}

namespace {

bool NeedsCollapse(std::string_view s) {
  if (!s.empty() && (IsSpace(s.front()) || IsSpace(s.back()))) return true;
  if (Trim(s).size() != s.size()) return true;  // Non-breaking spaces at an end.
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c <= ' ' && (c != ' ' || (i + 1 < s.size() && s[i + 1] == ' '))) return true;
  }
  return false;
}

}  // namespace

void CollapseSpacesInPlace(std::string* s) {
  if (NeedsCollapse(*s)) *s = CollapseSpaces(*s);
}

std::string CollapseSpaces(std::string_view s) {
  s = Trim(s);
  bool simple = true;
  for (size_t i = 0; i < s.size() && simple; ++i) {
    char c = s[i];
    if (c <= ' ' && (c != ' ' || (i + 1 < s.size() && s[i + 1] == ' '))) simple = false;
  }
  if (simple) return std::string(s);
  std::string out;
  out.reserve(s.size());
  bool space = false;
  for (char c : Trim(s)) {
    if (IsSpace(c)) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string BoundedText(std::string_view s, size_t max_chars) {
  std::string out = CollapseSpaces(s);
  size_t n = PrefixBytesForChars(out, max_chars);
  if (n < out.size()) {
    out.resize(n);
    out += "\xE2\x80\xA6";
  }
  return out;
}

}  // namespace ensemble::core::meetings::scan
