// JsonReader: a strict pull reader over JSON text for the hot path of routing
// (core/assistant/route_turn.h's TurnRouter), which reads a request without
// building a json tree or copying its strings.
//
// It is a fast path, not a parser of record: every read returns false on
// anything it does not handle (numbers with an exponent or more than 18
// characters, a "\u" escape of a surrogate, a byte order mark, nesting deeper
// than kMaxJsonReaderDepth) as well as on invalid JSON, and the caller then
// parses the text with nlohmann::json, which words the error (or accepts what
// the reader declined). Whatever the reader accepts, nlohmann accepts with the
// same values: strings are checked as strict UTF-8 (RFC 3629) and control
// characters are refused, as nlohmann does. The route fuzzer compares the two.
//
// Strings come back as views: into the text when the string has no escape,
// else into the reader's own buffer, reserved to the text's size at the first
// escape so that the views stay valid for the reader's lifetime.
//
// Thread-safety: a JsonReader is used by one thread; the text must outlive it.

#ifndef ENSEMBLE_CORE_TEXT_JSON_READER_H_
#define ENSEMBLE_CORE_TEXT_JSON_READER_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace ensemble::core::text {

// Arrays and objects nested deeper than this are declined (Skip recurses).
inline constexpr int kMaxJsonReaderDepth = 64;

class JsonReader {
 public:
  explicit JsonReader(std::string_view text);
  JsonReader(const JsonReader&) = delete;
  JsonReader& operator=(const JsonReader&) = delete;

  // Reads an object: for each member, on_member(key) must read its value and
  // return true (false stops the read and declines).
  template <typename Fn>
  bool ReadObject(Fn&& on_member);

  // Reads an array: for each item, on_item() must read it and return true.
  template <typename Fn>
  bool ReadArray(Fn&& on_item);

  bool ReadString(std::string_view* out);
  bool ReadBool(bool* out);
  // True (and consumed) when the next value is null.
  bool TakeNull();
  // The next value, whatever it is (declined shapes aside).
  bool Skip();
  // True when only whitespace is left.
  bool AtEnd();
  // The next non-whitespace byte, or '\0' at the end.
  char Peek();

 private:
  void SkipSpace();
  bool Consume(char c);
  bool SkipNumber();
  bool SkipLiteral(std::string_view literal);
  bool SkipValue(int depth);
  bool DecodeEscapes(std::size_t start, std::string_view* out);

  std::string_view text_;
  std::size_t pos_ = 0;
  std::string decoded_;  // Reserved to text_.size() when first used: never
                         // reallocates after.
};

template <typename Fn>
bool JsonReader::ReadObject(Fn&& on_member) {
  if (!Consume('{')) return false;
  if (Consume('}')) return true;
  while (true) {
    std::string_view key;
    if (Peek() != '"' || !ReadString(&key) || !Consume(':')) return false;
    if (!on_member(key)) return false;
    if (Consume(',')) continue;
    return Consume('}');
  }
}

template <typename Fn>
bool JsonReader::ReadArray(Fn&& on_item) {
  if (!Consume('[')) return false;
  if (Consume(']')) return true;
  while (true) {
    if (!on_item()) return false;
    if (Consume(',')) continue;
    return Consume(']');
  }
}

}  // namespace ensemble::core::text

#endif  // ENSEMBLE_CORE_TEXT_JSON_READER_H_
