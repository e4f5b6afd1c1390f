#include "core/tools/validate.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <optional>

#include "core/tools/valijson_nlohmann.h"

namespace ensemble::core::tools {
namespace {

using nlohmann::json;

std::string Dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string ValueText(const json& value) {
  return value.is_string() ? value.get<std::string>() : Dump(value);
}

bool IsIdentifier(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$';
  });
}

// ".title", or `["odd key"]` for a name a reader could not tell apart.
std::string PropertyStep(std::string_view name) {
  if (IsIdentifier(name)) return "." + std::string(name);
  return "[" + Dump(json(std::string(name))) + "]";
}

// A tool name echoed in a message: bounded, cut on a UTF-8 boundary.
std::string EchoName(std::string_view name) {
  if (name.size() <= kMaxToolNameLength) return std::string(name);
  std::size_t cut = kMaxToolNameLength;
  while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
  return std::string(name.substr(0, cut)) + "…";
}

const json* Key(const json* schema, const char* key) {
  if (schema == nullptr || !schema->is_object()) return nullptr;
  auto it = schema->find(key);
  return it == schema->end() ? nullptr : &*it;
}

const json* PropertySchema(const json* schema, const std::string& name) {
  if (const json* props = Key(schema, "properties"); props && props->is_object()) {
    if (auto it = props->find(name); it != props->end()) return &*it;
  }
  const json* extra = Key(schema, "additionalProperties");
  return extra && extra->is_object() ? extra : nullptr;
}

const json* ItemSchema(const json* schema, std::size_t index) {
  const json* items = Key(schema, "items");
  if (items && items->is_object()) return items;
  if (items && items->is_array()) {
    if (index < items->size()) return &(*items)[index];
    const json* extra = Key(schema, "additionalItems");
    return extra && extra->is_object() ? extra : nullptr;
  }
  return nullptr;
}

// Where a valijson error points: the readable path, and the raw schema of
// that place (null where the path runs through anyOf and the like).
struct Place {
  std::string path = "input";
  const json* schema = nullptr;
};

