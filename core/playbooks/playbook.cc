#include "core/playbooks/playbook.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <utility>

#include "core/text/ascii.h"

namespace ensemble::core::playbooks {
namespace {

enum class FieldKind { kScalar, kList, kBool };

struct FieldSpec {
  std::string_view key;
  FieldKind kind;
};

constexpr std::array<FieldSpec, 11> kFields = {{
    {"name", FieldKind::kScalar},
    {"title", FieldKind::kScalar},
    {"when", FieldKind::kScalar},
    {"tools", FieldKind::kList},
    {"match", FieldKind::kList},
    {"paths", FieldKind::kList},
    {"mentions", FieldKind::kList},
    {"appTools", FieldKind::kBool},
    {"module", FieldKind::kScalar},
    {"requires", FieldKind::kList},
    {"include", FieldKind::kList},
}};

const FieldSpec* FindField(std::string_view key) {
  for (const FieldSpec& f : kFields) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

bool IsSpace(char c) { return c == ' ' || c == '\t'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (IsSpace(s.front()) || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (IsSpace(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool IsFence(std::string_view line) { return Trim(line) == "---"; }

// One field's raw value as read from the front matter.
struct RawField {
  std::size_t line = 0;
  std::vector<std::string> items;  // One item for scalars and booleans.
  bool quoted_scalar = false;
};

// Reads values with the line's position so every message can name it.
class FrontMatterReader {
 public:
  explicit FrontMatterReader(std::string_view source) : source_(source) {}

  Status Error(std::size_t line, std::string_view field, std::string_view what) const {
    std::string msg(source_.empty() ? "playbook" : source_);
    msg += " line " + std::to_string(line) + ": ";
    if (!field.empty()) msg += "field '" + std::string(field) + "': ";
    msg += what;
    return Status(codes::kInvalidArgument, std::move(msg));
  }

  // Reads one item from `s` at `*pos`: a quoted string, or plain text up to a
  // comma (when `stop_at_comma`) or the end. Leaves *pos after the item.
  Result<std::string> ReadItem(std::string_view s, std::size_t* pos, bool stop_at_comma,
                               std::size_t line, std::string_view field, bool* quoted) const {
    while (*pos < s.size() && IsSpace(s[*pos])) ++*pos;
    std::string out;
    *quoted = false;
    if (*pos < s.size() && (s[*pos] == '"' || s[*pos] == '\'')) {
      const char q = s[*pos];
      ++*pos;
      bool closed = false;
      while (*pos < s.size()) {
        char c = s[(*pos)++];
        if (c == q) {
          // In single quotes '' is a literal quote, as in YAML.
          if (q == '\'' && *pos < s.size() && s[*pos] == '\'') {
            out += '\'';
            ++*pos;
            continue;
          }
          closed = true;
          break;
        }
        if (q == '"' && c == '\\' && *pos < s.size()) {
          char e = s[(*pos)++];
          if (e != '"' && e != '\\') {
            return Error(line, field,
                         std::string("unknown escape '\\") + e + "' in a quoted string");
          }
          c = e;
        }
        out += c;
      }
      if (!closed) return Error(line, field, "quoted string has no closing quote");
      while (*pos < s.size() && IsSpace(s[*pos])) ++*pos;
      if (*pos < s.size() && !(stop_at_comma && s[*pos] == ',')) {
        return Error(line, field, "unexpected text after a quoted string");
      }
      *quoted = true;
    } else {
      std::size_t end = stop_at_comma ? s.find(',', *pos) : std::string_view::npos;
      if (end == std::string_view::npos) end = s.size();
      out = std::string(Trim(s.substr(*pos, end - *pos)));
      *pos = end;
      if (out.empty()) return Error(line, field, "empty item");
    }
    if (out.empty()) return Error(line, field, "empty item");
    if (out.size() > kMaxValueLength) {
      return Error(line, field,
                   "value is longer than " + std::to_string(kMaxValueLength) + " characters");
    }
    return out;
  }

  // Reads a comma-separated list: the inside of `[...]` or a plain value.
  Status ReadList(std::string_view s, std::size_t line, std::string_view field,
                  std::vector<std::string>* items) const {
    std::size_t pos = 0;
    while (true) {
      bool quoted = false;
      ENSEMBLE_ASSIGN_OR_RETURN(std::string item,
                                ReadItem(s, &pos, /*stop_at_comma=*/true, line, field, &quoted));
      ENSEMBLE_RETURN_IF_ERROR(Append(std::move(item), line, field, items));
      if (pos >= s.size()) return Status::Ok();
      ++pos;  // The comma.
    }
  }

  Status Append(std::string item, std::size_t line, std::string_view field,
                std::vector<std::string>* items) const {
    if (std::find(items->begin(), items->end(), item) != items->end()) {
      return Error(line, field, "'" + item + "' is listed twice");
    }
    if (items->size() >= kMaxListItems) {
      return Error(line, field, "more than " + std::to_string(kMaxListItems) + " items");
    }
    items->push_back(std::move(item));
    return Status::Ok();
  }

 private:
  std::string_view source_;
};

bool IsLower(char c) { return c >= 'a' && c <= 'z'; }

// [a-z][a-z0-9_]* up to kMaxToolNameLength: tool names and mention kinds.
bool IsValidIdentifier(std::string_view s) {
  if (s.empty() || s.size() > kMaxToolNameLength || !IsLower(s.front())) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return IsLower(c) || text::IsAsciiDigit(c) || c == '_'; });
}

// Splits text into lines without their line ends.
std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

std::string TrimBody(std::string_view body) {
  // Drop leading blank lines (not leading spaces of the first text line:
  // indentation can matter in Markdown) and trailing whitespace.
  while (true) {
    std::size_t nl = body.find('\n');
    if (nl == std::string_view::npos || !Trim(body.substr(0, nl)).empty()) break;
    body.remove_prefix(nl + 1);
  }
  while (!body.empty() && (IsSpace(body.back()) || body.back() == '\n' || body.back() == '\r')) {
    body.remove_suffix(1);
  }
  if (Trim(body).empty()) return {};
  return std::string(body);
}

}  // namespace

bool IsValidPlaybookName(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameLength || !IsLower(name.front())) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return IsLower(c) || text::IsAsciiDigit(c) || c == '-'; });
}

Result<Playbook> ParsePlaybook(std::string_view text, std::string_view source) {
  FrontMatterReader reader(source);
  if (text.size() > kMaxPlaybookBytes) {
    return reader.Error(1, {},
                        "file is " + std::to_string(text.size()) + " bytes; at most " +
                            std::to_string(kMaxPlaybookBytes) + " are allowed");
  }
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 BOM.
  std::vector<std::string_view> lines = SplitLines(text);
  if (lines.empty() || !IsFence(lines[0])) {
    return reader.Error(1, {}, "a playbook must start with a '---' line opening its front matter");
  }
  std::size_t close = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (IsFence(lines[i])) {
      close = i;
      break;
    }
  }
  if (close == 0) return reader.Error(1, {}, "the front matter has no closing '---' line");
  if (close - 1 > kMaxFrontMatterLines) {
    return reader.Error(
        close + 1, {},
        "front matter is longer than " + std::to_string(kMaxFrontMatterLines) + " lines");
  }

