// The hub's tools: every tool the playbooks name (playbooks/*.md `tools:`
// lines) and the core tools, each declared once in its area's table with its
// description, write flags, JSON Schema input (spec 000 §4, §6, §10; names
// from 002) and hooks. The tables are the domains' (core/<domain>/*_tools.h;
// the calendar's in core/calendar/tools/, above core/tools); the tools of no
// one domain are core/context's (search, item context, the open view),
// core/trash's, and core/assistant's own (assistant_tools.cc: playbooks,
// workflows, approvals, settings).
//
// core/hub registers them once (hub::HubToolRegistry()), with the build's
// record kinds.
//
// Thread-safety: stateless; a registry filled here is read-only after and
// safe to share between threads.

#ifndef ENSEMBLE_CORE_ASSISTANT_HUB_TOOLS_H_
#define ENSEMBLE_CORE_ASSISTANT_HUB_TOOLS_H_

#include <span>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/tools/tool_registry.h"
#include "core/tools/write_areas.h"

namespace ensemble::core::assistant {

// Tool areas (core/tools/write_areas.h), as the assistant names them.
namespace areas = tools::areas;

// Registers every hub tool into `registry`; fails on the first refusal.
// `kinds` are the build's synced kinds (what Trash holds).
Status RegisterHubTools(tools::ToolRegistry& registry, records::RecordKinds kinds);

// True when a turn can carry out `def`: its run is attached, or the turn
// answers it itself (hub_how_to; hub_run_workflow, whose steps Apply runs).
// A tool defined ahead of the part of the product that runs it (the web, the
// connected apps, personal skills) is not offered to the model, which would
// otherwise spend a step on a call that can only fail.
bool TurnCanRun(const tools::ToolDef& def);

// Of `areas`, in their order, those with a write tool of `registry` a turn
// can carry out (TurnCanRun). Settings offers only these: a switch for an
// area whose writes are defined ahead of the part that runs them would
// change nothing.
std::vector<std::string_view> RunnableWriteAreas(const tools::ToolRegistry& registry,
                                                 std::span<const std::string_view> areas);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_HUB_TOOLS_H_
