#include "core/hub/hub_tools.h"

#include <utility>

#include "core/assistant/hub_tools.h"
#include "core/hub/hub.h"

namespace ensemble::core::hub {

const tools::ToolRegistry& HubToolRegistry() {
  static const tools::ToolRegistry* registry = [] {
    auto* r = new tools::ToolRegistry();
    // Failure is a definition bug; the tests register afresh and report it.
    (void)assistant::RegisterHubTools(*r, RecordKinds());
    return r;
  }();
  return *registry;
}

tools::ToolContext NewToolContext() {
  tools::ToolContext ctx;
  ctx.record_kinds = RecordKinds();
  return ctx;
}

tools::MutationSink DirectMutationSink(store::Database& db, int64_t now_ms,
                                       std::string account_id) {
  return tools::DirectMutationSink(db, Config(), now_ms, std::move(account_id));
}

}  // namespace ensemble::core::hub
