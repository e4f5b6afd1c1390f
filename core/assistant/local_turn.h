// RunLocalTurn: the built-in planner's whole turn (local_planner.h) in one
// synchronous call against one ToolContext. The browser runs its offline
// turns with it over its replica (wasm runLocalTurn), so reads see the
// device's copy and writes go to its outbox and sync later (issue 5: "the
// browser uses it offline too"); the server drives the same LocalTurnLoop
// in its turn driver, a store hop per call.
//
// Per step, each call the planner makes is checked against the registry, a
// write in an area the person turned off is refused back to the planner, a
// write the policy holds is prepared and previewed and kept as a draft, and
// anything else is prepared and run. A turn with drafts ends there and says
// they wait for Apply (ApplyLocalCalls runs them).
//
// Thread-safety: as the ToolContext given.

#ifndef ENSEMBLE_CORE_ASSISTANT_LOCAL_TURN_H_
#define ENSEMBLE_CORE_ASSISTANT_LOCAL_TURN_H_

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/assistant/local_planner.h"
#include "core/assistant/write_policy.h"
#include "core/base/status.h"
#include "core/tools/tool_context.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::assistant {

struct LocalTurnRequest {
  std::string message;
  WritePolicy policy = WritePolicy::kImmediate;
  // The write areas the person allows; nullopt: every area.
  std::optional<std::vector<std::string>> allowed_write_areas;
  std::vector<LocalMention> mentions;  // The message's @-menu picks.
};

struct LocalTurnCall {
  enum class State { kSucceeded, kFailed, kHeld };
  std::string id;  // "local_<step>_<n>", as the server names them.
  std::string name;
  nlohmann::json input;  // As run or held: prepared (the exact records).
  State state = State::kFailed;
  nlohmann::json result;  // kSucceeded: the tool's result.
  std::string text;       // kFailed: why; kHeld: the preview.
};

struct LocalTurnResult {
  std::string reply;  // What the assistant says.
  bool needs_model = false;
  std::vector<LocalTurnCall> calls;  // In the order made.
};

// The bookkeeping of one planner turn, for a host that makes each call its
// own way: RunLocalTurn makes them all in one synchronous call, the server's
// turn driver each in its own store transaction, streamed as a frame. The
// loop owns the steps (at most kMaxLocalPlannerSteps + 1 plans), the area
// check, which writes the policy holds, what the planner hears of each
// outcome, and the reply of a turn that held writes.
//
// Thread-safety: one turn, one thread at a time.
class LocalTurnLoop {
 public:
  enum class Action {
    kRun,      // Prepare and run it.
    kHold,     // The policy holds this write: prepare and preview it.
    kRefused,  // Its area is turned off: already failed, with why; not to run.
  };
  struct Planned {
    LocalTurnCall call;  // id, name, input (the planner's).
    const tools::ToolDef* def = nullptr;
    Action action = Action::kRun;
  };
  struct Step {
    bool final = false;
    std::string reply;  // final: what the assistant says.
    bool needs_model = false;
    std::vector<Planned> calls;  // Not final: to make, in order.
  };

  // `allowed` says whether the person lets the assistant make a call of
  // this tool (false: a write area turned off).
  LocalTurnLoop(const tools::ToolRegistry& registry, std::string message, WritePolicy policy,
                std::function<bool(const tools::ToolDef&)> allowed, std::string today,
                std::string time_zone, std::vector<LocalMention> mentions = {});

  // The next step, once every call of the last one was reported: the final
  // reply (the planner's, or WaitingForApplyText when writes were held) or
  // the calls to make. INTERNAL for a tool the registry lacks; LIMIT_REACHED
  // when the planner has not finished within its steps.
  Result<Step> Next();

  // The outcome of the next unreported call of the last step: kSucceeded
  // with its result, kFailed with why, or kHeld with its preview.
  void Report(const LocalTurnCall& call);

 private:
  const tools::ToolRegistry& registry_;
  const WritePolicy policy_;
  const std::function<bool(const tools::ToolDef&)> allowed_;
  LocalPlanInput input_;
  std::vector<LocalCall> pending_;  // The last step's calls as planned.
  size_t reported_ = 0;
  std::vector<std::string> held_;  // Previews of the writes held.
  int plans_ = 0;
};

// Runs the turn. `ctx.today` must be the person's today; writes go through
// ctx.write. A failed call is reported to the planner and in the result, not
// as an error; the Status is for a planner that did not finish (INTERNAL,
// LIMIT_REACHED) or a bad request.
Result<LocalTurnResult> RunLocalTurn(const tools::ToolRegistry& registry, tools::ToolContext& ctx,
                                     const LocalTurnRequest& request);

// "Waiting for your Apply: <preview>; <preview>. Nothing changes until you
// apply it.": what a planner turn that held writes says (here and on the
// server), each preview's own final period dropped.
std::string WaitingForApplyText(const std::vector<std::string>& previews);

// Runs drafts a local turn held (their prepared inputs), in order: each is
// checked and run as RunLocalTurn would have, and stops at none (a failure
// is that call's result). Returns the calls with their outcomes.
std::vector<LocalTurnCall> ApplyLocalCalls(const tools::ToolRegistry& registry,
                                           tools::ToolContext& ctx,
                                           std::vector<LocalTurnCall> drafts);

// {"reply", "needsModel", "calls": [{"id", "name", "input", "state":
// "succeeded"|"failed"|"held", "result"?, "text"?}]}.
nlohmann::json LocalTurnJson(const LocalTurnResult& result);
nlohmann::json LocalCallJson(const LocalTurnCall& call);

// The JSON edge of the wasm bindings (runLocalTurn, applyLocalCalls). Both
// read {"spaceId", "today": "YYYY-MM-DD", "timeZone"?} into `ctx` first.
// RunLocalTurnJson also reads {"message", "policy"?: "immediate" |
// "preview" | "needs-me", "allowedWriteAreas"?: [area]} and answers
// LocalTurnJson (and "mentions"?, as PlanLocallyJson reads them); ApplyLocalCallsJson reads
// {"calls": [{"id", "name", "input"}]} (a turn's held calls) and answers {"calls": [...]}. An
// unknown key or a missing or mistyped one is INVALID_ARGUMENT, before anything runs.
Result<nlohmann::json> RunLocalTurnJson(const tools::ToolRegistry& registry,
                                        tools::ToolContext& ctx, const nlohmann::json& request);
Result<nlohmann::json> ApplyLocalCallsJson(const tools::ToolRegistry& registry,
                                           tools::ToolContext& ctx, const nlohmann::json& request);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_LOCAL_TURN_H_
