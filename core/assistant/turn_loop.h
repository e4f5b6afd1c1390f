// TurnLoop: the rules of one assistant turn (spec 000 §1, §3 "Playbook
// routing", §4, §6, "Turn limits"), as a state machine with no I/O, so the
// server drives it with a real model and the browser with the local planner,
// and both apply the same rules.
//
// The driver asks NextRequest() for the model request, sends it, and hands
// the reply to OnModelReply(), which says what to do next:
//   kCallTools  run each kRun call, save each kHold call as a proposal, then
//               report every outcome with OnToolOutcomes() and ask again;
//   kAskAgain   the reply went back with a nudge: ask again;
//   kVerify     run the surface's verify hook on the text, then OnVerified();
//   kFinal      the turn's answer; kFailed: no valid answer (show Retry).
// A model call that fails goes to OnModelError().
//
// Rules kept here: at most kMaxSteps model requests, the last with tools off;
// every call is checked before anything is dispatched (offered, registered,
// schema-valid, well-formed), so a bad call becomes a tool result the model
// can correct itself from; hub_how_to is answered here and adds its
// playbook's tools for the rest of the loop; at most kMaxWebSearchesPerTurn
// searches; writes are held under the write policy (write_policy.h) and
// reported to the model as proposed; tool results are cut to
// kMaxToolResultChars; a text-only reply that leaves the work undone goes
// back once (nudge.h); a verify hook gets at most kMaxVerifyRounds, only while
// a step with tools remains, and if the model then fails, the answer it was
// sent back with stands.
//
// Tools the registry does not define (connected-app tools) are not offered
// yet: they come with their definitions.
//
// Thread-safety: none; one loop per turn, driven from one thread at a time.
// The registry and router must outlive it.

#ifndef ENSEMBLE_CORE_ASSISTANT_TURN_LOOP_H_
#define ENSEMBLE_CORE_ASSISTANT_TURN_LOOP_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/assistant/assistant_tools.h"
#include "core/assistant/instructions.h"
#include "core/assistant/turn_limits.h"
#include "core/base/status.h"
#include "core/model/chat_request.h"
#include "core/model/stream_decoder.h"
#include "core/playbooks/router.h"
#include "core/tools/tool.h"
#include "core/tools/tool_registry.h"
#include "core/web/web_tools.h"

namespace ensemble::core::assistant {

// Tools the loop answers itself, named where their table entries are.
using web::kWebSearchTool;

// What the model is told when it searches a fourth time.
inline constexpr std::string_view kSearchLimitMessage =
    "This turn has made its 3 web searches. Read one of the pages found with "
    "hub_read_web_page, or answer with what you have.";
// The status line a held write's result carries to the model.
inline constexpr std::string_view kProposedNote =
    "Held for the person's Apply: nothing has changed yet. Report it as proposed, not done.";

struct TurnSetup {
  std::string instructions;                 // The system message.
  std::vector<model::ChatMessage> history;  // The conversation's History().
  std::string user_content;                 // The turn context and the message.
  WritePolicy policy = WritePolicy::kImmediate;
  playbooks::RouteRequest route;  // Routed again after each hub_how_to.
  bool verify = false;            // The surface passed a verify hook.
};

enum class CallAction {
  kRun,       // The driver runs it and reports the result.
  kHold,      // The driver saves it as a proposal and reports its preview.
  kAnswered,  // The loop answered it (hub_how_to, or a refusal in `status`).
};

struct PlannedCall {
  std::string id;
  std::string name;
  nlohmann::json input;  // Valid against the tool's schema unless kAnswered.
  CallAction action = CallAction::kAnswered;
  const tools::ToolDef* tool = nullptr;  // Null for a refused call.
  Status status;                         // Why a kAnswered call was refused.
  std::string answer;                    // The tool result a kAnswered call gets.
};

// What the driver reports for each kRun and kHold call.
struct ToolOutcome {
  std::string call_id;
  Status status;          // Not OK: the call failed (the model is told why).
  nlohmann::json result;  // kRun: the tool's result.
  std::string preview;    // kHold: the proposal's display text.
};

struct LoopStep {
  enum class Kind { kCallTools, kAskAgain, kVerify, kFinal, kFailed };
  Kind kind = Kind::kFailed;
  std::vector<PlannedCall> calls;  // kCallTools, in the model's order.
  std::string text;                // kVerify: the answer to check; kFinal: the answer.
  Status error;                    // kFailed.
};

class TurnLoop {
 public:
  TurnLoop(const tools::ToolRegistry& registry, const playbooks::Router& router, TurnSetup setup);

  // The next model request; counts a step. FAILED_PRECONDITION when the turn
  // is over or is waiting for tool outcomes or a verify answer.
  Result<model::ChatRequest> NextRequest();

  // The model's whole reply to the last request.
  LoopStep OnModelReply(std::string text, std::vector<model::AssembledToolCall> calls);

  // Every kRun and kHold call's outcome from the last kCallTools step.
  // INVALID_ARGUMENT (and nothing changes) when one is missing or unknown.
  Status OnToolOutcomes(std::vector<ToolOutcome> outcomes);

  // The verify hook's answer for the kVerify text: what is still missing
  // (empty: nothing; the text is the final answer).
  LoopStep OnVerified(std::string_view missing);

  // The last model request failed (after any retries the driver makes).
  LoopStep OnModelError(Status error);

  int steps() const { return steps_; }
  bool tools_ran() const { return tools_ran_; }
  // The tool names offered now (they grow with hub_how_to).
  const std::vector<std::string>& offered_tools() const { return offered_; }

 private:
  enum class State { kReady, kAwaitingReply, kAwaitingOutcomes, kAwaitingVerify, kDone };

  bool StepWithToolsRemains() const { return steps_ < kMaxSteps - 1; }
  bool IsOffered(std::string_view name) const;
  PlannedCall Plan(const model::AssembledToolCall& call);
  LoopStep Final(std::string text);
  LoopStep Fail(Status error);

  const tools::ToolRegistry& registry_;
  const playbooks::Router& router_;
  TurnSetup setup_;
  std::vector<std::string> offered_;
  std::vector<model::ChatMessage> transcript_;  // This turn's exchange so far.
  std::vector<PlannedCall> pending_;            // The last kCallTools step.
  State state_ = State::kReady;
  int steps_ = 0;
  int nudges_ = 0;
  int verify_rounds_ = 0;
  int web_searches_ = 0;
  bool tools_ran_ = false;
  std::string standing_answer_;  // Sent back by the verify hook.
  bool has_standing_answer_ = false;
};

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_TURN_LOOP_H_
