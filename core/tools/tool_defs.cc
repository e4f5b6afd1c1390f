#include "core/tools/tool_defs.h"

#include <string>
#include <utility>

#include "core/tools/tool_permissions.h"

namespace ensemble::core::tools {

ToolDef Read(std::string_view name, std::string_view area, std::string_view description,
             nlohmann::json schema, Hooks hooks) {
  ToolDef def;
  def.name = std::string(name);
  def.area = std::string(area);
  def.description = std::string(description);
  def.input_schema = std::move(schema);
  def.prepare = std::move(hooks.prepare);
  def.preview = std::move(hooks.preview);
  def.run = std::move(hooks.run);
  return def;
}

ToolDef Write(std::string_view name, std::string_view area, std::string_view description,
              nlohmann::json schema, Risk risk, bool undoable, Hooks hooks) {
  ToolDef def = Read(name, area, description, std::move(schema), std::move(hooks));
  def.is_write = true;
  def.risk = risk;
  def.undoable = undoable;
  return def;
}

ToolDef Hold(ToolDef def) {
  def.always_hold = true;
  return def;
}

ToolDef Outside(ToolDef def) {
  def.outside_transaction = true;
  return def;
}

ToolDef ForGuests(ToolDef def) {
  def.least_role = sync::Role::kGuest;
  return def;
}

ToolDef ForOwner(ToolDef def) {
  def.least_role = sync::Role::kOwner;
  return def;
}

Status RegisterAll(ToolRegistry& registry, std::vector<ToolDef> defs) {
  for (ToolDef& def : defs) {
    if (def.is_write) def.least_role = LeastRoleFor(def.least_role, def.area);
    ENSEMBLE_RETURN_IF_ERROR(registry.Register(std::move(def)));
  }
  return Status::Ok();
}

}  // namespace ensemble::core::tools
