// `tools/ensemble plan "message" --today YYYY-MM-DD [--tz ZONE] [--results FILE]`:
// one step of the local planner (core/assistant/local_planner.h), the
// assistant's embedded default with no model configured. Prints the step:
// {"step", "intent", "final", "calls": [{"name", "args"}], "reply",
// "needsModel"}.
//
// --today    the person's today (the core has no clock), required
// --tz       their time zone name (carried, not read)
// --results  a JSON file with the calls made so far in this turn:
//            [{"name", "args", "result"} or {"name", "args", "error"}]
// The request is built as PlanLocallyJson reads it, so the CLI plans exactly
// as the wasm binding (planLocally) does.

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/assistant/local_planner.h"
#include "core/hub/hub_tools.h"
#include "tools/cli/command.h"

namespace ensemble::cli {
namespace {

constexpr char kUsage[] =
    "  plan \"MESSAGE\" --today YYYY-MM-DD [--tz ZONE] [--results FILE]\n"
    "        one step of the local planner (no model): tool calls or the reply\n";

int Fail(const std::string& message) {
  std::cerr << "ensemble plan: " << message << "\n";
  return 1;
}

int UsageError(const std::string& message) {
  std::cerr << "ensemble plan: " << message << "\nusage:\n" << kUsage;
  return 2;
}

int Run(const std::vector<std::string>& args) {
  nlohmann::json request = nlohmann::json::object();
  bool have_message = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--today" || arg == "--tz" || arg == "--results") {
      if (i + 1 >= args.size()) return UsageError(arg + " needs a value");
      const std::string& value = args[++i];
      if (arg == "--today") {
        request["today"] = value;
      } else if (arg == "--tz") {
        request["timeZone"] = value;
      } else {
        std::string text;
        std::string error;
        if (!ReadFile(value, &text, &error)) return Fail(error);
        nlohmann::json calls = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
        if (calls.is_discarded()) return Fail(value + ": not valid JSON");
        request["calls"] = std::move(calls);
      }
      continue;
    }
    if (arg.rfind("--", 0) == 0) return UsageError("unknown option " + arg);
    if (have_message) return UsageError("give the message once (quote it)");
    request["message"] = arg;
    have_message = true;
  }
  if (!have_message) return UsageError("a message is required");
  if (!request.contains("today")) return UsageError("--today YYYY-MM-DD is required");
  auto step = core::assistant::PlanLocallyJson(core::hub::HubToolRegistry(), request);
  if (!step.ok()) return Fail(step.status().message());
  std::cout << step->dump() << "\n";
  return 0;
}

const CommandRegistrar kRegistrar("plan", Command{Run, kUsage});

}  // namespace
}  // namespace ensemble::cli
