// ToolRegistry: every tool a build has, by name, each with its input schema
// compiled once (valijson) at Register so each call's validation is fast.
// ToolsFor is the spec's toolsFor (000 §4, §7): of the registered tools, the
// ones a turn may offer under the space's settings, modules and the person's
// role. What the model is shown on top of that (routing) is decided elsewhere.
//
// Thread-safety: Register is not thread-safe; once filled, a registry is
// read-only and may be shared between threads.

#ifndef ENSEMBLE_CORE_TOOLS_TOOL_REGISTRY_H_
#define ENSEMBLE_CORE_TOOLS_TOOL_REGISTRY_H_

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/sync/authorization.h"
#include "core/tools/tool.h"

namespace valijson {
class Schema;
}  // namespace valijson

namespace ensemble::core::tools {

inline constexpr std::size_t kMaxToolNameLength = 64;

// True for [a-z][a-z0-9_]* of at most kMaxToolNameLength bytes.
bool IsValidToolName(std::string_view name);

// What decides which registered tools a turn may offer.
struct ToolFilter {
  // settings.assistant.allowedWriteAreas: a write tool whose area is not in
  // the list is dropped (reads always stay). nullopt: every area is allowed.
  std::optional<std::vector<std::string>> allowed_write_areas;
  // Modules switched on in the space; a tool of another module is dropped.
  // Core tools (module "") always stay.
  std::vector<std::string> enabled_modules;
  // Viewers get no write tools (spec 000 §7); other writes need the tool's
  // least_role.
  sync::Role role = sync::Role::kOwner;
};

// True when `role` may run `tool`: every member reads; a write needs the
// tool's least_role, and a viewer never writes.
bool RoleMayRun(sync::Role role, const ToolDef& tool);

class ToolRegistry {
 public:
  ToolRegistry();
  ~ToolRegistry();
  ToolRegistry(ToolRegistry&&) noexcept;
  ToolRegistry& operator=(ToolRegistry&&) noexcept;
  ToolRegistry(const ToolRegistry&) = delete;
  ToolRegistry& operator=(const ToolRegistry&) = delete;

  // Adds `tool`. INVALID_ARGUMENT for a bad name, an empty area or
  // description, or an input schema that is not a JSON Schema of
  // {"type":"object"} valijson compiles; ALREADY_EXISTS for a repeated name.
  Status Register(ToolDef tool);

  // Null when no tool has that name.
  const ToolDef* Find(std::string_view name) const;
  // The compiled input schema of a registered tool; null when unknown.
  const valijson::Schema* CompiledSchema(std::string_view name) const;
  // The input schema as compact JSON text, written once at Register (model
  // requests carry it every step); empty when unknown.
  std::string_view SchemaText(std::string_view name) const;

  std::vector<std::string> names() const;  // Sorted.
  std::size_t size() const { return tools_.size(); }

  // The tools a turn may offer, sorted by name (see ToolFilter).
  std::vector<const ToolDef*> ToolsFor(const ToolFilter& filter) const;

 private:
  struct Entry;
  std::map<std::string, std::unique_ptr<Entry>, std::less<>> tools_;
};

}  // namespace ensemble::core::tools

#endif  // ENSEMBLE_CORE_TOOLS_TOOL_REGISTRY_H_
