// What a person's assistant settings say about writes, below every domain:
// the areas a write tool belongs to (settings.assistant.allowedWriteAreas
// lists them) and the write policy (settings.assistant.writePolicy, spec
// §6). The account settings validate both and the assistant acts on them,
// so they live here, where both may include them.
//
// Thread-safety: constants and pure functions.

#ifndef ENSEMBLE_CORE_TOOLS_WRITE_AREAS_H_
#define ENSEMBLE_CORE_TOOLS_WRITE_AREAS_H_

#include <optional>
#include <string_view>

namespace ensemble::core::tools {

// Tool areas: what settings.assistant.allowedWriteAreas lists.
namespace areas {
inline constexpr std::string_view kTasks = "tasks";
inline constexpr std::string_view kBoards = "boards";
inline constexpr std::string_view kProjects = "projects";
inline constexpr std::string_view kPages = "pages";
inline constexpr std::string_view kPeople = "people";
inline constexpr std::string_view kMeetings = "meetings";
inline constexpr std::string_view kReminders = "reminders";
inline constexpr std::string_view kRoutines = "routines";
inline constexpr std::string_view kDesk = "desk";
inline constexpr std::string_view kSkills = "skills";
inline constexpr std::string_view kCalendar = "calendar";
inline constexpr std::string_view kFiles = "files";
// Connected-app writes always wait for Apply and have no Hub Undo (§6).
inline constexpr std::string_view kApps = "apps";
inline constexpr std::string_view kWeb = "web";
inline constexpr std::string_view kSettings = "settings";
inline constexpr std::string_view kWorkflows = "workflows";
inline constexpr std::string_view kTrash = "trash";
// Reads that belong to no one area (the map, search, context, the open view).
inline constexpr std::string_view kCore = "core";
}  // namespace areas

// settings.assistant.writePolicy (spec §6).
enum class WritePolicy {
  kImmediate,  // "Just do it (undoable)": Hub writes run at once with Undo.
  kPreview,    // Every write waits for Apply in the chat.
  kNeedsMe,    // Every write waits on the Needs me page.
};

// The stable name of a policy: "immediate", "preview", "needs-me".
std::string_view WritePolicyName(WritePolicy policy);

// The policy a settings value names ("immediate", "preview", "needs-me");
// nullopt for anything else.
std::optional<WritePolicy> ParseWritePolicy(std::string_view name);

}  // namespace ensemble::core::tools

#endif  // ENSEMBLE_CORE_TOOLS_WRITE_AREAS_H_