  std::map<std::string, RawField, std::less<>> fields;
  std::string block_key;  // The list field whose `- item` lines follow.
  for (std::size_t i = 1; i < close; ++i) {
    const std::size_t line_no = i + 1;
    std::string_view line = lines[i];
    std::string_view trimmed = Trim(line);
    if (trimmed.empty() || trimmed.front() == '#') continue;
    if (trimmed.front() == '-' && (trimmed.size() == 1 || IsSpace(trimmed[1]))) {
      if (block_key.empty()) {
        return reader.Error(line_no, {},
                            "a '- item' line must follow a list field such as 'tools:'");
      }
      std::string_view rest = Trim(trimmed.substr(1));
      std::size_t pos = 0;
      bool quoted = false;
      ENSEMBLE_ASSIGN_OR_RETURN(
          std::string item,
          reader.ReadItem(rest, &pos, /*stop_at_comma=*/false, line_no, block_key, &quoted));
      RawField& field = fields[block_key];
      ENSEMBLE_RETURN_IF_ERROR(reader.Append(std::move(item), line_no, block_key, &field.items));
      continue;
    }
    if (IsSpace(line.front())) {
      return reader.Error(line_no, {},
                          "unexpected indentation (only '- item' lines may be indented)");
    }
    block_key.clear();
    std::size_t colon = trimmed.find(':');
    if (colon == std::string_view::npos) {
      return reader.Error(line_no, {}, "expected 'key: value'");
    }
    std::string key(Trim(trimmed.substr(0, colon)));
    std::string_view value = Trim(trimmed.substr(colon + 1));
    const FieldSpec* spec = FindField(key);
    if (spec == nullptr) {
      return reader.Error(line_no, key,
                          "unknown field (known: name, title, when, tools, match, paths, "
                          "mentions, appTools, module, requires, include)");
    }
    if (auto it = fields.find(key); it != fields.end()) {
      return reader.Error(line_no, key,
                          "given twice (first on line " + std::to_string(it->second.line) + ")");
    }
    RawField& field = fields[key];
    field.line = line_no;
    if (value.empty()) {
      if (spec->kind != FieldKind::kList) return reader.Error(line_no, key, "has no value");
      block_key = key;
      continue;
    }
    if (spec->kind == FieldKind::kList) {
      if (value.front() == '[') {
        if (value.back() != ']') return reader.Error(line_no, key, "list has no closing ']'");
        std::string_view inner = Trim(value.substr(1, value.size() - 2));
        if (inner.empty()) {
          return reader.Error(line_no, key, "empty list (leave the field out instead)");
        }
        ENSEMBLE_RETURN_IF_ERROR(reader.ReadList(inner, line_no, key, &field.items));
      } else {
        ENSEMBLE_RETURN_IF_ERROR(reader.ReadList(value, line_no, key, &field.items));
      }
      continue;
    }
    if (value.front() == '[') {
      return reader.Error(line_no, key, "expects a single value, not a list");
    }
    std::size_t pos = 0;
    ENSEMBLE_ASSIGN_OR_RETURN(
        std::string item,
        reader.ReadItem(value, &pos, /*stop_at_comma=*/false, line_no, key, &field.quoted_scalar));
    if (spec->kind == FieldKind::kBool &&
        (field.quoted_scalar || (item != "true" && item != "false"))) {
      return reader.Error(line_no, key, "expects true or false");
    }
    field.items.push_back(std::move(item));
  }

