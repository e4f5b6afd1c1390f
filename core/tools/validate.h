// Checking one tool call the model made before anything is dispatched (spec
// 000 §1, §9 "Invalid or unknown call"): the tool must be registered and its
// input must pass the tool's JSON Schema (valijson, compiled at Register).
// Failures are values the model can correct itself from: UNKNOWN_TOOL with
// `no tool called "<name>"`, or INVALID_TOOL_INPUT whose message names each
// failing field by path (`input.tasks[0].title: missing required property`).
// The same errors come back structured for the wire.
//
// Thread-safety: pure functions over a read-only registry.

#ifndef ENSEMBLE_CORE_TOOLS_VALIDATE_H_
#define ENSEMBLE_CORE_TOOLS_VALIDATE_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::tools {

// At most this many errors are named per call: enough to fix a call, short
// enough for a tool result.
inline constexpr std::size_t kMaxReportedErrors = 5;
// An enum's allowed values listed in one message, at most.
inline constexpr std::size_t kMaxListedValues = 20;

struct ValidationError {
  std::string path;     // "input", "input.status", "input.tasks[0].title".
  std::string message;  // "must be one of todo, doing, done".

  bool operator==(const ValidationError&) const = default;
};

struct ToolCallCheck {
  Status status;                        // OK, UNKNOWN_TOOL or INVALID_TOOL_INPUT.
  std::vector<ValidationError> errors;  // At most kMaxReportedErrors.
};

// Checks `input` against tool `name` in `registry`; never throws.
ToolCallCheck CheckToolCall(const ToolRegistry& registry, std::string_view name,
                            const nlohmann::json& input);

// CheckToolCall's status alone.
Status ValidateToolCall(const ToolRegistry& registry, std::string_view name,
                        const nlohmann::json& input);

}  // namespace ensemble::core::tools

#endif  // ENSEMBLE_CORE_TOOLS_VALIDATE_H_
