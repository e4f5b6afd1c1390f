#include "core/refs/readable_preview.h"

#include <optional>
#include <utility>
#include <vector>

#include "core/base/id.h"
#include "core/refs/format_entity_text.h"
#include "core/text/ascii.h"
#include "core/text/trim.h"
#include "core/text/typography.h"
#include "core/text/utf8.h"

namespace ensemble::core::refs {

using text::IsAsciiSpace;
using text::kCloseQuote;
using text::kEllipsis;
using text::kOpenQuote;
namespace {

bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsLower(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
std::vector<std::string> SplitWords(std::string_view key) {
  std::vector<std::string> words;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) words.push_back(std::move(word));
    word.clear();
  };
  for (size_t i = 0; i < key.size(); ++i) {
    char c = key[i];
    if (c == '_' || c == '-' || c == '.' || IsAsciiSpace(c)) {
      flush();
      continue;
    }
    if (IsUpper(c) && !word.empty()) {
      bool after_lower = IsLower(key[i - 1]);
      bool acronym_end = IsUpper(key[i - 1]) && i + 1 < key.size() && IsLower(key[i + 1]) &&
                         !(key[i + 1] >= '0' && key[i + 1] <= '9');
      if (after_lower || acronym_end) flush();
    }
    word += IsUpper(c) ? static_cast<char>(c + ('a' - 'A')) : c;
  }
  flush();
  return words;
}

std::string Quoted(std::string_view title) {
  return std::string(kOpenQuote) + text::TruncateChars(title, kMaxPreviewValueChars) +
         std::string(kCloseQuote);
}

// A known record as “Title”; a title told apart from others of the same
// label keeps its marker outside the quotes: “Call Mira” (due Dec 1).
std::string QuotedRef(const KnownRef& known) {
  const std::string& label = known.ref.label;
  if (known.title.size() > label.size() && known.title.compare(0, label.size(), label) == 0) {
    return Quoted(label) + known.title.substr(label.size());
  }
  return Quoted(known.title);
}

std::string OneLine(std::string_view s) {
  std::string line;
  for (char c : text::Trim(s)) {
    if (IsAsciiSpace(c)) {
      if (!line.empty() && line.back() != ' ') line += ' ';
    } else {
      line += c;
    }
  }
  return line;
}

// "a, b and c", or "a, b, c, d, e and 3 more".
std::string JoinList(const std::vector<std::string>& items, size_t more) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += (i + 1 == items.size() && more == 0) ? " and " : ", ";
    out += items[i];
  }
  if (more > 0) out += " and " + text::FormatCount(more) + " more";
  return out;
}

bool IsIdKey(std::string_view key) { return key == "id" || key == "ids"; }
bool IsTitleKey(std::string_view key) { return key == "title" || key == "name"; }

template <typename Json>
class Previewer {
 public:
  explicit Previewer(const RefSet& refs) : refs_(refs) {}

  // True if `value` is a string that is a record id this turn does not know.
  bool IsUnknownId(const Json& value) const {
    if (!value.is_string()) return false;
    const auto& s = value.template get_ref<const std::string&>();
    return refs_.Find(s) == nullptr && IsValidId(s);
  }

  // The value in words, or nullopt when it is left out (unknown ids only).
  std::optional<std::string> Value(const Json& value, size_t depth) const {
    switch (value.type()) {
      case nlohmann::detail::value_t::string:
        return String(value.template get_ref<const std::string&>());
      case nlohmann::detail::value_t::boolean:
        return std::string(value.template get<bool>() ? "yes" : "no");
      case nlohmann::detail::value_t::null:
        return std::string("none");
      case nlohmann::detail::value_t::array:
        return List(value, depth);
      case nlohmann::detail::value_t::object: {
        if (depth >= kMaxPreviewDepth) return std::string(kEllipsis);
        std::string name = Name(value);
        std::vector<std::string> parts = Fields(value, depth + 1, kMaxPreviewListItems);
        if (parts.empty()) {
          if (name.empty()) return std::nullopt;
          return name;
        }
        std::string inner = "(" + JoinParts(parts) + ")";
        return name.empty() ? inner : name + " " + inner;
      }
      case nlohmann::detail::value_t::discarded:
      case nlohmann::detail::value_t::binary:
        return std::nullopt;
      default:  // numbers
        return value.dump();
    }
  }

  // The record(s) an object is about: its known ids' titles, else its own
  // title or name; empty if neither.
  std::string Name(const Json& object) const {
    std::vector<std::string> titles;
    size_t more = 0;
    for (const char* key : {"id", "ids"}) {
      auto it = object.find(key);
      if (it == object.end()) continue;
      auto add = [&](const Json& v) {
        if (!v.is_string()) return;
        const KnownRef* known = refs_.Find(v.template get_ref<const std::string&>());
        if (known == nullptr) return;
        if (titles.size() < kMaxPreviewListItems) {
          titles.push_back(QuotedRef(*known));
        } else {
          ++more;
        }
      };
      if (it->is_array()) {
        for (const Json& v : *it) add(v);
      } else {
        add(*it);
      }
    }
    if (!titles.empty()) return JoinList(titles, more);
    if (HasIdKey(object)) return {};
    for (const char* key : {"title", "name"}) {
      auto it = object.find(key);
      if (it != object.end() && it->is_string()) {
        std::string line = OneLine(text::RepairUtf8(it->template get_ref<const std::string&>()));
        if (!line.empty() && !IsValidId(line)) return Quoted(line);
      }
    }
    return {};
  }

