#include "core/text/json_fields.h"

#include <algorithm>
#include <utility>

#include "core/text/trim.h"
#include "core/text/utf8.h"

namespace ensemble::core::text {
namespace {

constexpr size_t kMaxNamedKeyBytes = 40;

std::string FieldName(std::string_view where, const char* key) {
  std::string name(where);
  if (!name.empty()) name += '.';
  name += key;
  return name;
}

}  // namespace

Status JsonFields::Invalid(std::string_view message) const {
  std::string text(prefix_);
  text += message;
  return InvalidArgument(std::move(text));
}

Status JsonFields::CheckKnownKeys(const nlohmann::json& object, std::string_view where,
                                  std::initializer_list<std::string_view> known) const {
  if (!object.is_object()) return Invalid(std::string(where) + " must be an object");
  for (const auto& [key, value] : object.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      return Invalid(std::string(where) + " has an unknown key " + key_quote_ +
                     key.substr(0, kMaxNamedKeyBytes) + key_quote_);
    }
  }
  return Status::Ok();
}

Status JsonFields::ReadText(const nlohmann::json& object, const char* key, std::string_view where,
                            const TextRule& rule, std::string* out) const {
  const auto it = object.find(key);
  if (it == object.end()) {
    return rule.required ? Invalid(FieldName(where, key) + " is required") : Status::Ok();
  }
  if (!it->is_string()) return Invalid(FieldName(where, key) + " must be a string");
  const std::string& value = it->get_ref<const std::string&>();
  if (value.size() > rule.max_bytes) {
    return Invalid(FieldName(where, key) + " is longer than " + std::to_string(rule.max_bytes) +
                   " bytes");
  }
  const bool counts_chars = rule.max_chars != TextRule::kNoLimit;
  if ((rule.check_utf8 || counts_chars) && !IsValidUtf8(value)) {
    return Invalid(FieldName(where, key) + " is not valid UTF-8");
  }
  if (counts_chars && CountCodePoints(value) > rule.max_chars) {
    return Invalid(FieldName(where, key) + " has more than " + FormatCount(rule.max_chars) +
                   " characters");
  }
  if (!rule.allow_empty && value.empty()) return Invalid(FieldName(where, key) + " is empty");
  *out = value;
  return Status::Ok();
}

}  // namespace ensemble::core::text
