// Running what Apply claimed (spec 000 §6 "Apply, Undo and dependent
// actions"): the calls of a proposal (proposal_store.h), each checked again
// and run through its tool's hooks, and the reversal of applied calls for
// Undo. The store work of the server's POST /api/assistant/apply, kept in the
// core so the browser can apply its own drafts with the same rules.
//
// RunClaimedCalls, inside the caller's transaction:
//   - every call is checked again before it runs: its tool is still
//     registered and still a write, and its saved input still passes the
//     schema (a tool may have changed since the proposal was made);
//   - `prepare` runs again, then `run`, each call in a savepoint of its own,
//     so a failed call leaves nothing half-written;
//   - a hub_run_workflow call runs its steps in order (workflow.h), each
//     step's progress kept on the call's receipt; a failed step stops the
//     workflow, the steps before it stay done (the spec reports "what
//     finished"), and Retry resumes after them. The Apply's one transaction
//     means a cut-off Apply leaves no step half-done or running;
//   - the first failure stops the rest: they are kUnattempted, so Retry
//     sends exactly the calls that did not happen;
//   - Hub writes run first, in the proposal's order; writes that leave the
//     Hub (outside_transaction, connected apps) only after them, one at a
//     time (the caller runs them after its commit: RunOutsideCalls).
//   - `out_of_time` is asked before each call (the Apply's 30 s budget);
//     once it says so, the rest are kUnattempted with APPLY_TIMEOUT.
//
// Thread-safety: as the ToolContext; the registry is read-only.

#ifndef ENSEMBLE_CORE_ASSISTANT_APPLY_CALLS_H_
#define ENSEMBLE_CORE_ASSISTANT_APPLY_CALLS_H_

#include <chrono>
#include <functional>
#include <span>
#include <vector>

#include "core/assistant/proposal_store.h"
#include "core/tools/tool_context.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::assistant {

// The spec's bound on an Apply's Hub transaction.
inline constexpr std::chrono::seconds kApplyTransactionTimeout{30};

// Whether a call writes outside the Hub (run after the Hub transaction).
bool IsOutsideWrite(const tools::ToolDef& tool);

// Runs the Hub calls among claim.to_run (in order) with `context`, whose
// `write` sink must write in the caller's transaction. Returns one receipt
// per call that is not an outside write, in order.
std::vector<CallReceipt> RunClaimedCalls(const tools::ToolRegistry& registry,
                                         const ApplyClaim& claim, tools::ToolContext& context,
                                         const std::function<bool()>& out_of_time);

// Runs the outside writes among `calls`, one at a time, after the Hub calls'
// receipts `hub_receipts` (one failed: they are all kUnattempted). Returns
// their receipts, in order.
std::vector<CallReceipt> RunOutsideCalls(const tools::ToolRegistry& registry,
                                         std::span<const ProposedCall> calls,
                                         std::span<const CallReceipt> hub_receipts,
                                         tools::ToolContext& context);

// Runs each item's undo entry ([{name, args}] mutations) through
// context.write, in the order given (MarkUndone's: reverse call order). Stops
// at the first that fails and returns its error, naming the call.
Status RunUndo(std::span<const UndoItem> items, tools::ToolContext& context);

// Redo after Undo: runs each item's call again, in order, each rechecked as
// Apply does; all or nothing is the caller's transaction. Returns each call's
// new receipt (its undo entry replaces the old one: SetUndoEntry).
Result<std::vector<CallReceipt>> RunRedo(const tools::ToolRegistry& registry,
                                         std::span<const UndoItem> items,
                                         tools::ToolContext& context);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_APPLY_CALLS_H_
