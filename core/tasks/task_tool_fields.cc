#include "core/tasks/task_tool_fields.h"

#include <optional>
#include <vector>

#include "core/records/record_kind.h"
#include "core/tasks/task.h"
#include "core/text/trim.h"
#include "core/tools/record_rows.h"

namespace ensemble::core::tasks {

using nlohmann::json;
using tools::DayText;
using tools::Quoted;
using tools::ToolContext;
namespace {

struct FieldName {
  std::string_view input;
  std::string_view record;
};
constexpr FieldName kFieldNames[] = {{"title", "title"},
                                     {"status", "status"},
                                     {"due", "due"},
                                     {"description", "description"},
                                     {"priority", "priority"},
                                     {"projectId", "project"},
                                     {"personIds", "people"},
                                     {"labels", "labels"},
                                     {"dependsOn", "depends_on"},
                                     {"blocks", "blocks"},
                                     {"pageId", "page"}};

using tools::record_rows::Noun;
namespace nouns = tools::record_rows;

// The kind a link field points at, or null for a field that links nothing.
// Other domains' kinds are named, not included (record_rows::KindOf).
const Noun* LinkNoun(std::string_view field) {
  if (field == "project") return &nouns::kProject;
  if (field == "people") return &nouns::kPerson;
  if (field == "depends_on" || field == "blocks") return &nouns::kTask;
  if (field == "page") return &nouns::kPage;
  return nullptr;
}

// The ids a link field's value names (one, a list, or none for null).
std::vector<std::string> LinkedIds(const json& value) {
  std::vector<std::string> ids;
  if (value.is_string()) ids.push_back(value.get<std::string>());
  if (value.is_array()) {
    for (const json& id : value) {
      if (id.is_string()) ids.push_back(id.get<std::string>());
    }
  }
  return ids;
}

// “Title” of a linked record of the space; "one no longer here" for a link
// to a record since removed (still never its id).
std::string LinkedTitle(ToolContext& ctx, const Noun& noun, const std::string& id) {
  Result<std::optional<json>> row = tools::record_rows::FindInSpace(ctx, noun, id);
  if (!row.ok() || !*row) return "a " + std::string(noun.singular) + " no longer here";
  return Quoted(tools::record_rows::TitleOf(noun, **row));
}

bool IsEmptyValue(const json& v) {
  return v.is_null() || (v.is_string() && v.get_ref<const std::string&>().empty()) ||
         (v.is_array() && v.empty());
}

// The value as text: titles quoted, dates as days, links by title.
std::string ValueText(ToolContext& ctx, std::string_view field, const json& value) {
  if (const Noun* noun = LinkNoun(field)) {
    std::vector<std::string> titles;
    for (const std::string& id : LinkedIds(value)) titles.push_back(LinkedTitle(ctx, *noun, id));
    return text::JoinWithAnd(titles);
  }
  if (field == "labels") {
    std::vector<std::string> labels;
    for (const json& l : value) labels.push_back(l.get<std::string>());
    return text::JoinWithAnd(labels);
  }
  if (field == "due") return DayText(value.get<std::string>(), ctx.today);
  if (field == "title" || field == "description") return Quoted(value.get<std::string>());
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// What the field reads as when cleared ("no due date").
std::string ClearedText(std::string_view field) {
  if (field == "due") return "no due date";
  if (field == "depends_on") return "no dependencies";
  if (field == "blocks") return "blocks nothing";
  return "no " + std::string(field);
}

}  // namespace

std::string_view RecordFieldOf(std::string_view input_name) {
  for (const FieldName& f : kFieldNames) {
    if (f.input == input_name) return f.record;
  }
  return "";
}

std::string_view InputNameOf(std::string_view record_field) {
  for (const FieldName& f : kFieldNames) {
    if (f.record == record_field) return f.input;
  }
  return record_field;
}

Result<json> RecordFields(const json& input) {
  json out = json::object();
  if (!input.is_object()) return out;
  for (const auto& [name, given] : input.items()) {
    const std::string_view field = RecordFieldOf(name);
    if (field.empty()) continue;
    json value = given;
    if (field == "priority" && value.is_null()) value = std::string(tasks::kPriorities[0]);
    const records::FieldSpec& spec = TaskField(field);
    Status st = records::CheckField(spec, value);
    if (!st.ok()) return InvalidArgument(name + ": " + st.message());
    out[std::string(field)] = records::NormalizeField(spec, value);
  }
  return out;
}

Status ResolveLinks(ToolContext& ctx, const json& fields, const std::string& self_id) {
  for (const auto& [name, value] : fields.items()) {
    const Noun* noun = LinkNoun(name);
    if (!noun) continue;
    for (const std::string& id : LinkedIds(value)) {
      if (!self_id.empty() && id == self_id && noun == &nouns::kTask) {
        return InvalidArgument(std::string(InputNameOf(name)) + ": a task cannot link to itself");
      }
      ENSEMBLE_RETURN_IF_ERROR(tools::record_rows::LiveInSpace(ctx, *noun, id).status());
    }
  }
  return Status::Ok();
}

std::string ChangesText(ToolContext& ctx, const json& fields) {
  std::string out;
  for (const auto& [name, value] : fields.items()) {
    std::string part;
    if (IsEmptyValue(value) && name != "title") {
      part = ClearedText(name);
    } else if (name == "depends_on") {
      part = "depends on " + ValueText(ctx, name, value);
    } else if (name == "blocks") {
      part = "blocks " + ValueText(ctx, name, value);
    } else {
      part = name + " to " + ValueText(ctx, name, value);
    }
    out += (out.empty() ? "" : ", ") + part;
  }
  return out;
}

std::string CurrentText(ToolContext& ctx, const Task& current, const json& fields) {
  std::string out;
  for (const auto& [name, _] : fields.items()) {
    const json value = RecordValue(current, name);
    out += (out.empty() ? "" : ", ") + std::string(InputNameOf(name)) + " is now " +
           (IsEmptyValue(value) ? std::string("empty") : ValueText(ctx, name, value));
  }
  return out;
}

}  // namespace ensemble::core::tasks
