// The tool contract (the spec's defineTool, 000 §4): what the assistant may
// call, described once and used by the browser and the server alike. A
// ToolDef says what a tool is (name, area, JSON Schema input, whether it
// writes, how risky it is, how its writes are held and undone) and carries the
// hooks that later do its work. core/tools knows nothing of any domain: the
// hub's tools are defined in core/assistant.
//
// Thread-safety: a ToolDef is a value; its hooks are called concurrently only
// if they say they may be.

#ifndef ENSEMBLE_CORE_TOOLS_TOOL_H_
#define ENSEMBLE_CORE_TOOLS_TOOL_H_

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/base/status.h"
#include "core/sync/authorization.h"

namespace ensemble::core::tools {

// What a turn carries into a tool: account, space, store, refs. Defined by the
// assistant loop; opaque here.
struct ToolContext;

// One call of one tool, after its input passed the schema.
struct ToolCall {
  std::string name;
  nlohmann::json input;
  ToolContext* context = nullptr;
};

enum class Risk { kLow, kMedium, kHigh };

// Built-in app tools: offered only for an actual grant, product and scope.
struct AppMeta {
  std::string grant;
  std::string product;
  std::string scope;
};

// prepare: after validation, before preview or write; fixes the exact records
// the input means (may rewrite call.input) so Apply changes what was previewed.
using PrepareHook = std::function<Status(ToolCall&)>;
// preview: the display text of a held write, naming the records it changes.
using PreviewHook = std::function<Result<std::string>(const ToolCall&)>;
// run: does the work; the result carries summary, data, href, undo entry.
using RunHook = std::function<Result<nlohmann::json>(ToolCall&)>;

// A tool's hooks, as its table entry gives them (tool_defs.h Read, Write).
// (The initializers keep GCC's -Wextra quiet about designated initializers
// that leave a hook out.)
struct Hooks {
  PrepareHook prepare = nullptr;
  PreviewHook preview = nullptr;
  RunHook run = nullptr;
};

struct ToolDef {
  std::string name;             // [a-z][a-z0-9_]*, at most kMaxToolNameLength.
  std::string area;             // "tasks", "boards", "apps", ...: allowedWriteAreas.
  std::string description;      // What the model needs to pick the tool.
  nlohmann::json input_schema;  // JSON Schema; top level {"type":"object"}.
  bool is_write = false;
  Risk risk = Risk::kLow;
  bool undoable = false;
  bool always_hold = false;          // The write always waits for Apply.
  bool outside_transaction = false;  // Network work: never inside a Hub transaction.
  std::string module;                // Hidden without this module; "" = core.
  // A write: the least role in the space that may run it (viewers never
  // write). Its table entry (ForGuests, ForOwner) and the rules by area
  // decide it at registration (core/tools/tool_permissions.h).
  sync::Role least_role = sync::Role::kEditor;
  std::optional<AppMeta> app;
  // Any hook may be empty: a tool without a run is listed but cannot be called.
  PrepareHook prepare;
  PreviewHook preview;
  RunHook run;
};

}  // namespace ensemble::core::tools

#endif  // ENSEMBLE_CORE_TOOLS_TOOL_H_
