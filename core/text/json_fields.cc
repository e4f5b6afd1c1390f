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
  if (it == object.end() || (rule.allow_null && it->is_null())) {
    return rule.required ? Invalid(FieldName(where, key) + " is required") : Status::Ok();
  }
  return CheckText(*it, FieldName(where, key), rule, out);
}

Status JsonFields::ReadTextList(const nlohmann::json& object, const char* key,
                                std::string_view where, size_t min_items, size_t max_items,
                                const TextRule& item_rule, std::vector<std::string>* out) const {
  const auto it = object.find(key);
  if (it == object.end() || (item_rule.allow_null && it->is_null())) {
    return item_rule.required ? Invalid(FieldName(where, key) + " is required") : Status::Ok();
  }
  const std::string name = FieldName(where, key);
  if (!it->is_array() || it->size() < min_items || it->size() > max_items) {
    const std::string count = min_items == max_items
                                  ? FormatCount(max_items)
                                  : FormatCount(min_items) + " to " + FormatCount(max_items);
    return Invalid(name + " must be a list of " + count + " strings");
  }
  std::vector<std::string> items(it->size());
  for (size_t i = 0; i < it->size(); ++i) {
    ENSEMBLE_RETURN_IF_ERROR(
        CheckText((*it)[i], name + "[" + std::to_string(i) + "]", item_rule, &items[i]));
  }
  *out = std::move(items);
  return Status::Ok();
}

Status JsonFields::CheckText(const nlohmann::json& value, const std::string& name,
                             const TextRule& rule, std::string* out) const {
  if (!value.is_string()) return Invalid(name + " must be a string");
  const std::string& text = value.get_ref<const std::string&>();
  if (text.size() > rule.max_bytes) {
    return Invalid(name + " is longer than " + std::to_string(rule.max_bytes) + " bytes");
  }
  const bool counts_chars = rule.max_chars != TextRule::kNoLimit;
  if ((rule.check_utf8 || counts_chars) && !IsValidUtf8(text)) {
    return Invalid(name + " is not valid UTF-8");
  }
  if (counts_chars && CountCodePoints(text) > rule.max_chars) {
    return Invalid(name + " has more than " + FormatCount(rule.max_chars) + " characters");
  }
  if (!rule.allow_empty && text.empty()) return Invalid(name + " is empty");
  *out = text;
  return Status::Ok();
}

}  // namespace ensemble::core::text
