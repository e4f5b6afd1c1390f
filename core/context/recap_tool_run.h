// The run of hub_weekly_recap (spec 002 §2 "Today, recap, profile lists"):
// one week of the space's work, Monday to Sunday in the person's zone (the
// week holding `weekOf`, default today):
//   finished  tasks marked done during the week (last changed then, done now);
//   changed   other tasks, projects and pages changed during the week;
//   upcoming  open tasks due in the seven days after the week.
// Each list holds at most kMaxRecapItems rows, with its full count. The
// definition is in context_tools.cc, whose table gives it this hook.
//
// Thread-safety: the hook is stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_CONTEXT_RECAP_TOOL_RUN_H_
#define ENSEMBLE_CORE_CONTEXT_RECAP_TOOL_RUN_H_

#include <cstddef>
#include <string>

#include "core/tools/tool.h"

namespace ensemble::core::context {

// A recap's lists are for reading at a glance; the counts stay whole.
inline constexpr std::size_t kMaxRecapItems = 50;

// The hooks of hub_weekly_recap, which their tool table gives them
// (context_tools.cc).
Result<nlohmann::json> RunRecap(tools::ToolCall& call);

}  // namespace ensemble::core::context

#endif  // ENSEMBLE_CORE_CONTEXT_RECAP_TOOL_RUN_H_
