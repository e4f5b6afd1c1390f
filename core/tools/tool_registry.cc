#include "core/tools/tool_registry.h"

#include <algorithm>
#include <exception>
#include <utility>

#include "core/tools/valijson_nlohmann.h"

namespace ensemble::core::tools {

struct ToolRegistry::Entry {
  ToolDef def;
  valijson::Schema schema;
  std::string schema_text;
};

namespace {

bool Contains(const std::vector<std::string>& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// valijson 1.0 checks "format" (date, time, date-time) on values of every
// type, and throws on a non-empty object or array. Its "pattern" checks
// strings only, so the compiled copy states those formats as patterns; the
// schema the model sees keeps "format", and validate.cc words the failure.
const char* FormatPattern(const nlohmann::json& format) {
  if (format == "date") return "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$";
  if (format == "time") {
    return "^([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):"
           "[0-5][0-9])$";
  }
  if (format == "date-time") {
    return "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt]([01][0-9]|2[0-3]):[0-5][0-9]:"
           "([0-5][0-9]|60)(\\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$";
  }
  return nullptr;
}

nlohmann::json CompilableCopy(const nlohmann::json& schema) {
  if (schema.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : schema) out.push_back(CompilableCopy(item));
    return out;
  }
  if (!schema.is_object()) return schema;
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : schema.items()) {
    // Values, not schemas: left as written.
    const bool data = key == "enum" || key == "const" || key == "default" || key == "examples";
    out[key] = data ? value : CompilableCopy(value);
  }
  if (auto it = out.find("format"); it != out.end()) {
    if (const char* pattern = FormatPattern(*it)) {
      if (!out.contains("pattern")) out["pattern"] = pattern;
      out.erase("format");
    }
  }
  return out;
}

// Compiles `schema` into `out`; valijson throws on what it cannot compile.
Status CompileSchema(const nlohmann::json& schema, valijson::Schema& out) {
  if (!schema.is_object() || !schema.contains("type") || schema["type"] != "object") {
    return Status(codes::kInvalidArgument, "input schema must be {\"type\": \"object\", ...}");
  }
  try {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    const nlohmann::json compilable = CompilableCopy(schema);
    valijson::adapters::NlohmannJsonAdapter adapter(compilable);
    parser.populateSchema(adapter, out);
  } catch (const std::exception& e) {
    return Status(codes::kInvalidArgument,
                  std::string("input schema does not compile: ") + e.what());
  }
  return Status::Ok();
}

}  // namespace

bool IsValidToolName(std::string_view name) {
  if (name.empty() || name.size() > kMaxToolNameLength) return false;
  if (name[0] < 'a' || name[0] > 'z') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

ToolRegistry::ToolRegistry() = default;
ToolRegistry::~ToolRegistry() = default;
ToolRegistry::ToolRegistry(ToolRegistry&&) noexcept = default;
ToolRegistry& ToolRegistry::operator=(ToolRegistry&&) noexcept = default;

Status ToolRegistry::Register(ToolDef tool) {
  if (!IsValidToolName(tool.name)) {
    return Status(codes::kInvalidArgument, "bad tool name \"" +
                                               tool.name.substr(0, kMaxToolNameLength) +
                                               "\": use [a-z][a-z0-9_]*, at most " +
                                               std::to_string(kMaxToolNameLength) + " characters");
  }
  if (tools_.count(tool.name) != 0) {
    return Status(codes::kAlreadyExists, "tool " + tool.name + " is already registered");
  }
  if (tool.area.empty() || tool.description.empty()) {
    return Status(codes::kInvalidArgument,
                  "tool " + tool.name + " needs an area and a description");
  }
  if (tool.is_write && tool.least_role == sync::Role::kViewer) {
    return Status(codes::kInvalidArgument,
                  "tool " + tool.name + " writes, so viewers may not run it");
  }
  auto entry = std::make_unique<Entry>();
  Status compiled = CompileSchema(tool.input_schema, entry->schema);
  if (!compiled.ok()) {
    return Status(compiled.code(), "tool " + tool.name + ": " + compiled.message());
  }
  entry->schema_text =
      tool.input_schema.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string name = tool.name;
  entry->def = std::move(tool);
  tools_.emplace(std::move(name), std::move(entry));
  return Status::Ok();
}

const ToolDef* ToolRegistry::Find(std::string_view name) const {
  auto it = tools_.find(name);
  return it == tools_.end() ? nullptr : &it->second->def;
}

const valijson::Schema* ToolRegistry::CompiledSchema(std::string_view name) const {
  auto it = tools_.find(name);
  return it == tools_.end() ? nullptr : &it->second->schema;
}

std::string_view ToolRegistry::SchemaText(std::string_view name) const {
  auto it = tools_.find(name);
  return it == tools_.end() ? std::string_view() : std::string_view(it->second->schema_text);
}

std::vector<std::string> ToolRegistry::names() const {
  std::vector<std::string> out;
  out.reserve(tools_.size());
  for (const auto& [name, entry] : tools_) out.push_back(name);
  return out;
}

bool RoleMayRun(sync::Role role, const ToolDef& tool) {
  if (!tool.is_write) return true;
  return role != sync::Role::kViewer && sync::RoleAtLeast(role, tool.least_role);
}

std::vector<const ToolDef*> ToolRegistry::ToolsFor(const ToolFilter& filter) const {
  std::vector<const ToolDef*> out;
  for (const auto& [name, entry] : tools_) {
    const ToolDef& def = entry->def;
    if (!def.module.empty() && !Contains(filter.enabled_modules, def.module)) continue;
    if (def.is_write) {
      if (!RoleMayRun(filter.role, def)) continue;
      if (filter.allowed_write_areas && !Contains(*filter.allowed_write_areas, def.area)) continue;
    }
    out.push_back(&def);
  }
  return out;
}

}  // namespace ensemble::core::tools
