#include "core/records/record_kind.h"

#include <algorithm>
#include <string>

#include "core/base/id.h"
#include "core/text/utf8.h"

namespace ensemble::core::records {

using nlohmann::json;

namespace {

bool IsLeap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int Digits(std::string_view s) {
  int n = 0;
  for (char c : s) n = n * 10 + (c - '0');
  return n;
}

std::string OneOf(std::span<const std::string_view> values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += values[i];
  }
  return out;
}

Status CheckText(const FieldSpec& field, const json& v) {
  const std::string name(field.name);
  if (!v.is_string()) return InvalidArgument(name + " must be a string");
  const auto& s = v.get_ref<const std::string&>();
  if (!text::IsValidUtf8(s)) return InvalidArgument(name + " is not valid UTF-8");
  if (field.required && text::Trim(s).empty()) return InvalidArgument(name + " must not be empty");
  if (text::CountCodePoints(s) > field.max_chars) {
    return InvalidArgument(name + " is longer than " + std::to_string(field.max_chars) +
                           " characters");
  }
  return Status::Ok();
}

Status CheckInt(const FieldSpec& field, const json& v) {
  const std::string name(field.name);
  if (!v.is_number_integer() || v.get<int64_t>() < field.min || v.get<int64_t>() > field.max) {
    return InvalidArgument(name + " must be a whole number from " + std::to_string(field.min) +
                           " to " + std::to_string(field.max));
  }
  return Status::Ok();
}

Status CheckList(const FieldSpec& field, const json& v) {
  const std::string name(field.name);
  if (!v.is_array()) return InvalidArgument(name + " must be a list");
  for (const json& item : v) {
    if (!item.is_string()) return InvalidArgument(name + " must hold strings");
    const auto& s = item.get_ref<const std::string&>();
    if (field.type == FieldType::kIdList) {
      if (!IsValidId(s)) return InvalidArgument(name + " must hold record ids");
      continue;
    }
    if (!text::IsValidUtf8(s)) return InvalidArgument(name + " holds text that is not valid UTF-8");
    if (text::CountCodePoints(s) > field.max_chars) {
      return InvalidArgument(name + " holds an item longer than " +
                             std::to_string(field.max_chars) + " characters");
    }
  }
  // The limit is on what is kept: blanks and repeats are dropped before storing.
  if (NormalizeField(field, v).size() > field.max_items) {
    return InvalidArgument(name + " holds more than " + std::to_string(field.max_items) + " items");
  }
  return Status::Ok();
}

Status CheckJson(const FieldSpec& field, const json& v) {
  const std::string name(field.name);
  if (!v.is_array() && !v.is_object())
    return InvalidArgument(name + " must be a list or an object");
  if (v.dump().size() > field.max_chars) {
    return InvalidArgument(name + " is larger than " + std::to_string(field.max_chars) + " bytes");
  }
  return field.check ? field.check(v) : Status::Ok();
}

}  // namespace

const RecordKind* RecordKinds::Find(std::string_view kind) const {
  for (const RecordKind* k : all) {
    if (k->kind == kind) return k;
  }
  return nullptr;
}

const FieldSpec* RecordKind::FindField(std::string_view name) const {
  for (const FieldSpec& f : fields) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

bool IsIsoDate(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  int y = Digits(s.substr(0, 4));
  int m = Digits(s.substr(5, 2));
  int d = Digits(s.substr(8, 2));
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= kDays[m - 1] + (m == 2 && IsLeap(y) ? 1 : 0);
}

Status CheckField(const FieldSpec& field, const json& value) {
  if (value.is_null() && field.nullable) return Status::Ok();
  const std::string name(field.name);
  switch (field.type) {
    case FieldType::kText:
      return CheckText(field, value);
    case FieldType::kEnum:
      if (value.is_string() &&
          std::find(field.values.begin(), field.values.end(),
                    value.get_ref<const std::string&>()) != field.values.end()) {
        return Status::Ok();
      }
      return InvalidArgument(name + " must be one of " + OneOf(field.values));
    case FieldType::kDate:
      if (value.is_string() && IsIsoDate(value.get_ref<const std::string&>())) return Status::Ok();
      return InvalidArgument(name + " must be a date (YYYY-MM-DD)" +
                             (field.nullable ? " or null" : ""));
    case FieldType::kInt:
      return CheckInt(field, value);
    case FieldType::kId:
      if (value.is_string() && IsValidId(value.get_ref<const std::string&>())) return Status::Ok();
      return InvalidArgument(name + " must be a record id" + (field.nullable ? " or null" : ""));
    case FieldType::kTextList:
    case FieldType::kIdList:
      return CheckList(field, value);
    case FieldType::kJson:
      return CheckJson(field, value);
  }
  return InvalidArgument("unknown field type for " + name);
}

json NormalizeField(const FieldSpec& field, const json& value) {
  if (field.type == FieldType::kText && field.trim && value.is_string()) {
    return std::string(text::Trim(value.get_ref<const std::string&>()));
  }
  if ((field.type == FieldType::kTextList || field.type == FieldType::kIdList) &&
      value.is_array()) {
    // Order is the person's; a repeat or a blank label carries nothing.
    json out = json::array();
    for (const json& item : value) {
      if (!item.is_string()) continue;
      std::string s(text::Trim(item.get_ref<const std::string&>()));
      if (s.empty() || std::find(out.begin(), out.end(), s) != out.end()) continue;
      out.push_back(std::move(s));
    }
    return out;
  }
  return value;
}

json DefaultField(const FieldSpec& field) {
  if (field.nullable) return nullptr;
  switch (field.type) {
    case FieldType::kEnum:
      return field.values.empty() ? json("") : json(std::string(field.values[0]));
    case FieldType::kInt:
      return field.min;
    case FieldType::kTextList:
    case FieldType::kIdList:
    case FieldType::kJson:
      return json::array();
    default:
      return "";
  }
}

bool StoredAsJsonText(FieldType type) {
  return type == FieldType::kTextList || type == FieldType::kIdList || type == FieldType::kJson;
}

json ToColumn(const FieldSpec& field, const json& value) {
  if (!StoredAsJsonText(field.type) || value.is_null()) return value;
  return value.dump();
}

json FromColumn(const FieldSpec& field, const json& column) {
  if (!StoredAsJsonText(field.type) || !column.is_string()) return column;
  json parsed = json::parse(column.get_ref<const std::string&>(), nullptr, false);
  if (parsed.is_discarded()) return json::array();
  return parsed;
}

std::string StringMember(const nlohmann::json& object, std::string_view key) {
  if (!object.is_object()) return "";
  auto it = object.find(std::string(key));
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace ensemble::core::records
