#include "core/tools/write_areas.h"

namespace ensemble::core::tools {

std::string_view WritePolicyName(WritePolicy policy) {
  switch (policy) {
    case WritePolicy::kImmediate:
      return "immediate";
    case WritePolicy::kPreview:
      return "preview";
    case WritePolicy::kNeedsMe:
      return "needs-me";
  }
  return "immediate";
}

std::optional<WritePolicy> ParseWritePolicy(std::string_view name) {
  for (WritePolicy p : {WritePolicy::kImmediate, WritePolicy::kPreview, WritePolicy::kNeedsMe}) {
    if (WritePolicyName(p) == name) return p;
  }
  return std::nullopt;
}

}  // namespace ensemble::core::tools
