// Proposals: the held write calls of one assistant reply, saved so that Apply
// runs exactly what the person saw (spec 000 §6, "Apply, Undo and dependent
// actions"). This file is the bookkeeping half of Apply; the caller (the
// server's POST /api/assistant/apply) rechecks permissions, runs the calls and
// their reversals, and reports back here.
//
// The rules it keeps:
//   - A proposal is bound to its calls by a SHA-256 over their canonical JSON
//     (ProposalHash); a stored proposal whose calls no longer match its hash
//     is refused (PROPOSAL_TAMPERED) and never runs.
//   - Apply never accepts a new tool call: it names calls saved on the
//     proposal by id, or all of them.
//   - ClaimForApply is one conditional UPDATE, so of any number of concurrent
//     Apply requests, on any number of connections or processes, exactly one
//     wins; the others get FAILED_PRECONDITION.
//   - Receipts separate succeeded, failed and unattempted calls; Retry
//     (CallsToRun) never returns a call that succeeded, nor one interrupted
//     while running unless the person names it.
//   - A proposal is private to its account: another account's is NOT_FOUND.
//
// States: pending -> applying -> applied | partial | failed; pending, partial
// and failed may be claimed again (Retry) or discarded.
//
// Thread-safety: functions of a Database, used from one thread at a time;
// ProposalHash and CallsToRun are pure. Concurrency between connections is
// settled by the store (see ClaimForApply).

#ifndef ENSEMBLE_CORE_ASSISTANT_PROPOSAL_STORE_H_
#define ENSEMBLE_CORE_ASSISTANT_PROPOSAL_STORE_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/store/migrations.h"

namespace ensemble::core::assistant {

// Not a spec number: bounds one saved row. A reply makes at most 8 model
// requests, and a request that holds more writes than this is not a proposal
// a person can read before applying.
inline constexpr std::size_t kMaxProposalCalls = 64;
// A call id is the model's (e.g. "call_abc123"); longer is not an id.
inline constexpr std::size_t kMaxCallIdLength = 128;

// The assistant_proposals table.
extern const store::Migration kCreateProposalTable;

struct ProposedCall {
  std::string call_id;
  std::string tool;
  nlohmann::json input = nlohmann::json::object();

  bool operator==(const ProposedCall&) const = default;
};

enum class ProposalState { kPending, kApplying, kApplied, kPartial, kFailed, kDiscarded };

// Where a proposal waits for the person (spec 000 §6): on the Needs me list
// when the needs-me write policy held it, else in the chat (preview, and the
// alwaysHold and connected-app writes every policy holds).
enum class WaitsOn { kChat, kNeedsMe };

// What became of one call.
enum class CallOutcome {
  kRunning,      // Recorded as started (RecordProgress); no outcome yet.
  kSucceeded,    // Ran; never sent again.
  kFailed,       // Ran and failed, or was refused before running.
  kUnattempted,  // Not run because an earlier call failed (or the apply stopped).
  kInterrupted,  // Found kRunning after the apply was cut off: it may or may
                 // not have happened, so only the person may send it again.
};

std::string_view ProposalStateName(ProposalState state);
// "chat" or "needs-me".
std::string_view WaitsOnName(WaitsOn waits_on);
std::string_view CallOutcomeName(CallOutcome outcome);

struct CallReceipt {
  std::string call_id;
  CallOutcome outcome = CallOutcome::kUnattempted;
  std::string summary;        // kSucceeded: what changed, for the row.
  nlohmann::json undo;        // kSucceeded: the caller's undo entry; null: no Undo.
  std::string error_code;     // kFailed: a stable code.
  std::string error_message;  // kFailed: readable.
  nlohmann::json steps;       // A workflow call's per-step state (workflow.h); else null.
  bool undone = false;        // Undo ran for this call (and Redo has not).

