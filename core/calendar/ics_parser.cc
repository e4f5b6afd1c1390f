#include "core/calendar/ics_parser.h"

#include <cctype>

namespace ensemble::core::calendar {
namespace {

void UpperInPlace(std::string* s) {
  for (char& c : *s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
}

bool EqualsUpper(std::string_view a, std::string_view upper) {
  if (a.size() != upper.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c != upper[i]) return false;
  }
  return true;
}

bool IsNameChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

// Splits the input into unfolded content lines.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}

  // The next non-empty unfolded line; false at the end of input. A line over
  // kMaxContentLineBytes sets *too_long.
  bool Next(std::string_view* line, bool* too_long) {
    *too_long = false;
    while (pos_ < text_.size()) {
      size_t end = NextBreak(pos_);
      size_t after = SkipBreak(end);
      // Fast path: the next physical line is not a continuation.
      if (after >= text_.size() || (text_[after] != ' ' && text_[after] != '\t')) {
        std::string_view physical = text_.substr(pos_, end - pos_);
        pos_ = after;
        if (physical.empty()) continue;
        if (physical.size() > kMaxContentLineBytes) *too_long = true;
        *line = physical;
        return true;
      }
      buffer_.assign(text_.data() + pos_, end - pos_);
      pos_ = after;
      while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) {
        end = NextBreak(pos_);
        if (buffer_.size() + (end - pos_) > kMaxContentLineBytes) {
          *too_long = true;
        } else {
          buffer_.append(text_.data() + pos_ + 1, end - pos_ - 1);
        }
        pos_ = SkipBreak(end);
      }
      if (buffer_.empty() && !*too_long) continue;
      *line = buffer_;
      return true;
    }
    return false;
  }

 private:
  size_t NextBreak(size_t from) const {
    for (size_t i = from; i < text_.size(); ++i) {
      if (text_[i] == '\n' || text_[i] == '\r') return i;
    }
    return text_.size();
  }
  size_t SkipBreak(size_t at) const {
    if (at >= text_.size()) return at;
    if (text_[at] == '\r' && at + 1 < text_.size() && text_[at + 1] == '\n') return at + 2;
    return at + 1;
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string buffer_;
};

// RFC 6868: ^n newline, ^' double quote, ^^ caret.
std::string DecodeParamValue(std::string_view v) {
  if (v.find('^') == std::string_view::npos) return std::string(v);
  std::string out;
  out.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '^' && i + 1 < v.size()) {
      const char n = v[i + 1];
      if (n == 'n' || n == 'N') {
        out += '\n';
        ++i;
        continue;
      }
      if (n == '\'') {
        out += '"';
        ++i;
        continue;
      }
      if (n == '^') {
        out += '^';
        ++i;
        continue;
      }
    }
    out += v[i];
  }
  return out;
}

// Parses "NAME;P=V;Q="a,b",c:VALUE"; false when it is not a content line.
bool ParseContentLine(std::string_view line, IcsProperty* prop) {
  size_t i = 0;
  while (i < line.size() && IsNameChar(line[i])) ++i;
  if (i == 0 || i >= line.size()) return false;
  prop->name.assign(line.data(), i);
  UpperInPlace(&prop->name);
  prop->params.clear();
  while (i < line.size() && line[i] == ';') {
    ++i;
    const size_t name_start = i;
    while (i < line.size() && IsNameChar(line[i])) ++i;
    if (i == name_start || i >= line.size() || line[i] != '=') return false;
    if (prop->params.size() >= kMaxParametersPerLine) return false;
    IcsParameter param;
    param.name.assign(line.data() + name_start, i - name_start);
    UpperInPlace(&param.name);
    ++i;  // '='
    while (true) {
      if (i < line.size() && line[i] == '"') {
        const size_t close = line.find('"', i + 1);
        if (close == std::string_view::npos) return false;
        param.values.push_back(DecodeParamValue(line.substr(i + 1, close - i - 1)));
        i = close + 1;
      } else {
        const size_t start = i;
        while (i < line.size() && line[i] != ',' && line[i] != ';' && line[i] != ':' &&
               line[i] != '"') {
          ++i;
        }
        param.values.push_back(DecodeParamValue(line.substr(start, i - start)));
      }
      if (i < line.size() && line[i] == ',' && param.values.size() < kMaxParametersPerLine) {
        ++i;
        continue;
      }
      break;
    }
    prop->params.push_back(std::move(param));
  }
  if (i >= line.size() || line[i] != ':') return false;
  prop->value.assign(line.data() + i + 1, line.size() - i - 1);
  return true;
}

