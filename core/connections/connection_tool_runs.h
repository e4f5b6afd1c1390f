// The runs of the connected-app tools that read what is connected and bring
// an app's people in (spec 000 §3 "Connected apps", 004 §2 "Sync people",
// §4.7 identities):
//
// - hub_list_connections: the apps the asking person connected in this space
//   (connections are their owner's own: a space shared with someone shows
//   them none), each with how it is reached and whether its last read failed.
// - hub_import_people: the people on a calendar link's events, previewed and
//   created after Apply (it always waits). prepare pins the exact addresses
//   shown (`emails`), so Apply brings in only people the preview named and
//   that are still in the app, however the input came (an address asked for
//   that the app does not have is named as left out); an address already
//   saved in the space reuses that person (a name alone never does). Undo
//   moves the people it added to Trash.
//
// App content is read through ctx.app_reader; without one (the browser,
// whose copy of the store keeps no connections) both tools say they need the
// server. A read's outcome is recorded on the
// connection (connected, or failing with the reason).
//
// Thread-safety: the hooks are stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_CONNECTIONS_CONNECTION_TOOL_RUNS_H_
#define ENSEMBLE_CORE_CONNECTIONS_CONNECTION_TOOL_RUNS_H_

#include <string>

#include "core/tools/tool.h"

namespace ensemble::core::connections {

// The hooks of hub_list_connections, hub_import_people, which their tool table gives them
// (connection_tools.cc).
namespace connection_runs {
Result<nlohmann::json> RunListConnections(tools::ToolCall& call);
Status PrepareImport(tools::ToolCall& call);
Result<std::string> PreviewImport(const tools::ToolCall& call);
Result<nlohmann::json> RunImport(tools::ToolCall& call);
}  // namespace connection_runs

}  // namespace ensemble::core::connections

#endif  // ENSEMBLE_CORE_CONNECTIONS_CONNECTION_TOOL_RUNS_H_