Place Locate(const std::vector<std::string>& context, const json& input, const json& schema) {
  Place place;
  place.schema = &schema;
  const json* at = &input;
  // context[0] is valijson's "<root>"; each later step is "[name]" or "[index]".
  for (std::size_t i = 1; i < context.size(); ++i) {
    const std::string& raw = context[i];
    std::string step = raw.size() >= 2 ? raw.substr(1, raw.size() - 2) : raw;
    if (at != nullptr && at->is_array()) {
      std::size_t index = std::strtoull(step.c_str(), nullptr, 10);
      place.path += "[" + step + "]";
      place.schema = ItemSchema(place.schema, index);
      at = index < at->size() ? &(*at)[index] : nullptr;
    } else {
      place.path += PropertyStep(step);
      place.schema = PropertySchema(place.schema, step);
      const json* next = nullptr;
      if (at != nullptr && at->is_object()) {
        if (auto it = at->find(step); it != at->end()) next = &*it;
      }
      at = next;
    }
  }
  return place;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The name between the last pair of single quotes of a valijson message.
std::string QuotedName(const std::string& description) {
  std::size_t close = description.rfind('\'');
  if (close == std::string::npos || close == 0) return {};
  std::size_t open = description.rfind('\'', close - 1);
  if (open == std::string::npos) return {};
  return description.substr(open + 1, close - open - 1);
}

// A schema keyword's value as text, or `fallback` when the place is unknown.
std::string Bound(const Place& place, const char* key, const std::string& fallback) {
  const json* value = Key(place.schema, key);
  return value ? ValueText(*value) : fallback;
}

// The number valijson wrote after `prefix` (its integer bounds are exact).
std::string NumberAfter(const std::string& description, std::string_view prefix) {
  std::string rest = description.substr(prefix.size());
  std::size_t end = rest.find_first_not_of("0123456789.-");
  return rest.substr(0, end);
}

std::string TypeWord(const std::string& type) {
  if (type == "string") return "a string";
  if (type == "integer") return "an integer";
  if (type == "number") return "a number";
  if (type == "boolean") return "true or false";
  if (type == "object") return "an object";
  if (type == "array") return "an array";
  return type;  // "null".
}

std::string TypeMessage(const Place& place) {
  const json* type = Key(place.schema, "type");
  if (type && type->is_string()) return "must be " + TypeWord(type->get<std::string>());
  if (type && type->is_array() && !type->empty()) {
    std::string words;
    for (const json& t : *type) {
      if (!words.empty()) words += " or ";
      words += t.is_string() ? TypeWord(t.get<std::string>()) : Dump(t);
    }
    return "must be " + words;
  }
  return "has the wrong type";
}

std::string EnumMessage(const Place& place) {
  const json* values = Key(place.schema, "enum");
  if (!values || !values->is_array() || values->empty()) return "is not one of the allowed values";
  std::string list;
  std::size_t listed = 0;
  for (const json& v : *values) {
    if (listed == kMaxListedValues) {
      list += ", …";
      break;
    }
    if (listed++ > 0) list += ", ";
    list += ValueText(v);
  }
  return "must be one of " + list;
}

std::string UnknownPropertyMessage(const Place& parent) {
  const json* props = Key(parent.schema, "properties");
  if (!props || !props->is_object() || props->empty()) return "is not allowed";
  std::string list;
  for (const auto& [name, sub] : props->items()) list += (list.empty() ? "" : ", ") + name;
  return "is not allowed; known properties: " + list;
}

// valijson reports the schema that contains a failing one too ("Failed to
// validate item #0 in array."); only the innermost error says what is wrong.
bool IsWrapper(const std::string& d) {
  return StartsWith(d, "Failed to validate item #") ||
         StartsWith(d, "Failed to validate against schema associated with") ||
         StartsWith(d, "Failed to validate against additional properties schema") ||
         StartsWith(d, "Failed to validate against dependent schema") ||
         StartsWith(d, "Failed to validate against a conditional schema") ||
         StartsWith(d, "Failed to validate against child schema #");
}

// One valijson error in words the model can act on; nullopt for a wrapper.
std::optional<ValidationError> Translate(const valijson::ValidationResults::Error& error,
                                         const json& input, const json& schema) {
  const std::string& d = error.description;
  if (IsWrapper(d)) return std::nullopt;
  Place place = Locate(error.context, input, schema);
  if (StartsWith(d, "Missing required property")) {
    return ValidationError{place.path + PropertyStep(QuotedName(d)), "missing required property"};
  }
  if (StartsWith(d, "Object contains a property that could not be validated")) {
    return ValidationError{place.path + PropertyStep(QuotedName(d)), UnknownPropertyMessage(place)};
  }
  std::string message;
  if (StartsWith(d, "Value type not permitted")) {
    message = TypeMessage(place);
  } else if (StartsWith(d, "Failed to match against any enum values")) {
    message = EnumMessage(place);
  } else if (StartsWith(d, "Failed to match expected value set by 'const'")) {
    message = "must be " + Bound(place, "const", "the one allowed value");
  } else if (StartsWith(d, "String should be no more than ")) {
    message = "must be at most " +
              Bound(place, "maxLength", NumberAfter(d, "String should be no more than ")) +
              " characters";
  } else if (StartsWith(d, "String should be no fewer than ")) {
    std::string n = Bound(place, "minLength", NumberAfter(d, "String should be no fewer than "));
    message = n == "1" ? "must not be empty" : "must be at least " + n + " characters";
  } else if (StartsWith(d, "Array should contain no more than ")) {
    message = "must have at most " +
              Bound(place, "maxItems", NumberAfter(d, "Array should contain no more than ")) +
              " items";
  } else if (StartsWith(d, "Array should contain no fewer than ")) {
    std::string n = Bound(place, "minItems", NumberAfter(d, "Array should contain no fewer than "));
    message = "must have at least " + n + (n == "1" ? " item" : " items");
  } else if (StartsWith(d, "Object should have no more than ")) {
    message = "must have at most " + Bound(place, "maxProperties", "fewer") + " properties";
  } else if (StartsWith(d, "Object should have no fewer than ")) {
    message = "must have at least " + Bound(place, "minProperties", "more") + " properties";
  } else if (StartsWith(d, "Expected number less than or equal to")) {
    message = "must be at most " + Bound(place, "maximum", "the maximum");
  } else if (StartsWith(d, "Expected number less than")) {
    message = "must be less than " + Bound(place, "exclusiveMaximum", "the maximum");
  } else if (StartsWith(d, "Expected number greater than or equal to")) {
    message = "must be at least " + Bound(place, "minimum", "the minimum");
  } else if (StartsWith(d, "Expected number greater than")) {
    message = "must be greater than " + Bound(place, "exclusiveMinimum", "the minimum");
  } else if (StartsWith(d, "Value should be a multiple of")) {
    message = "must be a multiple of " + Bound(place, "multipleOf", "the step");
  } else if (StartsWith(d, "Failed to match regex")) {
    // Formats are compiled as patterns (tool_registry.cc); say which.
    const json* format = Key(place.schema, "format");
    if (format && *format == "date") {
      message = "must be a date (YYYY-MM-DD)";
    } else if (format && *format == "time") {
      message = "must be a time (HH:MM:SS with Z or an offset)";
    } else if (format && *format == "date-time") {
      message = "must be a date-time (YYYY-MM-DDTHH:MM:SSZ or with an offset)";
    } else {
      message = "must match the pattern " + Bound(place, "pattern", "given");
    }
  } else if (d == "String should be a valid date") {
    message = "must be a date (YYYY-MM-DD)";
  } else if (d == "String should be a valid time") {
    message = "must be a time (HH:MM:SS with Z or an offset)";
  } else if (d == "String should be a valid date-time") {
    message = "must be a date-time (YYYY-MM-DDTHH:MM:SSZ or with an offset)";
  } else if (StartsWith(d, "Elements at indexes")) {
    message = "must not repeat an item";
  } else if (StartsWith(d, "Array contains more items") ||
             StartsWith(d, "Cannot validate item #")) {
    message = "has too many items";
  } else if (StartsWith(d, "Failed to validate against any")) {
    message = "does not match any of the allowed forms";
  } else if (StartsWith(d, "Failed to validate against exactly one")) {
    message = "matches more than one of the allowed forms";
  } else if (StartsWith(d, "Target should not validate")) {
    message = "is not allowed here";
  } else {
    // A constraint without its own wording: valijson's, as a clause.
    message = d;
    if (!message.empty() && message.back() == '.') message.pop_back();
    if (!message.empty() && message[0] >= 'A' && message[0] <= 'Z') message[0] += 'a' - 'A';
  }
  return ValidationError{place.path, std::move(message)};
}

}  // namespace

