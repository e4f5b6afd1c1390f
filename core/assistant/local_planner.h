// The local planner: the assistant's embedded default when no model provider
// is configured (issue 5, spec 000 §3 "simple todo request", §4). It carries
// out the simple task requests local_request.h reads (add, list, complete,
// move, what is due) by emitting the SAME tool calls a model would, each
// validated against the hub's registry (hub_tools.h) before it is returned,
// and otherwise says plainly what needs a configured model. It is in core/,
// so the browser runs it offline too (its writes go to the outbox, or become
// drafts under the preview policy: the caller decides, as for a model).
//
// The turn loop drives it exactly like a model: call PlanLocalStep with the
// message and the calls made so far in this turn (with their results); it
// answers one step: either tool calls to run, or the final reply. Its plans:
//   add       hub_create_tasks, then the reply (from the result's titles);
//   list      hub_list_tasks, then the reply;
//   due       hub_list_due, then the reply;
//   complete,
//   move      hub_list_tasks {query: the title} to find the task, then, when
//             exactly one matches, hub_update_task with its id and the
//             status read as base; several: a reply asking which, with
//             "Choices:" and their titles; none: a reply saying so. A task
//             picked from the dock's @-menu (a mention whose label is the
//             title) is the row with the mention's id: an id is an exact key,
//             so same-named tasks need no question;
//   anything else: a reply naming what needs a model.
// So a turn takes at most kMaxLocalPlannerSteps steps, well inside the
// spec's kMaxSteps (turn_limits.h). Replies name tasks by title, never by id.
//
// The planner is deterministic and keeps no state: it re-reads the message
// on every step and checks that the calls so far are the ones its plan makes
// (INVALID_ARGUMENT otherwise: the caller ran something else).
//
// Thread-safety: pure functions (the registry is read-only once built).

#ifndef ENSEMBLE_CORE_ASSISTANT_LOCAL_PLANNER_H_
#define ENSEMBLE_CORE_ASSISTANT_LOCAL_PLANNER_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/assistant/turn_limits.h"
#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::assistant {

// Look up, write, reply.
inline constexpr int kMaxLocalPlannerSteps = 3;
static_assert(kMaxLocalPlannerSteps <= kMaxSteps);

// A lookup by title asks for at most this many tasks; more matches than
// kMaxChoices are counted rather than listed.
inline constexpr int kLookupLimit = 20;
inline constexpr std::size_t kMaxChoices = 10;
// A list or due reply names at most this many tasks, then "and N more".
inline constexpr std::size_t kMaxListedTasks = 20;
// A tool's error is quoted in the reply up to this many characters.
inline constexpr std::size_t kMaxErrorChars = 300;

// What the planner can do without a model, and where to set one up; every
// "needs a model" reply is built from these.
inline constexpr std::string_view kLocalAbilitiesText =
    "I can add, list, complete and move tasks and show what is due without a model.";
inline constexpr std::string_view kSetUpModelText = ", set up a model in Settings \u2192 Model.";
// The topic when no area is recognised: "For anything else, set up ...".
inline constexpr std::string_view kAnythingElseTopic = "anything else";
inline constexpr std::string_view kAskTitleReply =
    "What should the task be called? For example: add a task to call Mira tomorrow.";
inline constexpr std::string_view kAskWhichTaskReply =
    "Which task? Name it by its title, for example: mark Draft brief done.";

// One call made earlier in this turn, with its outcome.
struct LocalCallRecord {
  std::string name;
  nlohmann::json args;
  nlohmann::json result;             // The tool's result (null when it failed).
  std::optional<std::string> error;  // Set when the call failed: its message.
};

// A record picked from the dock's @-menu: "@<label>" in the message names it.
struct LocalMention {
  std::string kind;  // "task", "page", ...; only tasks are changed here.
  std::string id;
  std::string label;
};

struct LocalPlanInput {
  std::string message;
  std::string today;                   // The person's today, YYYY-MM-DD, in time_zone.
  std::string time_zone;               // IANA name; dates are civil dates in it, so it is
                                       // carried for the caller's record and not read.
  std::vector<LocalCallRecord> calls;  // Made so far in this turn, in order.
  std::vector<LocalMention> mentions;  // The message's @-menu picks.
};

struct LocalCall {
  std::string name;
  nlohmann::json args;
};

struct LocalPlanStep {
  int step = 1;                  // 1-based: calls.size() + 1 of the input.
  std::string intent;            // LocalIntentName: add, list, due, ...
  std::vector<LocalCall> calls;  // To run now; empty when final.
  bool final = false;
  std::string reply;         // The final text (final only).
  bool needs_model = false;  // The reply says what needs a model.
};

// The next step. INVALID_ARGUMENT for a bad `today` or calls that are not
// this message's plan; INTERNAL if a call it made failed validation against
// `registry` (a bug).
Result<LocalPlanStep> PlanLocalStep(const tools::ToolRegistry& registry,
                                    const LocalPlanInput& input);

// The JSON edge, shared by the wasm binding (planLocally), the CLI
// (tools/ensemble plan) and the vectors (tests/vectors/assistant/
// local_planner.json). Request (unknown keys are INVALID_ARGUMENT):
//   {"message": "...", "today": "YYYY-MM-DD", "timeZone"?: "Europe/Berlin",
//    "calls"?: [{"name", "args"?, "result"?, "error"?}],
//    "mentions"?: [{"kind", "id", "label"}]}
// Answer: {"step", "intent", "final", "calls": [{"name", "args"}], "reply",
//          "needsModel"}.
Result<nlohmann::json> PlanLocallyJson(const tools::ToolRegistry& registry,
                                       const nlohmann::json& request);

// Reads a request's optional "mentions" ([{"kind", "id", "label"}], at most
// kMaxLocalMentions, each a non-empty string) into `out`; INVALID_ARGUMENT
// otherwise. Shared by both JSON edges (PlanLocallyJson, RunLocalTurnJson).
inline constexpr std::size_t kMaxLocalMentions = 20;
Status ReadLocalMentions(const nlohmann::json& request, std::vector<LocalMention>* out);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_LOCAL_PLANNER_H_