  bool operator==(const CallReceipt&) const = default;
};

struct Proposal {
  std::string id;
  std::string conversation_id;
  std::string message_id;
  std::string account_id;
  std::string space_id;
  std::vector<ProposedCall> calls;  // In the model's order.
  std::string hash;                 // ProposalHash(calls) when saved.
  WaitsOn waits_on = WaitsOn::kChat;
  ProposalState state = ProposalState::kPending;
  std::vector<CallReceipt> receipts;  // In call order; only calls that have one.
  int64_t revision = 0;               // Bumped by every write; guards updates.
  int64_t created_at = 0;             // Milliseconds since the epoch.
  int64_t updated_at = 0;

  // The receipt of `call_id`, or null when it has none yet.
  const CallReceipt* Receipt(std::string_view call_id) const;
};

// Lower-case hex SHA-256 of the canonical JSON of the calls' (tool, input)
// pairs, in order: [[tool, input], ...] dumped compactly by nlohmann::json,
// whose objects keep their keys sorted (std::map), with invalid UTF-8
// replaced. Two inputs that are equal as JSON hash the same whatever order
// their keys were written in; call ids are not part of it (they name calls,
// they do not change what runs).
std::string ProposalHash(std::span<const ProposedCall> calls);

// Saves the write calls of one assistant message as its proposal and
// returns it with its hash. Held calls come without a receipt; calls that
// already ran at once (the immediate write policy) come with their
// kSucceeded receipt, so their Undo works like an applied call's. A proposal
// whose every call ran is saved kApplied, any other kPending (Apply runs only
// the held ones: CallsToRun skips what succeeded). INVALID_ARGUMENT for no
// calls or more than kMaxProposalCalls, an empty, over-long or repeated call
// id, an empty tool name, an input that is not an object, or a receipt that
// is not a success of one of the calls; ALREADY_EXISTS when the message
// already has a proposal. The caller has checked that the conversation and
// message are the account's.
Result<Proposal> SaveProposal(store::Database& db, Proposal proposal, int64_t now);

// The account's proposal, or NOT_FOUND (also for another account's).
Result<Proposal> GetProposal(store::Database& db, std::string_view account_id,
                             std::string_view proposal_id);

// The proposal of the account's message in the conversation, or NOT_FOUND:
// how Apply resolves "the calls saved on the authorized conversation and
// message".
Result<Proposal> GetMessageProposal(store::Database& db, std::string_view account_id,
                                    std::string_view conversation_id, std::string_view message_id);

// Every proposal of the account's conversation, oldest first (for the
// messages list, which shows each reply's calls as they stand now: applied,
// undone, failed).
Result<std::vector<Proposal>> ListConversationProposals(store::Database& db,
                                                        std::string_view account_id,
                                                        std::string_view conversation_id);

// A page of the Needs me list.
inline constexpr std::size_t kMaxApprovalsListed = 100;

// One proposal on the Needs me list, with each call's display text.
struct Approval {
  struct Call {
    std::string call_id;
    std::string tool;
    std::string summary;  // The preview the reply showed, else ReadablePreview.
  };
  std::string proposal_id;
  std::string conversation_id;
  std::string message_id;
  int64_t created_at = 0;
  std::vector<Call> calls;
};

// The account's proposals that wait on Needs me and are not yet decided
// (pending: never applied, not discarded), newest first, at most `limit`
// (capped at kMaxApprovalsListed). Only proposals on the account's own
// conversations are listed.
Result<std::vector<Approval>> ListApprovals(store::Database& db, std::string_view account_id,
                                            std::size_t limit = kMaxApprovalsListed);

// The calls a run should send, in order: those named (all when nullopt)
// that have not succeeded; an interrupted call only when named. Pure.
std::vector<ProposedCall> CallsToRun(const Proposal& proposal,
                                     const std::optional<std::vector<std::string>>& call_ids);

struct ApplyClaim {
  Proposal proposal;                 // As claimed: state kApplying.
  std::vector<ProposedCall> to_run;  // CallsToRun(proposal, call_ids).
};

// Moves the account's proposal to applying, for this caller alone. Checks in
// order: NOT_FOUND (no such proposal, or another account's); PROPOSAL_TAMPERED
// (the stored calls no longer match the stored hash); INVALID_ARGUMENT (a
// named call id that is not on the proposal: Apply never accepts a new call);
// FAILED_PRECONDITION "already being applied" / "already applied" /
// "discarded" / "nothing left to apply". The state change is a single
// UPDATE conditioned on the state and revision read, so exactly one of many
// concurrent claims succeeds (on SQLite the losers wait for the write lock,
// at most kSqliteBusyTimeoutMs, then see the new state).
Result<ApplyClaim> ClaimForApply(store::Database& db, std::string_view account_id,
                                 std::string_view proposal_id,
                                 const std::optional<std::vector<std::string>>& call_ids,
                                 int64_t now);

// Saves receipts of an apply in progress (a call started, a workflow step
// done) so a cut-off apply can be told apart from one never run. The
// proposal must be applying (FAILED_PRECONDITION otherwise); receipts merge
// by call id and must name calls on the proposal (INVALID_ARGUMENT), and a
// succeeded call's receipt is never replaced by another outcome.
Status RecordProgress(store::Database& db, std::string_view proposal_id,
                      std::span<const CallReceipt> receipts, int64_t now);

// Ends an apply: merges `receipts` as RecordProgress does and sets the final
// state: applied when every call has succeeded, partial when some have,
// failed when none has. A call still kRunning becomes kInterrupted (it may
// have happened); a claimed call the apply did not reach should be given a
// kUnattempted receipt by the caller. Returns the proposal.
Result<Proposal> RecordReceipts(store::Database& db, std::string_view proposal_id,
                                std::span<const CallReceipt> receipts, int64_t now);

// For a proposal left applying by an apply that was cut off (a crash, a
// restart): its kRunning calls become kInterrupted, the state is set as
// RecordReceipts sets it. FAILED_PRECONDITION unless the proposal is
// applying. Only the caller knows that no apply is still running it.
Result<Proposal> RecoverInterrupted(store::Database& db, std::string_view proposal_id, int64_t now);

// pending, partial or failed -> discarded (FAILED_PRECONDITION otherwise).
Status DiscardProposal(store::Database& db, std::string_view account_id,
                       std::string_view proposal_id, int64_t now);

// Removes the proposals of a conversation (when the conversation is deleted).
Status DeleteConversationProposals(store::Database& db, std::string_view conversation_id);

// One call of an Undo or Redo: the saved call and its receipt (whose `undo`
// entry the caller runs to reverse it, or whose call it runs again to redo).
struct UndoItem {
  ProposedCall call;
  CallReceipt receipt;
};

// Marks the named (all when nullopt) succeeded, undoable (non-null undo),
// not yet undone calls of a proposal that is not being applied as undone and
// returns them in reverse call order, the order to reverse them in. Run it in
// the transaction that runs the reversals, so a failed reversal rolls the
// mark back too. Like ClaimForApply it is conditioned on the revision read,
// so two concurrent Undos cannot both get the same calls (the loser:
// FAILED_PRECONDITION). NOT_FOUND as GetProposal; PROPOSAL_TAMPERED as
// ClaimForApply; FAILED_PRECONDITION "nothing to undo".
Result<std::vector<UndoItem>> MarkUndone(store::Database& db, std::string_view account_id,
                                         std::string_view proposal_id,
                                         const std::optional<std::vector<std::string>>& call_ids,
                                         int64_t now);

// The reverse of MarkUndone: the named undone calls are marked not undone
// and returned in call order, the order to run them again in; "nothing to
// redo" when none is undone.
Result<std::vector<UndoItem>> MarkRedone(store::Database& db, std::string_view account_id,
                                         std::string_view proposal_id,
                                         const std::optional<std::vector<std::string>>& call_ids,
                                         int64_t now);

// Replaces the undo entry of a succeeded call (a Redo that made a new one).
// NOT_FOUND for an unknown proposal or call; FAILED_PRECONDITION unless the
// call succeeded.
Status SetUndoEntry(store::Database& db, std::string_view proposal_id, std::string_view call_id,
                    nlohmann::json undo, int64_t now);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_PROPOSAL_STORE_H_
