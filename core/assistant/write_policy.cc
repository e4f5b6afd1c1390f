#include "core/assistant/write_policy.h"

#include <algorithm>

#include "core/assistant/hub_tools.h"

namespace ensemble::core::assistant {

bool HoldsWrite(WritePolicy policy, const tools::ToolDef& tool) {
  if (!tool.is_write) return false;
  if (tool.always_hold || tool.area == areas::kApps || tool.app.has_value()) return true;
  if (policy == WritePolicy::kImmediate) return false;
  return std::find(kInlineArtifactTools.begin(), kInlineArtifactTools.end(), tool.name) ==
         kInlineArtifactTools.end();
}

}  // namespace ensemble::core::assistant
