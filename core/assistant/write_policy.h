// Which of the model's write calls run at once and which wait for Apply
// (spec 000 §6, holdsAssistantWrite): under `immediate` Hub writes run at once
// with Undo; under `preview` and `needs-me` every write waits, except a
// diagram or plot the person asked for (the inline artifact flow). Writes in
// the apps area (connected apps) and `alwaysHold` tools wait under every
// policy.
//
// Thread-safety: pure functions.

#ifndef ENSEMBLE_CORE_ASSISTANT_WRITE_POLICY_H_
#define ENSEMBLE_CORE_ASSISTANT_WRITE_POLICY_H_

#include <array>
#include <optional>
#include <string_view>

#include "core/assistant/instructions.h"
#include "core/tools/tool.h"

namespace ensemble::core::assistant {

// Created at once under preview and needs-me (spec §6, inline artifact flow).
inline constexpr std::array<std::string_view, 2> kInlineArtifactTools = {"hub_create_diagram",
                                                                         "hub_create_plot"};

using tools::ParseWritePolicy;

// True when a call of `tool` must wait for Apply under `policy`; reads never
// wait.
bool HoldsWrite(WritePolicy policy, const tools::ToolDef& tool);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_WRITE_POLICY_H_
