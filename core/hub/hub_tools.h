// The assistant's tools as the hub puts them together: every domain's tools
// in one registry, and a turn's ToolContext that knows the build's kinds.
// The assistant's machinery takes these as arguments and never reaches up
// for them.
//
// Thread-safety: HubToolRegistry() is built once (a function-local static)
// and read-only after; safe to share between threads. The rest is stateless.

#ifndef ENSEMBLE_CORE_HUB_HUB_TOOLS_H_
#define ENSEMBLE_CORE_HUB_HUB_TOOLS_H_

#include <cstdint>
#include <string>

#include "core/store/database.h"
#include "core/tools/tool_context.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::hub {

// The hub's tools, registered once. A registration failure is a bug caught
// by tests (hub_tools_test); it leaves the registry without the tools from
// the failing one on.
const tools::ToolRegistry& HubToolRegistry();

// A ToolContext with the hub's record kinds set; the caller fills the rest.
tools::ToolContext NewToolContext();

// tools::DirectMutationSink with every hub domain's mutators (Config()).
tools::MutationSink DirectMutationSink(store::Database& db, int64_t now_ms,
                                       std::string account_id = {});

}  // namespace ensemble::core::hub

#endif  // ENSEMBLE_CORE_HUB_HUB_TOOLS_H_
