// The hub's tool definitions: every tool the playbooks name (playbooks/*.md
// `tools:` lines) and the core tools, with their area, description, write
// flags and JSON Schema input (spec 000 §4, §6, §10; names from 002). Runs are
// attached by later work; definitions, schemas and validation come first.
//
// Thread-safety: HubToolRegistry() is built once (a function-local static)
// and read-only after; safe to share between threads.

#ifndef ENSEMBLE_CORE_ASSISTANT_HUB_TOOLS_H_
#define ENSEMBLE_CORE_ASSISTANT_HUB_TOOLS_H_

#include <span>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/tools/tool_registry.h"
#include "core/tools/write_areas.h"

namespace ensemble::core::assistant {

// Tool areas (core/tools/write_areas.h), as the assistant names them.
namespace areas = tools::areas;

// The module the personal-skill tools belong to (spec 04: "Skills are the
// skills module"); the other hub tools are core.
inline constexpr std::string_view kSkillsModule = "skills";

// Registers every hub tool into `registry`; fails on the first refusal.
Status RegisterHubTools(tools::ToolRegistry& registry);

// The hub's tools, registered once. A registration failure is a bug caught
// by tests (assistant_tools_tests); it leaves the registry without the tools
// from the failing one on.
const tools::ToolRegistry& HubToolRegistry();

// True when a turn can carry out `def`: its run is attached, or the turn
// answers it itself (hub_how_to; hub_run_workflow, whose steps Apply runs).
// A tool defined ahead of the part of the product that runs it (the web, the
// connected apps, personal skills) is not offered to the model, which would
// otherwise spend a step on a call that can only fail.
bool TurnCanRun(const tools::ToolDef& def);

// Of `areas`, in their order, those with a write tool a turn can carry out
// (TurnCanRun). Settings offers only these: a switch for an area whose
// writes are defined ahead of the part that runs them would change nothing.
std::vector<std::string_view> RunnableWriteAreas(std::span<const std::string_view> areas);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_HUB_TOOLS_H_
