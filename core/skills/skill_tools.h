// The skill tools' table (personal skills): each tool's name, schema and flags,
// registered by the assistant with every other domain's. The tools are
// declared ahead of the part of the product that runs them, so no turn is
// offered them yet (assistant::TurnCanRun).
//
// Thread-safety: as ToolRegistry::Register (not thread-safe).

#ifndef ENSEMBLE_CORE_SKILLS_SKILL_TOOLS_H_
#define ENSEMBLE_CORE_SKILLS_SKILL_TOOLS_H_

#include <string_view>

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::skills {

// The module the personal-skill tools belong to (spec 04: "Skills are the
// skills module"); the other hub tools are core.
inline constexpr std::string_view kModule = "skills";

// Registers the skill tools into `registry`; fails on the first refusal.
Status RegisterSkillTools(tools::ToolRegistry& registry);

}  // namespace ensemble::core::skills

#endif  // ENSEMBLE_CORE_SKILLS_SKILL_TOOLS_H_