  // "<field> <value>" parts of an object, its name fields left out, at most
  // `max_fields` (then "…"), stopping once `budget` code points are used.
  std::vector<std::string> Fields(const Json& object, size_t depth, size_t max_fields,
                                  size_t budget = std::string::npos) const {
    std::vector<std::string> parts;
    bool named_by_title = !HasIdKey(object);
    size_t used = 0;
    for (auto it = object.begin(); it != object.end(); ++it) {
      const std::string& key = it.key();
      if (IsIdKey(key) || (named_by_title && IsTitleKey(key) && it->is_string() &&
                           !OneLine(it->template get_ref<const std::string&>()).empty())) {
        continue;
      }
      if (parts.size() == max_fields || used > budget) {
        parts.push_back(std::string(kEllipsis));
        break;
      }
      std::optional<std::string> value = Value(*it, depth);
      if (!value) continue;
      std::string words = FieldWords(key);
      std::string part = words.empty() ? *value : words + " " + *value;
      used += text::CountCodePoints(part) + 2;
      parts.push_back(std::move(part));
    }
    return parts;
  }

 private:
  bool HasIdKey(const Json& object) const {
    return object.find("id") != object.end() || object.find("ids") != object.end();
  }

  std::optional<std::string> String(const std::string& raw) const {
    if (const KnownRef* known = refs_.Find(raw)) return QuotedRef(*known);
    if (IsValidId(raw)) return std::nullopt;
    std::string repaired = text::RepairUtf8(raw);
    FormatOptions plain;
    plain.plain = true;
    std::string line = OneLine(FormatEntityText(repaired, refs_, plain));
    if (line.empty()) return std::string("empty");
    return text::TruncateChars(line, kMaxPreviewValueChars);
  }

  std::optional<std::string> List(const Json& array, size_t depth) const {
    if (array.empty()) return std::string("none");
    std::vector<std::string> items;
    size_t more = 0;
    for (const Json& v : array) {
      if (items.size() == kMaxPreviewListItems) {
        if (!IsUnknownId(v)) ++more;
        continue;
      }
      if (std::optional<std::string> item = Value(v, depth)) items.push_back(std::move(*item));
    }
    if (items.empty()) return std::nullopt;
    return JoinList(items, more);
  }

  static std::string JoinParts(const std::vector<std::string>& parts) {
    std::string out;
    for (const std::string& p : parts) {
      if (!out.empty()) out += ", ";
      out += p;
    }
    return out;
  }

  const RefSet& refs_;
};

template <typename Json>
std::string Preview(std::string_view tool_name, const Json& input, const RefSet& refs) {
  std::string out = ToolAction(tool_name);
  Previewer<Json> previewer(refs);
  std::vector<std::string> parts;
  if (input.is_object()) {
    std::string name = previewer.Name(input);
    if (!name.empty()) out += " " + name;
    parts = previewer.Fields(input, 1, std::string::npos, kMaxPreviewChars);
  } else if (input.is_null()) {
    // A call without input: the action says it all.
  } else if (std::optional<std::string> value = previewer.Value(input, 1)) {
    parts.push_back(std::move(*value));
  }
  // Whole parts while they fit; ", …" says more were left out.
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string candidate = out + (i == 0 ? ": " : ", ") + parts[i];
    bool last = i + 1 == parts.size();
    size_t reserve = last ? 0 : 3;
    if (text::CountCodePoints(candidate) + reserve <= kMaxPreviewChars) {
      out = std::move(candidate);
      continue;
    }
    if (i == 0) return text::TruncateChars(candidate, kMaxPreviewChars);
    out += ", " + std::string(kEllipsis);
    break;
  }
  return text::TruncateChars(out, kMaxPreviewChars);
}

}  // namespace

std::string ToolAction(std::string_view tool_name) {
  for (std::string_view prefix : {"hub_", "apps_"}) {
    if (tool_name.substr(0, prefix.size()) == prefix) {
      tool_name.remove_prefix(prefix.size());
      break;
    }
  }
  std::string out;
  for (const std::string& w : SplitWords(tool_name)) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 32);
  return out;
}

std::string FieldWords(std::string_view key) {
  std::vector<std::string> words = SplitWords(key);
  if (words.size() >= 2 && (words.back() == "id" || words.back() == "ids")) {
    bool plural = words.back() == "ids";
    words.pop_back();
    if (plural) words.back() = words.back() == "person" ? "people" : words.back() + "s";
  }
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

std::string ReadablePreview(std::string_view tool_name, const nlohmann::json& input,
                            const RefSet& refs) {
  return Preview(tool_name, input, refs);
}

std::string ReadablePreview(std::string_view tool_name, const nlohmann::ordered_json& input,
                            const RefSet& refs) {
  return Preview(tool_name, input, refs);
}

}  // namespace ensemble::core::refs
