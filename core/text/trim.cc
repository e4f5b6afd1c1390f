#include "core/text/trim.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/text/typography.h"
#include "core/text/utf8.h"

namespace ensemble::core::text {
namespace {

using nlohmann::json;

constexpr std::string_view kReplacement = "\uFFFD";

bool IsContinuation(char c) { return (static_cast<uint8_t>(c) & 0xC0) == 0x80; }

// The byte offset `n` code points after `from` (or the end).
size_t AdvanceChars(std::string_view s, size_t from, size_t n) {
  size_t i = from;
  while (n > 0 && i < s.size()) {
    ++i;
    while (i < s.size() && IsContinuation(s[i])) ++i;
    --n;
  }
  return i;
}

// The byte offset `n` code points before `from` (or 0).
size_t RetreatChars(std::string_view s, size_t from, size_t n) {
  size_t i = from;
  while (n > 0 && i > 0) {
    --i;
    while (i > 0 && IsContinuation(s[i])) --i;
    --n;
  }
  return i;
}

size_t Chars(std::string_view s) { return CountCodePoints(s); }

std::string Marker(size_t cut) {
  return "\n" + std::string(kEllipsis) + " [" + FormatCount(cut) +
         (cut == 1 ? " character cut] " : " characters cut] ") + std::string(kEllipsis) + "\n";
}

// HeadAndTail of text already known to be valid UTF-8.
std::string HeadAndTailValid(std::string_view text, size_t max_chars) {
  size_t total = Chars(text);
  if (total <= max_chars) return std::string(text);
  size_t marker_chars = Chars(Marker(total));  // the longest marker this text can need
  if (max_chars < marker_chars + 2 * kMinPartChars) return TruncateChars(text, max_chars);
  size_t budget = max_chars - marker_chars;
  size_t head_chars = (budget + 1) / 2;
  size_t tail_chars = budget / 2;
  size_t head_end = AdvanceChars(text, 0, head_chars);
  size_t tail_begin = RetreatChars(text, text.size(), tail_chars);

  // Meet a line break when one is near: the head ends before it (the marker
  // brings its own), the tail starts after it.
  size_t lowest = RetreatChars(text, head_end, std::min(kLineSnapChars, head_chars / 4));
  size_t nl = text.rfind('\n', head_end);
  if (nl != std::string_view::npos && nl >= lowest) {
    head_end = nl;
    if (head_end > 0 && text[head_end - 1] == '\r') --head_end;
  }
  size_t highest = AdvanceChars(text, tail_begin, std::min(kLineSnapChars, tail_chars / 4));
  nl = text.find('\n', tail_begin - 1);
  if (nl != std::string_view::npos && nl < highest) tail_begin = nl + 1;

  std::string_view head = text.substr(0, head_end);
  std::string_view tail = text.substr(tail_begin);
  std::string out(head);
  out += Marker(total - Chars(head) - Chars(tail));
  out += tail;
  return out;
}

std::string ListNote(size_t offset, size_t shown, size_t n) {
  std::string note = "Showing ";
  if (offset == 0) {
    note += FormatCount(shown);
  } else {
    note += FormatCount(offset + 1) + "\u2013" + FormatCount(offset + shown);
  }
  note += " of " + FormatCount(offset + n) +
          "; call again with offset: " + std::to_string(offset + shown) + " for the rest.";
  return note;
}

std::string CutItemNote(size_t offset, size_t n) {
  std::string note = "Showing item " + FormatCount(offset + 1) + " of " + FormatCount(offset + n) +
                     ", cut in the middle";
  if (n > 1) {
    note += "; call again with offset: " + std::to_string(offset + 1) + " for the rest.";
  } else {
    note += ".";
  }
  return note;
}

// How many leading items fit in `room` characters (their compact JSON joined
// by commas).
size_t CountFitting(const json& items, size_t room) {
  size_t used = 0;
  size_t k = 0;
  for (const json& item : items) {
    size_t cost = Chars(DumpJson(item)) + (k > 0 ? 1 : 0);
    if (used + cost > room) break;
    used += cost;
    ++k;
  }
  return k;
}

// `whole` with the list at `ptr` cut to whole items and the note after it;
// nullopt when the rest of `whole` leaves no room for a list to be cut.
std::optional<std::string> CutList(const json& whole, const json::json_pointer& ptr,
                                   size_t max_chars, size_t offset) {
  const json& items = whole.at(ptr);
  size_t n = items.size();
  if (n == 0) return std::nullopt;
  json shell = whole;
  shell[ptr] = json::array();
  std::string shell_dump = DumpJson(shell);
  size_t shell_chars = Chars(shell_dump);
  size_t note_chars = std::max(Chars(ListNote(offset, n, n)), Chars(CutItemNote(offset, n)));
  size_t overhead = shell_chars + 1 + note_chars;  // 1: the line break before the note
  if (shell_chars - 2 > max_chars / 2 || overhead + 2 * kMinPartChars > max_chars) {
    return std::nullopt;
  }
  size_t k = CountFitting(items, max_chars - overhead);
  if (k > 0) {
    json kept = json::array();
    for (size_t i = 0; i < k; ++i) kept.push_back(items[i]);
    shell[ptr] = std::move(kept);
    return DumpJson(shell) + "\n" + ListNote(offset, k, n);
  }
  // Not even one whole item fits: show the first one cut, so a caller paging
  // through still moves forward.
  std::string prefix = ptr.empty() ? std::string() : shell_dump + "\n";
  size_t room = max_chars - Chars(prefix) - 1 - note_chars;
  return prefix + HeadAndTailValid(DumpJson(items[0]), room) + "\n" + CutItemNote(offset, n);
}

// The list TrimToolResult cuts: the result itself, an array member, or an
// array inside an object member; the largest when there are several.
std::optional<json::json_pointer> FindList(const json& result) {
  if (result.is_array()) return json::json_pointer();
  if (!result.is_object()) return std::nullopt;
  std::optional<json::json_pointer> best;
  size_t best_chars = 0;
  auto consider = [&](const json& value, json::json_pointer ptr) {
    if (!value.is_array() || value.empty()) return;
    size_t chars = Chars(DumpJson(value));
    if (!best || chars > best_chars) {
      best = std::move(ptr);
      best_chars = chars;
    }
  };
  for (const auto& [key, value] : result.items()) {
    consider(value, json::json_pointer() / key);
    if (!value.is_object()) continue;
    for (const auto& [inner_key, inner] : value.items()) {
      consider(inner, json::json_pointer() / key / inner_key);
    }
  }
  return best;
}

}  // namespace

std::string DumpJson(const json& value) {
  return value.dump(-1, ' ', /*ensure_ascii=*/false, json::error_handler_t::replace);
}

std::string FormatCount(size_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string CountText(size_t n, std::string_view one, std::string_view many) {
  return FormatCount(n) + " " + std::string(n == 1 ? one : many);
}

std::string JoinWithAnd(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " and " : ", ";
    out += items[i];
  }
  return out;
}

std::string RepairUtf8(std::string_view s) {
  if (IsValidUtf8(s)) return std::string(s);
  std::string out;
  out.reserve(s.size() + 8);
  size_t i = 0;
  while (i < s.size()) {
    // Maximal subparts, as a browser's TextDecoder replaces them.
    const Utf8Step step = DecodeUtf8Step(s, i);
    if (step.ok) {
      out.append(s.substr(i, step.length));
    } else {
      out += kReplacement;
    }
    i += step.length;
  }
  return out;
}

std::string TruncateChars(std::string_view s, size_t max_chars) {
  if (Chars(s) <= max_chars) return std::string(s);
  if (max_chars == 0) return {};
  std::string out(s.substr(0, AdvanceChars(s, 0, max_chars - 1)));
  out += kEllipsis;
  return out;
}

std::string HeadAndTail(std::string_view text, size_t max_chars) {
  if (IsValidUtf8(text)) return HeadAndTailValid(text, max_chars);
  return HeadAndTailValid(RepairUtf8(text), max_chars);
}

std::string FitList(const json& items, size_t max_chars, size_t offset) {
  std::string full = DumpJson(items);
  if (Chars(full) <= max_chars) return full;
  if (items.is_array()) {
    if (auto cut = CutList(items, json::json_pointer(), max_chars, offset)) return *std::move(cut);
  }
  return HeadAndTailValid(full, max_chars);
}

std::string TrimToolResult(const json& result, size_t max_chars, size_t offset) {
  std::string full = DumpJson(result);
  if (Chars(full) <= max_chars) return full;
  if (auto ptr = FindList(result)) {
    if (auto cut = CutList(result, *ptr, max_chars, offset)) return *std::move(cut);
  }
  return HeadAndTailValid(full, max_chars);
}

}  // namespace ensemble::core::text
