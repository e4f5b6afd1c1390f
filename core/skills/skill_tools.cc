// Personal skills: the person's own saved instructions (playbooks/skills.md;
// spec 04). Changes always wait for Apply.

#include "core/skills/skill_tools.h"

#include "core/tools/tool_table.h"

namespace ensemble::core::skills {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

constexpr std::size_t kMaxSkillNameChars = 100;
constexpr std::size_t kMaxSkillDescriptionChars = 500;
constexpr std::size_t kMaxSkillBodyChars = 20000;

tools::ToolDef InModule(tools::ToolDef def) {
  def.module = std::string(kModule);
  return def;
}

}  // namespace

Status RegisterSkillTools(tools::ToolRegistry& registry) {
  return RegisterAll(
      registry,
      {
          InModule(Read("hub_list_skills", areas::kSkills,
                        "List the person's skills by name, id and description.",
                        Object({{"query", Str(kMaxQueryChars)}, {"includeDisabled", Bool()}}))),
          // A core tool (spec 000 §3): the instructions name the person's
          // skills, so reading one never depends on routing or the module.
          Read("hub_read_skill", areas::kSkills,
               "Read a personal skill's instructions and version before using or changing it.",
               Object({{"id", Text(kMaxSkillNameChars, "Skill id or slug")}}, {"id"})),
          InModule(Hold(Write(
              "hub_manage_skill", areas::kSkills,
              "Make, change, restore a version of or delete a personal skill; waits for Apply.",
              Object({{"action", Enum({"create", "update", "restore_version", "delete"})},
                      {"id", Id()},
                      {"name", Text(kMaxSkillNameChars)},
                      {"description", Str(kMaxSkillDescriptionChars)},
                      {"body", Str(kMaxSkillBodyChars, "Markdown instructions")},
                      {"version", Int(1, 1000000, "The version read, or the one to restore")},
                      {"enabled", Bool()}},
                     {"action"}),
              Risk::kMedium, false))),
      });
}

}  // namespace ensemble::core::skills