  for (const auto& [key, field] : fields) {
    if (field.items.empty()) {
      return reader.Error(field.line, key, "list has no items (leave the field out instead)");
    }
  }

  Playbook pb;
  auto scalar = [&](std::string_view key) -> std::string {
    auto it = fields.find(key);
    return it == fields.end() ? std::string() : it->second.items.front();
  };
  auto list = [&](std::string_view key) -> std::vector<std::string> {
    auto it = fields.find(key);
    return it == fields.end() ? std::vector<std::string>() : it->second.items;
  };
  auto line_of = [&](std::string_view key) -> std::size_t {
    auto it = fields.find(key);
    return it == fields.end() ? close + 1 : it->second.line;
  };
  for (std::string_view required : {"name", "title", "when", "tools"}) {
    if (fields.find(required) == fields.end()) {
      return reader.Error(close + 1, required, "is required");
    }
  }
  pb.name = scalar("name");
  if (!IsValidPlaybookName(pb.name)) {
    return reader.Error(line_of("name"), "name",
                        "'" + pb.name + "' must be 1 to " + std::to_string(kMaxNameLength) +
                            " of a-z, 0-9 and '-', starting with a letter");
  }
  pb.title = scalar("title");
  pb.when = scalar("when");
  pb.module = scalar("module");
  pb.app_tools = scalar("appTools") == "true";
  pb.tools = list("tools");
  pb.match = list("match");
  pb.paths = list("paths");
  pb.mentions = list("mentions");
  pb.requires_tools = list("requires");
  pb.include = list("include");

  for (std::string_view key : {"tools", "requires"}) {
    for (const std::string& tool : list(key)) {
      if (!IsValidIdentifier(tool)) {
        return reader.Error(line_of(key), key,
                            "'" + tool +
                                "' is not a tool name (a-z, 0-9 and '_', starting with "
                                "a letter, at most " +
                                std::to_string(kMaxToolNameLength) + ")");
      }
    }
  }
  for (const std::string& kind : pb.mentions) {
    if (!IsValidIdentifier(kind)) {
      return reader.Error(line_of("mentions"), "mentions",
                          "'" + kind + "' is not a mention kind (a-z, 0-9 and '_')");
    }
  }
  for (const std::string& path : pb.paths) {
    if (path.front() != '/') {
      return reader.Error(line_of("paths"), "paths", "'" + path + "' must start with '/'");
    }
  }
  for (const std::string& name : pb.include) {
    if (!IsValidPlaybookName(name)) {
      return reader.Error(line_of("include"), "include", "'" + name + "' is not a playbook name");
    }
    if (name == pb.name) {
      return reader.Error(line_of("include"), "include", "a playbook cannot include itself");
    }
  }
  if (!pb.module.empty() && !IsValidPlaybookName(pb.module)) {
    return reader.Error(line_of("module"), "module", "'" + pb.module + "' is not a module name");
  }

  // The body starts after the closing fence line.
  std::size_t offset = 0;
  for (std::size_t i = 0; i <= close; ++i) {
    offset = text.find('\n', offset);
    if (offset == std::string_view::npos) break;
    ++offset;
  }
  pb.body = offset == std::string_view::npos ? std::string() : TrimBody(text.substr(offset));
  return pb;
}

}  // namespace ensemble::core::playbooks
