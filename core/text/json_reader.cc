#include "core/text/json_reader.h"

#include <cstdint>
#include <cstring>

#include "core/text/ascii.h"
#include "core/text/utf8.h"

namespace ensemble::core::text {
namespace {

// Numbers longer than this are declined, so every accepted one is finite
// and nlohmann reads it without overflow.
constexpr std::size_t kMaxNumberChars = 18;

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// True when the eight bytes at `p` are printable ASCII other than '"' and
// '\\': bytes ReadString steps over. Eight at a time, as most of a request
// is names (exact: never true when one of the bytes is special).
bool PlainAscii8(const char* p) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull;
  constexpr std::uint64_t kHigh = 0x8080808080808080ull;
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  const std::uint64_t quote = x ^ (kOnes * '"');
  const std::uint64_t backslash = x ^ (kOnes * '\\');
  // Per byte, the high bit flags: a zero byte of `quote` or `backslash`, a
  // byte of x below 0x20, a byte of x at or above 0x80.
  const std::uint64_t special = ((quote - kOnes) & ~quote) | ((backslash - kOnes) & ~backslash) |
                                ((x - kOnes * 0x20) & ~x) | x;
  return (special & kHigh) == 0;
}

}  // namespace

JsonReader::JsonReader(std::string_view text) : text_(text) {}

void JsonReader::SkipSpace() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
    ++pos_;
  }
}

char JsonReader::Peek() {
  SkipSpace();
  return pos_ < text_.size() ? text_[pos_] : '\0';
}

bool JsonReader::Consume(char c) {
  if (Peek() != c || pos_ >= text_.size()) return false;
  ++pos_;
  return true;
}

bool JsonReader::AtEnd() {
  SkipSpace();
  return pos_ == text_.size();
}

bool JsonReader::ReadString(std::string_view* out) {
  if (!Consume('"')) return false;
  const std::size_t start = pos_;
  while (pos_ < text_.size()) {
    while (pos_ + 8 <= text_.size() && PlainAscii8(text_.data() + pos_)) pos_ += 8;
    if (pos_ >= text_.size()) break;
    const unsigned char c = static_cast<unsigned char>(text_[pos_]);
    if (c == '"') {
      *out = text_.substr(start, pos_ - start);
      ++pos_;
      return true;
    }
    if (c == '\\') return DecodeEscapes(start, out);
    if (c < 0x20) return false;
    if (c < 0x80) {
      ++pos_;
      continue;
    }
    const Utf8Step step = DecodeUtf8Step(text_, pos_);
    if (!step.ok) return false;
    pos_ += step.length;
  }
  return false;
}

// Continues ReadString from the first backslash, decoding into decoded_.
bool JsonReader::DecodeEscapes(std::size_t start, std::string_view* out) {
  // Reserved at the first escape (most requests have none), to the whole
  // text: decoded strings are never longer than their text, so it never
  // reallocates and earlier views stay valid.
  if (decoded_.capacity() < text_.size()) decoded_.reserve(text_.size());
  const std::size_t begin = decoded_.size();
  decoded_.append(text_.substr(start, pos_ - start));
  while (pos_ < text_.size()) {
    const unsigned char c = static_cast<unsigned char>(text_[pos_]);
    if (c == '"') {
      ++pos_;
      *out = std::string_view(decoded_).substr(begin);
      return true;
    }
    if (c < 0x20) return false;
    if (c >= 0x80) {
      const Utf8Step step = DecodeUtf8Step(text_, pos_);
      if (!step.ok) return false;
      decoded_.append(text_.substr(pos_, step.length));
      pos_ += step.length;
      continue;
    }
    if (c != '\\') {
      decoded_.push_back(static_cast<char>(c));
      ++pos_;
      continue;
    }
    if (pos_ + 1 >= text_.size()) return false;
    const char e = text_[pos_ + 1];
    pos_ += 2;
    switch (e) {
      case '"':
        decoded_.push_back('"');
        break;
      case '\\':
        decoded_.push_back('\\');
        break;
      case '/':
        decoded_.push_back('/');
        break;
      case 'b':
        decoded_.push_back('\b');
        break;
      case 'f':
        decoded_.push_back('\f');
        break;
      case 'n':
        decoded_.push_back('\n');
        break;
      case 'r':
        decoded_.push_back('\r');
        break;
      case 't':
        decoded_.push_back('\t');
        break;
      case 'u': {
        if (pos_ + 4 > text_.size()) return false;
        unsigned code = 0;
        for (int k = 0; k < 4; ++k) {
          const int h = HexValue(text_[pos_ + k]);
          if (h < 0) return false;
          code = code * 16 + static_cast<unsigned>(h);
        }
        // Surrogate pairs are left to nlohmann. Six bytes of text decode to
        // at most three, so decoded_ keeps within its reservation.
        if (code >= 0xD800 && code <= 0xDFFF) return false;
        pos_ += 4;
        AppendUtf8(static_cast<char32_t>(code), &decoded_);
        break;
      }
      default:
        return false;
    }
  }
  return false;
}

bool JsonReader::ReadBool(bool* out) {
  const char c = Peek();
  if (c == 't' && SkipLiteral("true")) {
    *out = true;
    return true;
  }
  if (c == 'f' && SkipLiteral("false")) {
    *out = false;
    return true;
  }
  return false;
}

bool JsonReader::TakeNull() { return Peek() == 'n' && SkipLiteral("null"); }

bool JsonReader::SkipLiteral(std::string_view literal) {
  if (text_.substr(pos_, literal.size()) != literal) return false;
  pos_ += literal.size();
  return true;
}

// -?(0|[1-9][0-9]*)(\.[0-9]+)?, at most kMaxNumberChars; exponents are
// declined.
bool JsonReader::SkipNumber() {
  const std::size_t start = pos_;
  if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
  if (pos_ >= text_.size() || !IsAsciiDigit(text_[pos_])) return false;
  if (text_[pos_] == '0') {
    ++pos_;
  } else {
    while (pos_ < text_.size() && IsAsciiDigit(text_[pos_])) ++pos_;
  }
  if (pos_ < text_.size() && text_[pos_] == '.') {
    ++pos_;
    if (pos_ >= text_.size() || !IsAsciiDigit(text_[pos_])) return false;
    while (pos_ < text_.size() && IsAsciiDigit(text_[pos_])) ++pos_;
  }
  if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) return false;
  return pos_ - start <= kMaxNumberChars;
}

bool JsonReader::Skip() { return SkipValue(0); }

bool JsonReader::SkipValue(int depth) {
  if (depth >= kMaxJsonReaderDepth) return false;
  switch (Peek()) {
    case '{':
      return ReadObject([&](std::string_view) { return SkipValue(depth + 1); });
    case '[':
      return ReadArray([&] { return SkipValue(depth + 1); });
    case '"': {
      std::string_view ignored;
      return ReadString(&ignored);
    }
    case 't':
      return SkipLiteral("true");
    case 'f':
      return SkipLiteral("false");
    case 'n':
      return SkipLiteral("null");
    default:
      return SkipNumber();
  }
}

}  // namespace ensemble::core::text