ToolCallCheck CheckToolCall(const ToolRegistry& registry, std::string_view name,
                            const json& input) {
  ToolCallCheck check;
  const ToolDef* tool = registry.Find(name);
  const valijson::Schema* schema = registry.CompiledSchema(name);
  if (tool == nullptr || schema == nullptr) {
    check.status = Status(codes::kUnknownTool, "no tool called \"" + EchoName(name) + "\"");
    return check;
  }
  valijson::ValidationResults results;
  try {
    // A Validator caches each compiled "pattern" regex; building them again
    // on every call would cost more than the validation. One per thread, so
    // concurrent calls never share the cache.
    thread_local valijson::Validator validator;
    valijson::adapters::NlohmannJsonAdapter target(input);
    if (validator.validate(*schema, target, &results)) return check;
  } catch (const std::exception& e) {
    // A schema valijson compiled but cannot apply (a bad regex): the tool's
    // definition is wrong, not the call.
    check.status = Status(codes::kInternal,
                          "tool " + tool->name + ": schema could not be applied: " + e.what());
    return check;
  }
  std::vector<ValidationError> all;
  for (const auto& error : results) {
    std::optional<ValidationError> e = Translate(error, input, tool->input_schema);
    if (e && std::find(all.begin(), all.end(), *e) == all.end()) all.push_back(std::move(*e));
  }
  if (all.empty()) all.push_back({"input", "does not match the tool's schema"});
  std::string message = "invalid input for " + tool->name + ": ";
  for (std::size_t i = 0; i < all.size() && i < kMaxReportedErrors; ++i) {
    if (i > 0) message += "; ";
    message += all[i].path + ": " + all[i].message;
  }
  if (all.size() > kMaxReportedErrors) {
    message += "; and " + std::to_string(all.size() - kMaxReportedErrors) + " more";
    all.resize(kMaxReportedErrors);
  }
  check.status = Status(codes::kInvalidToolInput, std::move(message));
  check.errors = std::move(all);
  return check;
}

Status ValidateToolCall(const ToolRegistry& registry, std::string_view name, const json& input) {
  return CheckToolCall(registry, name, input).status;
}

}  // namespace ensemble::core::tools
