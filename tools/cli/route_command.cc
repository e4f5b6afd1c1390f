// `tools/ensemble route "message" [--mentions JSON] [--surface JSON]
// [--apps JSON] [--loaded JSON] [--allowed JSON] [--toolsets-off]`: which
// playbooks the message preloads and which tools the model is offered
// (spec 000 §3), over the playbooks built into the binary. Prints
// {"guides": [...], "tools": [...], "simpleTodo": bool}.
//
// --mentions  [{kind, id, label}]         the message's @ mentions
// --surface   {path, customBoard}         or an AssistantPageContext-like
//             {path, surface: {filters: {customBoard: "<board id>"}}}
// --apps      [{catalogName, id, vendor, meetingNotes}]  connected apps
// --loaded    [names]   playbooks hub_how_to loaded earlier in the loop
// --allowed   [names]   the tools the account may run (default: what the
//             hub's tool registry allows an owner, core/assistant/route_turn.h)
// --role      owner | editor | guest | viewer   (default owner)
// --toolsets-off, or ENSEMBLE_ASSISTANT_TOOLSETS=off: offer every allowed tool.
// The request is built as core/assistant/route_turn.h describes, so the CLI
// routes exactly as the wasm binding does.

#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/assistant/hub_tools.h"
#include "core/assistant/route_turn.h"
#include "core/hub/hub_tools.h"
#include "core/playbooks/embedded.h"
#include "core/playbooks/route_json.h"
#include "core/playbooks/router.h"
#include "tools/cli/command.h"

namespace ensemble::cli {
namespace {

namespace pb = core::playbooks;

constexpr char kUsage[] =
    "  route \"MESSAGE\" [--mentions JSON] [--surface JSON] [--apps JSON] [--loaded JSON]\n"
    "        [--allowed JSON] [--role ROLE] [--toolsets-off]   the guides and tools a message "
    "gets\n";

int Fail(const std::string& message) {
  std::cerr << "ensemble route: " << message << "\n";
  return 1;
}

int UsageError(const std::string& message) {
  std::cerr << "ensemble route: " << message << "\nusage:\n" << kUsage;
  return 2;
}

int Run(const std::vector<std::string>& args) {
  nlohmann::json request = nlohmann::json::object();
  bool have_message = false;
  const std::vector<std::pair<std::string, std::string>> json_flags = {
      {"--mentions", "mentions"},
      {"--surface", "surface"},
      {"--apps", "apps"},
      {"--loaded", "loaded"},
      {"--allowed", "allowedTools"}};
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--toolsets-off") {
      request["toolsetsOff"] = true;
      continue;
    }
    if (arg == "--role") {
      if (i + 1 >= args.size()) return UsageError("--role needs owner, editor, guest or viewer");
      request["role"] = args[++i];
      continue;
    }
    bool matched = false;
    for (const auto& [flag, key] : json_flags) {
      if (arg != flag) continue;
      matched = true;
      if (i + 1 >= args.size()) return UsageError(flag + " needs a JSON value");
      nlohmann::json value = nlohmann::json::parse(args[++i], nullptr, /*allow_exceptions=*/false);
      if (value.is_discarded()) return Fail(flag + ": not valid JSON");
      request[key] = std::move(value);
    }
    if (matched) continue;
    if (arg.rfind("--", 0) == 0) return UsageError("unknown option " + arg);
    if (have_message) return UsageError("give the message once (quote it)");
    request["message"] = arg;
    have_message = true;
  }
  if (!have_message) return UsageError("a message is required");
  if (const char* env = std::getenv("ENSEMBLE_ASSISTANT_TOOLSETS");
      env != nullptr && std::string(env) == "off") {
    request["toolsetsOff"] = true;
  }

  auto set = pb::PlaybookSet::Build(pb::EmbeddedPlaybooks());
  if (!set.ok()) return Fail(set.status().ToString());
  const pb::Router router(std::move(set).value());
  auto routed =
      core::assistant::RouteTurnJson(router, core::hub::HubToolRegistry(), std::move(request));
  if (!routed.ok()) return Fail(routed.status().message());
  nlohmann::json out = {{"guides", (*routed)["guides"]},
                        {"tools", (*routed)["tools"]},
                        {"simpleTodo", (*routed)["simpleTodo"]}};
  std::cout << out.dump() << "\n";
  return 0;
}

const CommandRegistrar kRegistrar("route", Command{Run, kUsage});

}  // namespace
}  // namespace ensemble::cli
