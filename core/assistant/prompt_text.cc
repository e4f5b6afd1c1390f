#include "core/assistant/prompt_text.h"

#include "core/base/id.h"
#include "core/refs/format_entity_text.h"
#include "core/text/ascii.h"
#include "core/text/utf8.h"

namespace ensemble::core::assistant {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
constexpr size_t kMaxKindLength = 32;
// Stands in for the '<' of a neutralised tag: one character, like '<', so a
// bound counted in characters still holds after neutralising.
constexpr std::string_view kTagGuard = "\xE2\x80\xB9";  // U+2039 '‹'

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

bool IsTagNameByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// True if s[i] == '<' starts one of our tag names: "<", spaces, optional
// "/", spaces, then "context" or "guide" not followed by a word character.
bool StartsOwnTag(std::string_view s, size_t i) {
  size_t j = i + 1;
  while (j < s.size() && text::IsAsciiSpace(s[j])) ++j;
  if (j < s.size() && s[j] == '/') ++j;
  while (j < s.size() && text::IsAsciiSpace(s[j])) ++j;
  for (std::string_view name : {std::string_view("context"), std::string_view("guide")}) {
    if (s.size() - j < name.size()) continue;
    bool same = true;
    for (size_t k = 0; k < name.size(); ++k) {
      if (Lower(s[j + k]) != name[k]) {
        same = false;
        break;
      }
    }
    if (!same) continue;
    const size_t end = j + name.size();
    if (end == s.size() || !IsTagNameByte(s[end])) return true;
  }
  return false;
}

}  // namespace

std::string CleanUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t run = 0;  // Start of the bytes kept but not yet copied.
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c != 0 && c < 0x80) {
      ++i;
      continue;
    }
    if (c != 0) {
      const text::Utf8Step step = text::DecodeUtf8Step(s, i);
      if (step.ok) {
        i += step.length;
        continue;
      }
    }
    out.append(s.data() + run, i - run);
    if (c != 0) out += kReplacement;  // A NUL is dropped.
    run = ++i;
  }
  out.append(s.data() + run, s.size() - run);
  return out;
}

std::string_view HeadChars(std::string_view s, size_t max_chars, bool* cut) {
  size_t chars = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;  // continuation
    if (chars == max_chars) {
      if (cut != nullptr) *cut = true;
      return s.substr(0, i);
    }
    ++chars;
  }
  if (cut != nullptr) *cut = false;
  return s;
}

std::string OneLine(std::string_view s, size_t max_chars) {
  const std::string clean = CleanUtf8(s);
  std::string folded;
  folded.reserve(clean.size());
  for (char c : clean) {
    const bool control = static_cast<unsigned char>(c) < 0x20 || c == 0x7F;
    if (control) {
      if (!folded.empty() && folded.back() != ' ') folded += ' ';
    } else if (c == ' ' && !folded.empty() && folded.back() == ' ') {
      continue;
    } else {
      folded += c;
    }
  }
  while (!folded.empty() && folded.back() == ' ') folded.pop_back();
  size_t start = 0;
  while (start < folded.size() && folded[start] == ' ') ++start;
  std::string_view trimmed = std::string_view(folded).substr(start);
  bool longer = false;
  HeadChars(trimmed, max_chars, &longer);
  std::string out;
  if (!longer) {
    out = std::string(trimmed);
  } else if (max_chars > 0) {
    // The ellipsis takes the last character of the bound.
    out = std::string(HeadChars(trimmed, max_chars - 1));
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += kEllipsis;
  }
  return NeutraliseTags(out);
}

std::string Block(std::string_view s) {
  const std::string clean = CleanUtf8(s);
  std::string out;
  out.reserve(clean.size());
  size_t run = 0;  // Start of the bytes kept but not yet copied.
  for (size_t i = 0; i < clean.size(); ++i) {
    const char c = clean[i];
    const bool control = static_cast<unsigned char>(c) < 0x20 || c == 0x7F;
    if (!control || c == '\n' || c == '\t') continue;
    out.append(clean.data() + run, i - run);
    if (c == '\r') {
      out += '\n';
      if (i + 1 < clean.size() && clean[i + 1] == '\n') ++i;
    }
    run = i + 1;  // Other control characters are dropped.
  }
  out.append(clean.data() + run, clean.size() - run);
  return NeutraliseTags(out);
}

std::string NeutraliseTags(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t run = 0;
  for (size_t i = s.find('<'); i != std::string_view::npos; i = s.find('<', i + 1)) {
    if (!StartsOwnTag(s, i)) continue;
    out.append(s.data() + run, i - run);
    out += kTagGuard;
    run = i + 1;
  }
  out.append(s.data() + run, s.size() - run);
  return out;
}

std::string EscapeLinkLabel(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '[' || c == ']' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

bool IsLinkableKind(std::string_view kind) {
  if (kind.empty() || kind.size() > kMaxKindLength) return false;
  if (kind[0] < 'a' || kind[0] > 'z') return false;
  for (char c : kind) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string FormatRecordLink(const RecordLink& link, size_t max_title_chars) {
  std::string title = OneLine(link.title, max_title_chars);
  if (title.empty()) title = "Untitled";
  title = EscapeLinkLabel(title);
  if (!IsLinkableKind(link.kind) || !IsValidId(link.id)) return title;
  std::string out;
  out.reserve(title.size() + link.kind.size() + link.id.size() + 16);
  out += '[';
  out += title;
  out += "](";
  out += refs::kRecordScheme;
  out += link.kind;
  out += '/';
  out += link.id;
  out += ')';
  return out;
}

}  // namespace ensemble::core::assistant