Status NotCalendar() {
  return Status(codes::kNotICalendar, "not an iCalendar file: it must start with BEGIN:VCALENDAR");
}

}  // namespace

const std::string* IcsProperty::Param(std::string_view param_name) const {
  for (const IcsParameter& p : params) {
    if (p.name == param_name) return p.values.empty() ? nullptr : &p.values.front();
  }
  return nullptr;
}

const IcsProperty* IcsComponent::Find(std::string_view property_name) const {
  for (const IcsProperty& p : properties) {
    if (p.name == property_name) return &p;
  }
  return nullptr;
}

Result<std::vector<IcsComponent>> ParseIcs(std::string_view text) {
  if (text.size() > kMaxIcsBytes) {
    return Status(core::codes::kBodyTooLarge, "the calendar is larger than 5 MB");
  }
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  // Leading blank lines are tolerated, anything else before BEGIN is not.
  LineReader reader(text);
  std::vector<IcsComponent> calendars;
  std::vector<IcsComponent> stack;  // Open components, innermost last.
  std::string_view line;
  bool too_long = false;
  bool first = true;
  IcsProperty prop;
  while (reader.Next(&line, &too_long)) {
    if (too_long) {
      if (first) return NotCalendar();
      return Status(codes::kMalformedICalendar, "a line is longer than 1 MB");
    }
    const bool is_line = ParseContentLine(line, &prop);
    if (first) {
      std::string_view v = prop.value;
      while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
      if (!is_line || prop.name != "BEGIN" || !EqualsUpper(v, "VCALENDAR")) return NotCalendar();
      first = false;
    }
    if (!is_line) continue;
    if (prop.name == "BEGIN") {
      if (stack.size() >= kMaxComponentDepth) {
        return Status(codes::kMalformedICalendar, "components are nested too deeply");
      }
      IcsComponent c;
      c.name = prop.value;
      while (!c.name.empty() && (c.name.back() == ' ' || c.name.back() == '\t')) c.name.pop_back();
      UpperInPlace(&c.name);
      if (stack.empty() && c.name != "VCALENDAR") continue;  // Junk between calendars.
      stack.push_back(std::move(c));
      continue;
    }
    if (prop.name == "END") {
      std::string name = prop.value;
      while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
      UpperInPlace(&name);
      // Close up to the matching component; an END matching nothing is ignored.
      size_t match = stack.size();
      for (size_t i = stack.size(); i-- > 0;) {
        if (stack[i].name == name) {
          match = i;
          break;
        }
      }
      if (match == stack.size()) continue;
      while (stack.size() > match) {
        IcsComponent done = std::move(stack.back());
        stack.pop_back();
        if (stack.empty()) {
          calendars.push_back(std::move(done));
        } else {
          stack.back().children.push_back(std::move(done));
        }
      }
      continue;
    }
    if (!stack.empty()) stack.back().properties.push_back(prop);
  }
  if (first) return NotCalendar();
  while (!stack.empty()) {  // Truncated feed: keep what was read.
    IcsComponent done = std::move(stack.back());
    stack.pop_back();
    if (stack.empty()) {
      calendars.push_back(std::move(done));
    } else {
      stack.back().children.push_back(std::move(done));
    }
  }
  return calendars;
}

std::string UnescapeText(std::string_view raw) {
  if (raw.find('\\') == std::string_view::npos) return std::string(raw);
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size()) {
      const char n = raw[++i];
      out += (n == 'n' || n == 'N') ? '\n' : n;
    } else {
      out += raw[i];
    }
  }
  return out;
}

}  // namespace ensemble::core::calendar
