#include "core/tools/tool_schema.h"

#include <utility>

namespace ensemble::core::tools::schema {
namespace {

json Described(json schema, std::string_view description) {
  if (!description.empty()) schema["description"] = std::string(description);
  return schema;
}

}  // namespace

json Str(std::size_t max_chars, std::string_view description) {
  return Described({{"type", "string"}, {"maxLength", max_chars}}, description);
}

json Text(std::size_t max_chars, std::string_view description) {
  return Described({{"type", "string"}, {"minLength", 1}, {"maxLength", max_chars}}, description);
}

json Id(std::string_view description) { return Text(kMaxIdChars, description); }

json Ids(std::string_view description, std::size_t max_items) {
  return Array(Id(), max_items, description, 1);
}

json Enum(std::initializer_list<std::string_view> values, std::string_view description) {
  json list = json::array();
  for (std::string_view v : values) list.push_back(std::string(v));
  return Described({{"type", "string"}, {"enum", std::move(list)}}, description);
}

json RecordKind(std::string_view description) {
  return Enum({"task", "project", "deliverable", "page", "person", "meeting", "board", "file",
               "skill", "event"},
              description);
}

json Int(int min, int max, std::string_view description) {
  return Described({{"type", "integer"}, {"minimum", min}, {"maximum", max}}, description);
}

json Bool(std::string_view description) { return Described({{"type", "boolean"}}, description); }

json Date(std::string_view description) {
  return Described({{"type", "string"}, {"format", "date"}, {"maxLength", 10}},
                   description.empty() ? "YYYY-MM-DD" : description);
}

json DateTime(std::string_view description) {
  return Described({{"type", "string"}, {"format", "date-time"}, {"maxLength", 40}},
                   description.empty() ? "ISO 8601 date-time with offset" : description);
}

json Url(std::string_view description) {
  return Described({{"type", "string"}, {"pattern", "^https?://"}, {"maxLength", kMaxUrlChars}},
                   description);
}

json Array(json items, std::size_t max_items, std::string_view description, std::size_t min_items) {
  json schema = {{"type", "array"}, {"items", std::move(items)}, {"maxItems", max_items}};
  if (min_items > 0) schema["minItems"] = min_items;
  return Described(std::move(schema), description);
}

json Nullable(json schema) {
  schema["type"] = json::array({schema.value("type", "string"), "null"});
  // An enum must admit null too, or the type alone would not.
  if (schema.contains("enum")) schema["enum"].push_back(nullptr);
  return schema;
}

json Object(json properties, std::vector<std::string> required, std::string_view description) {
  json schema = {
      {"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = std::move(required);
  return Described(std::move(schema), description);
}

json WithPaging(json properties) {
  properties["limit"] = Int(1, kMaxListLimit, "How many to return (default 50)");
  properties["offset"] = Int(0, 1000000, "Where to continue a cut list");
  return properties;
}

}  // namespace ensemble::core::tools::schema
