// The assistant's instructions: the system message of every model request in
// a conversation (spec §3 "Instructions", §4.1 "What the model is told", §6
// writeModeNote, §8.2 connected apps).
//
// They say who the person is and which space, how to work, how writes behave
// under the person's write mode, dates and the time zone, the playbook index
// for hub_how_to, one sentence about the person's work, their enabled personal
// skills and the apps connected in the space. Records are not listed: the
// model looks them up with tools.
//
// The builder is a pure function of InstructionsInput, which holds nothing
// that changes from one message to the next (no date, no view, no message):
// the same settings give the same bytes, so a provider's prompt cache and a
// subscription agent's session keep reusing them. Today's date and the view
// go in each message's turn context (turn_context.h) instead.
//
// Lists are written in a fixed order whatever order the caller read them in:
// playbooks by name; skills and apps by name (ASCII case folded, then bytes,
// then id), so a database returning rows in another order changes nothing.
//
// Thread-safety: pure functions; safe to call concurrently.

#ifndef ENSEMBLE_CORE_ASSISTANT_INSTRUCTIONS_H_
#define ENSEMBLE_CORE_ASSISTANT_INSTRUCTIONS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/tools/write_areas.h"

namespace ensemble::core::playbooks {
class PlaybookSet;
}

namespace ensemble::core::assistant {

// Spec §8.2: the instructions name at most 30 connected apps; the rest are
// found with hub_list_connections.
inline constexpr std::size_t kMaxAppsInPrompt = 30;
// Ours: apps added but failing named for a reconnect; the rest, likewise,
// through hub_list_connections.
inline constexpr std::size_t kMaxFailingAppsInPrompt = 10;
// Spec 04 §2: the names and descriptions of up to 12 enabled skills.
inline constexpr std::size_t kMaxSkillsInPrompt = 12;

// Our bounds on values a person typed, so one long name cannot crowd out the
// rest of the instructions (counted in characters; longer values end in "…").
// With every one at its maximum the instructions stay within
// kInstructionsBudgetChars (prompt_catalog.h; tested).
inline constexpr std::size_t kMaxPersonNameChars = 60;
inline constexpr std::size_t kMaxSpaceNameChars = 80;
inline constexpr std::size_t kMaxPersonaChars = 300;
inline constexpr std::size_t kMaxTimeZoneChars = 64;
inline constexpr std::size_t kMaxSkillNameChars = 60;
inline constexpr std::size_t kMaxSkillDescriptionChars = 200;
inline constexpr std::size_t kMaxAppNameChars = 40;
inline constexpr std::size_t kMaxPlaybookWhenChars = 120;

// What the person calls themselves when no real first name is known.
inline constexpr std::string_view kUnnamedPerson = "the person";

// settings.assistant.writePolicy (spec §6) and its names, declared below the
// domains (core/tools/write_areas.h) so the account settings can check them.
using tools::WritePolicy;
using tools::WritePolicyName;

// The system line each turn adds (spec §6 writeModeNote): which writes run
// now and which wait, so playbooks work under every policy. Connected-app
// writes and always-hold tools wait for Apply under every policy.
std::string WriteModeNote(WritePolicy policy);

// One line of the playbook index hub_how_to offers.
struct PlaybookIndexEntry {
  std::string name;  // what hub_how_to takes
  std::string when;  // what the playbook covers
};

// The index of every playbook in `set` (the caller leaves out playbooks
// hidden by `module` or `requires` by passing only the offered set).
std::vector<PlaybookIndexEntry> PlaybookIndex(const playbooks::PlaybookSet& set);

// An enabled personal skill (spec 04).
struct SkillSummary {
  std::string id;
  std::string name;
  std::string description;
  // scope.purpose: a skill with one (the morning brief's own) is used by
  // that feature only and is left out of the instructions.
  std::string purpose;
};

// A connection of this space (spec §8.2, appsPrompt).
struct ConnectedApp {
  std::string name;  // the catalog name shown to people, e.g. "Jira & Confluence"
  // An MCP server without a sign-in: only its public data can be read.
  bool public_data_only = false;
};

struct InstructionsInput {
  // The person's first name. Empty, or a placeholder account name (the
  // desktop's), gives "the person": a placeholder is never used.
  std::string first_name;
  bool first_name_is_placeholder = false;
  std::string space_name;
  // A guest of a shared space: no app paragraph (tokens are never read).
  bool guest = false;
  WritePolicy write_policy = WritePolicy::kImmediate;
  std::string time_zone;  // IANA name, e.g. "Europe/Paris"
  // personaBlock: one sentence about the person's work; optional.
  std::string persona;
  std::vector<PlaybookIndexEntry> playbooks;
  std::vector<SkillSummary> skills;  // the enabled ones
  std::vector<ConnectedApp> connected_apps;
  std::vector<std::string> failing_apps;  // added but failing: reconnect
  // settings.assistant.connectedAppWrites: false says app changes are off.
  bool app_writes_enabled = true;
};

// The system message. Same input, same bytes.
std::string AssistantInstructions(const InstructionsInput& input);

// The skills the instructions name, in the order they are written: enabled,
// without a purpose, sorted, at most kMaxSkillsInPrompt. The turn's refs
// (spec §4.1 stateRefs) take their ids from here.
std::vector<SkillSummary> SkillsInPrompt(const std::vector<SkillSummary>& skills);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_INSTRUCTIONS_H_
