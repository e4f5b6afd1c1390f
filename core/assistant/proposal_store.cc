#include "core/assistant/proposal_store.h"

#include <algorithm>
#include <set>
#include <utility>

#include "core/base/sha256.h"
#include "core/refs/readable_preview.h"
#include "core/text/trim.h"

namespace ensemble::core::assistant {

using nlohmann::json;
using store::AsInt;
using store::AsText;
using store::Value;

// The version is assigned in the hub's list (core/hub/hub.cc), append only.
const store::Migration kCreateProposalTable = {
    12, "create assistant proposals",
    "CREATE TABLE assistant_proposals ("
    " id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL, message_id TEXT NOT NULL UNIQUE,"
    " account_id TEXT NOT NULL, space_id TEXT NOT NULL, calls TEXT NOT NULL,"
    " hash TEXT NOT NULL, state TEXT NOT NULL, receipts TEXT NOT NULL,"
    " revision BIGINT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL);"
    "CREATE INDEX assistant_proposals_conversation"
    " ON assistant_proposals (account_id, conversation_id);"};

namespace {

constexpr char kColumns[] =
    "id, conversation_id, message_id, account_id, space_id, calls, hash, state, receipts,"
    " revision, created_at, updated_at, waits_on";

constexpr std::pair<ProposalState, std::string_view> kProposalStateNames[] = {
    {ProposalState::kPending, "pending"}, {ProposalState::kApplying, "applying"},
    {ProposalState::kApplied, "applied"}, {ProposalState::kPartial, "partial"},
    {ProposalState::kFailed, "failed"},   {ProposalState::kDiscarded, "discarded"}};

constexpr std::pair<CallOutcome, std::string_view> kOutcomeNames[] = {
    {CallOutcome::kRunning, "running"},
    {CallOutcome::kSucceeded, "succeeded"},
    {CallOutcome::kFailed, "failed"},
    {CallOutcome::kUnattempted, "unattempted"},
    {CallOutcome::kInterrupted, "interrupted"}};

// Saved text is written only by this file; an unknown name means a hand
// edit, read as the state that runs nothing by itself.
ProposalState ParseState(std::string_view name) {
  for (const auto& [state, n] : kProposalStateNames) {
    if (n == name) return state;
  }
  return ProposalState::kFailed;
}

CallOutcome ParseOutcome(std::string_view name) {
  for (const auto& [outcome, n] : kOutcomeNames) {
    if (n == name) return outcome;
  }
  return CallOutcome::kInterrupted;
}

json CallsToJson(std::span<const ProposedCall> calls) {
  json out = json::array();
  for (const ProposedCall& c : calls) {
    out.push_back({{"callId", c.call_id}, {"tool", c.tool}, {"input", c.input}});
  }
  return out;
}

// Calls that do not parse come back as an empty list (or with empty fields),
// which no longer matches the hash: a hand-edited row is refused, not run.
std::vector<ProposedCall> CallsFromJson(const std::string& text) {
  std::vector<ProposedCall> out;
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!value.is_array()) return out;
  for (const json& c : value) {
    if (!c.is_object()) continue;
    ProposedCall call;
    call.call_id = c.value("callId", "");
    call.tool = c.value("tool", "");
    call.input = c.contains("input") ? c["input"] : json();
    out.push_back(std::move(call));
  }
  return out;
}

json ReceiptToJson(const CallReceipt& r) {
  json out = {{"callId", r.call_id}, {"outcome", CallOutcomeName(r.outcome)}};
  if (!r.summary.empty()) out["summary"] = r.summary;
  if (!r.undo.is_null()) out["undo"] = r.undo;
  if (!r.error_code.empty()) out["error"] = {{"code", r.error_code}, {"message", r.error_message}};
  if (!r.steps.is_null()) out["steps"] = r.steps;
  if (r.undone) out["undone"] = true;
  return out;
}

std::vector<CallReceipt> ReceiptsFromJson(const std::string& text) {
  std::vector<CallReceipt> out;
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!value.is_array()) return out;
  for (const json& r : value) {
    if (!r.is_object() || !r.contains("callId") || !r["callId"].is_string()) continue;
    CallReceipt receipt;
    receipt.call_id = r["callId"].get<std::string>();
    receipt.outcome = ParseOutcome(r.value("outcome", ""));
    receipt.summary = r.value("summary", "");
    if (r.contains("undo")) receipt.undo = r["undo"];
    if (auto e = r.find("error"); e != r.end() && e->is_object()) {
      receipt.error_code = e->value("code", "");
      receipt.error_message = e->value("message", "");
    }
    if (r.contains("steps")) receipt.steps = r["steps"];
    receipt.undone = r.value("undone", false);
    out.push_back(std::move(receipt));
  }
  return out;
}

std::string ReceiptsText(const std::vector<CallReceipt>& receipts) {
  json out = json::array();
  for (const CallReceipt& r : receipts) out.push_back(ReceiptToJson(r));
  return text::DumpJson(out);
}

Proposal FromRow(const std::vector<Value>& row) {
  Proposal p;
  p.id = AsText(row[0]);
  p.conversation_id = AsText(row[1]);
  p.message_id = AsText(row[2]);
  p.account_id = AsText(row[3]);
  p.space_id = AsText(row[4]);
  p.calls = CallsFromJson(AsText(row[5]));
  p.hash = AsText(row[6]);
  p.state = ParseState(AsText(row[7]));
  p.receipts = ReceiptsFromJson(AsText(row[8]));
  p.revision = AsInt(row[9]);
  p.created_at = AsInt(row[10]);
  p.updated_at = AsInt(row[11]);
  p.waits_on =
      AsText(row[12]) == WaitsOnName(WaitsOn::kNeedsMe) ? WaitsOn::kNeedsMe : WaitsOn::kChat;
  return p;
}

Status NotFound() { return Status(codes::kNotFound, "no such proposal"); }

Status CheckHash(const Proposal& p) {
  if (p.calls.empty() || ProposalHash(p.calls) != p.hash) {
    return Status(codes::kProposalTampered,
                  "this proposal was changed after it was made, so it will not run; ask again");
  }
  return Status::Ok();
}

Result<Proposal> Load(store::Database& db, std::string_view proposal_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query(std::string("SELECT ") + kColumns + " FROM assistant_proposals WHERE id = $1",
               {Value(std::string(proposal_id))}));
  if (rows.empty()) return NotFound();
  return FromRow(rows.rows[0]);
}

// Writes state and receipts if the row still has the revision `p` was read
// at; false (and nothing written) when another writer got there first.
Result<bool> WriteIfUnchanged(store::Database& db, const Proposal& p, ProposalState state,
                              const std::vector<CallReceipt>& receipts, int64_t now) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("UPDATE assistant_proposals SET state = $3, receipts = $4,"
               " revision = revision + 1, updated_at = $5"
               " WHERE id = $1 AND revision = $2 RETURNING id",
               {Value(p.id), Value(p.revision), Value(std::string(ProposalStateName(state))),
                Value(ReceiptsText(receipts)), Value(now)}));
  return !rows.empty();
}

Status ChangedMeanwhile() {
  return Status(codes::kFailedPrecondition, "this proposal changed meanwhile; try again");
}

// Why a proposal in `state` cannot be claimed.
Status NotClaimable(ProposalState state) {
  switch (state) {
    case ProposalState::kApplying:
      return Status(codes::kFailedPrecondition, "this proposal is already being applied");
    case ProposalState::kApplied:
      return Status(codes::kFailedPrecondition, "this proposal was already applied");
    case ProposalState::kDiscarded:
      return Status(codes::kFailedPrecondition, "this proposal was discarded");
    default:
      break;
  }
  return Status::Ok();
}

bool IsOnProposal(const Proposal& p, std::string_view call_id) {
  return std::any_of(p.calls.begin(), p.calls.end(),
                     [&](const ProposedCall& c) { return c.call_id == call_id; });
}

Status CheckNamedCalls(const Proposal& p, const std::optional<std::vector<std::string>>& ids) {
  if (!ids) return Status::Ok();
  for (const std::string& id : *ids) {
    if (!IsOnProposal(p, id)) {
      return Status(codes::kInvalidArgument,
                    "no call \"" + text::TruncateChars(id, kMaxCallIdLength) +
                        "\" on this proposal; Apply runs only the calls it saved");
    }
  }
  return Status::Ok();
}

bool Named(const std::optional<std::vector<std::string>>& ids, std::string_view call_id) {
  return !ids || std::find(ids->begin(), ids->end(), call_id) != ids->end();
}

// `incoming` merged into `p.receipts` by call id, kept in call order.
Result<std::vector<CallReceipt>> Merge(const Proposal& p, std::span<const CallReceipt> incoming) {
  std::vector<CallReceipt> merged;
  for (const CallReceipt& r : incoming) {
    if (!IsOnProposal(p, r.call_id)) {
      return Status(codes::kInvalidArgument, "a receipt names a call that is not on the proposal");
    }
    const CallReceipt* old = p.Receipt(r.call_id);
    if (old && old->outcome == CallOutcome::kSucceeded && r.outcome != CallOutcome::kSucceeded) {
      return Status(codes::kFailedPrecondition,
                    "call \"" + r.call_id + "\" already succeeded; its receipt stays");
    }
  }
  for (const ProposedCall& c : p.calls) {
    const CallReceipt* latest = p.Receipt(c.call_id);
    for (const CallReceipt& r : incoming) {
      if (r.call_id == c.call_id) latest = &r;
    }
    if (latest) merged.push_back(*latest);
  }
  return merged;
}

ProposalState FinalState(const Proposal& p, const std::vector<CallReceipt>& receipts) {
  std::size_t succeeded = 0;
  for (const CallReceipt& r : receipts) {
    if (r.outcome == CallOutcome::kSucceeded) ++succeeded;
  }
  if (succeeded == p.calls.size()) return ProposalState::kApplied;
  return succeeded > 0 ? ProposalState::kPartial : ProposalState::kFailed;
}

Status CheckApplying(const Proposal& p) {
  if (p.state != ProposalState::kApplying) {
    return Status(codes::kFailedPrecondition, "this proposal is not being applied");
  }
  return Status::Ok();
}

Result<Proposal> Finish(store::Database& db, Proposal p, std::vector<CallReceipt> receipts,
                        int64_t now) {
  const ProposalState state = FinalState(p, receipts);
  ENSEMBLE_ASSIGN_OR_RETURN(bool written, WriteIfUnchanged(db, p, state, receipts, now));
  if (!written) return ChangedMeanwhile();
  p.state = state;
  p.receipts = std::move(receipts);
  ++p.revision;
  p.updated_at = now;
  return p;
}

enum class UndoDirection { kUndo, kRedo };

Result<std::vector<UndoItem>> MarkUndoState(store::Database& db, std::string_view account_id,
                                            std::string_view proposal_id,
                                            const std::optional<std::vector<std::string>>& ids,
                                            int64_t now, UndoDirection direction) {
  ENSEMBLE_ASSIGN_OR_RETURN(Proposal p, GetProposal(db, account_id, proposal_id));
  ENSEMBLE_RETURN_IF_ERROR(CheckHash(p));
  ENSEMBLE_RETURN_IF_ERROR(CheckNamedCalls(p, ids));
  const bool undo = direction == UndoDirection::kUndo;
  // A pending or discarded proposal may hold calls that ran at once; only an
  // Apply in flight is left alone.
  if (p.state == ProposalState::kApplying) {
    return Status(codes::kFailedPrecondition, "this proposal is being applied; try again");
  }
  std::vector<CallReceipt> receipts = p.receipts;
  std::vector<UndoItem> items;
  for (CallReceipt& r : receipts) {
    if (!Named(ids, r.call_id) || r.outcome != CallOutcome::kSucceeded || r.undo.is_null()) {
      continue;
    }
    if (r.undone == undo) continue;
    r.undone = undo;
    for (const ProposedCall& c : p.calls) {
      if (c.call_id == r.call_id) items.push_back(UndoItem{c, r});
    }
  }
  if (items.empty()) {
    return Status(codes::kFailedPrecondition, undo ? "nothing to undo" : "nothing to redo");
  }
  ENSEMBLE_ASSIGN_OR_RETURN(bool written, WriteIfUnchanged(db, p, p.state, receipts, now));
  if (!written) return ChangedMeanwhile();
  // Reverse the last change first, so each undo meets the state it expects.
  if (undo) std::reverse(items.begin(), items.end());
  return items;
}

}  // namespace

const CallReceipt* Proposal::Receipt(std::string_view call_id) const {
  for (const CallReceipt& r : receipts) {
    if (r.call_id == call_id) return &r;
  }
  return nullptr;
}

std::string_view ProposalStateName(ProposalState state) {
  for (const auto& [s, name] : kProposalStateNames) {
    if (s == state) return name;
  }
  return "failed";
}

std::string_view WaitsOnName(WaitsOn waits_on) {
  return waits_on == WaitsOn::kNeedsMe ? "needs-me" : "chat";
}

std::string_view CallOutcomeName(CallOutcome outcome) {
  for (const auto& [o, name] : kOutcomeNames) {
    if (o == outcome) return name;
  }
  return "interrupted";
}

std::string ProposalHash(std::span<const ProposedCall> calls) {
  json canonical = json::array();
  for (const ProposedCall& c : calls) canonical.push_back(json::array({c.tool, c.input}));
  return Sha256Hex(text::DumpJson(canonical));
}

Result<Proposal> SaveProposal(store::Database& db, Proposal p, int64_t now) {
  if (p.calls.empty() || p.calls.size() > kMaxProposalCalls) {
    return Status(codes::kInvalidArgument,
                  "a proposal holds 1 to " + std::to_string(kMaxProposalCalls) + " calls");
  }
  std::set<std::string, std::less<>> seen;
  for (const ProposedCall& c : p.calls) {
    if (c.call_id.empty() || c.call_id.size() > kMaxCallIdLength) {
      return Status(codes::kInvalidArgument, "each held call needs an id of at most " +
                                                 std::to_string(kMaxCallIdLength) + " bytes");
    }
    if (!seen.insert(c.call_id).second) {
      return Status(codes::kInvalidArgument, "call id \"" + c.call_id + "\" is used twice");
    }
    if (c.tool.empty() || !c.input.is_object()) {
      return Status(codes::kInvalidArgument, "each held call needs a tool and an input object");
    }
  }
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows existing,
      db.Query("SELECT id FROM assistant_proposals WHERE message_id = $1", {Value(p.message_id)}));
  if (!existing.empty()) {
    return Status(codes::kAlreadyExists, "this message already has a proposal");
  }
  std::set<std::string, std::less<>> ran;
  for (const CallReceipt& r : p.receipts) {
    if (r.outcome != CallOutcome::kSucceeded || !seen.count(r.call_id) ||
        !ran.insert(r.call_id).second) {
      return Status(codes::kInvalidArgument,
                    "a saved receipt must be the one success of a call of the proposal");
    }
  }
  p.hash = ProposalHash(p.calls);
  p.state = ran.size() == p.calls.size() ? ProposalState::kApplied : ProposalState::kPending;
  p.revision = 1;
  p.created_at = now;
  p.updated_at = now;
  ENSEMBLE_RETURN_IF_ERROR(
      db.Exec(std::string("INSERT INTO assistant_proposals (") + kColumns +
                  ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
              {Value(p.id), Value(p.conversation_id), Value(p.message_id), Value(p.account_id),
               Value(p.space_id), Value(text::DumpJson(CallsToJson(p.calls))), Value(p.hash),
               Value(std::string(ProposalStateName(p.state))), Value(ReceiptsText(p.receipts)),
               Value(p.revision), Value(p.created_at), Value(p.updated_at),
               Value(std::string(WaitsOnName(p.waits_on)))}));
  return p;
}

Result<Proposal> GetProposal(store::Database& db, std::string_view account_id,
                             std::string_view proposal_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query(std::string("SELECT ") + kColumns +
                   " FROM assistant_proposals WHERE id = $1 AND account_id = $2",
               {Value(std::string(proposal_id)), Value(std::string(account_id))}));
  if (rows.empty()) return NotFound();
  return FromRow(rows.rows[0]);
}

Result<Proposal> GetMessageProposal(store::Database& db, std::string_view account_id,
                                    std::string_view conversation_id, std::string_view message_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query(std::string("SELECT ") + kColumns +
                   " FROM assistant_proposals WHERE message_id = $1 AND conversation_id = $2"
                   " AND account_id = $3",
               {Value(std::string(message_id)), Value(std::string(conversation_id)),
                Value(std::string(account_id))}));
  if (rows.empty()) return NotFound();
  return FromRow(rows.rows[0]);
}

Result<std::vector<Proposal>> ListConversationProposals(store::Database& db,
                                                        std::string_view account_id,
                                                        std::string_view conversation_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query(std::string("SELECT ") + kColumns +
                   " FROM assistant_proposals WHERE account_id = $1 AND conversation_id = $2"
                   " ORDER BY created_at, id",
               {Value(std::string(account_id)), Value(std::string(conversation_id))}));
  std::vector<Proposal> out;
  out.reserve(rows.size());
  for (const auto& row : rows.rows) out.push_back(FromRow(row));
  return out;
}

Result<std::vector<Approval>> ListApprovals(store::Database& db, std::string_view account_id,
                                            std::size_t limit) {
  limit = std::min(limit, kMaxApprovalsListed);
  // The join keeps the list to the account's own conversations, and brings
  // the reply's saved calls for the previews it showed.
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT p.id, p.conversation_id, p.message_id, p.created_at, p.calls, m.tool_calls,"
               " p.receipts"
               " FROM assistant_proposals p"
               " JOIN assistant_conversations c"
               " ON c.id = p.conversation_id AND c.account_id = p.account_id"
               " LEFT JOIN assistant_messages m ON m.id = p.message_id"
               " WHERE p.account_id = $1 AND p.waits_on = $2 AND p.state = $3"
               " ORDER BY p.created_at DESC, p.id DESC LIMIT $4",
               {Value(std::string(account_id)), Value(std::string(WaitsOnName(WaitsOn::kNeedsMe))),
                Value(std::string(ProposalStateName(ProposalState::kPending))),
                Value(static_cast<int64_t>(limit))}));
  std::vector<Approval> out;
  out.reserve(rows.size());
  for (const auto& row : rows.rows) {
    Approval a;
    a.proposal_id = AsText(row[0]);
    a.conversation_id = AsText(row[1]);
    a.message_id = AsText(row[2]);
    a.created_at = AsInt(row[3]);
    json saved = store::IsNull(row[5])
                     ? json::array()
                     : json::parse(AsText(row[5]), nullptr, /*allow_exceptions=*/false);
    const std::vector<CallReceipt> receipts = ReceiptsFromJson(AsText(row[6]));
    for (ProposedCall& call : CallsFromJson(AsText(row[4]))) {
      // What already ran at once does not wait for the person.
      if (std::any_of(receipts.begin(), receipts.end(),
                      [&](const CallReceipt& r) { return r.call_id == call.call_id; })) {
        continue;
      }
      std::string summary;
      if (saved.is_array()) {
        for (const json& c : saved) {
          if (c.is_object() && c.value("id", "") == call.call_id && c.contains("preview") &&
              c["preview"].is_string()) {
            summary = c["preview"].get<std::string>();
            break;
          }
        }
      }
      if (summary.empty()) summary = refs::ReadablePreview(call.tool, call.input, refs::RefSet());
      a.calls.push_back({std::move(call.call_id), std::move(call.tool), std::move(summary)});
    }
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<ProposedCall> CallsToRun(const Proposal& proposal,
                                     const std::optional<std::vector<std::string>>& call_ids) {
  std::vector<ProposedCall> out;
  for (const ProposedCall& c : proposal.calls) {
    if (!Named(call_ids, c.call_id)) continue;
    const CallReceipt* r = proposal.Receipt(c.call_id);
    if (r && r->outcome == CallOutcome::kSucceeded) continue;
    // It may have happened: only the person's naming it sends it again.
    if (r && (r->outcome == CallOutcome::kInterrupted || r->outcome == CallOutcome::kRunning) &&
        !call_ids) {
      continue;
    }
    out.push_back(c);
  }
  return out;
}

Result<ApplyClaim> ClaimForApply(store::Database& db, std::string_view account_id,
                                 std::string_view proposal_id,
                                 const std::optional<std::vector<std::string>>& call_ids,
                                 int64_t now) {
  ENSEMBLE_ASSIGN_OR_RETURN(Proposal p, GetProposal(db, account_id, proposal_id));
  ENSEMBLE_RETURN_IF_ERROR(CheckHash(p));
  ENSEMBLE_RETURN_IF_ERROR(CheckNamedCalls(p, call_ids));
  ENSEMBLE_RETURN_IF_ERROR(NotClaimable(p.state));
  std::vector<ProposedCall> to_run = CallsToRun(p, call_ids);
  if (to_run.empty()) {
    return Status(codes::kFailedPrecondition, "nothing left to apply");
  }
  // The one conditional write: state and revision as read, so a second
  // claimer (here or on another connection) matches no row.
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("UPDATE assistant_proposals SET state = 'applying', revision = revision + 1,"
               " updated_at = $3 WHERE id = $1 AND revision = $2"
               " AND state IN ('pending', 'partial', 'failed') RETURNING id",
               {Value(p.id), Value(p.revision), Value(now)}));
  if (rows.empty()) {
    ENSEMBLE_ASSIGN_OR_RETURN(Proposal now_stored, Load(db, p.id));
    Status why = NotClaimable(now_stored.state);
    return why.ok() ? ChangedMeanwhile() : why;
  }
  p.state = ProposalState::kApplying;
  ++p.revision;
  p.updated_at = now;
  return ApplyClaim{std::move(p), std::move(to_run)};
}

Status RecordProgress(store::Database& db, std::string_view proposal_id,
                      std::span<const CallReceipt> receipts, int64_t now) {
  ENSEMBLE_ASSIGN_OR_RETURN(Proposal p, Load(db, proposal_id));
  ENSEMBLE_RETURN_IF_ERROR(CheckApplying(p));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<CallReceipt> merged, Merge(p, receipts));
  ENSEMBLE_ASSIGN_OR_RETURN(bool written,
                            WriteIfUnchanged(db, p, ProposalState::kApplying, merged, now));
  return written ? Status::Ok() : ChangedMeanwhile();
}

Result<Proposal> RecordReceipts(store::Database& db, std::string_view proposal_id,
                                std::span<const CallReceipt> receipts, int64_t now) {
  ENSEMBLE_ASSIGN_OR_RETURN(Proposal p, Load(db, proposal_id));
  ENSEMBLE_RETURN_IF_ERROR(CheckApplying(p));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<CallReceipt> merged, Merge(p, receipts));
  // A call still running when the apply ends has no known outcome: it may
  // have happened, so it is never sent again without the person.
  for (CallReceipt& r : merged) {
    if (r.outcome == CallOutcome::kRunning) r.outcome = CallOutcome::kInterrupted;
  }
  return Finish(db, std::move(p), std::move(merged), now);
}

Result<Proposal> RecoverInterrupted(store::Database& db, std::string_view proposal_id,
                                    int64_t now) {
  ENSEMBLE_ASSIGN_OR_RETURN(Proposal p, Load(db, proposal_id));
  ENSEMBLE_RETURN_IF_ERROR(CheckApplying(p));
  std::vector<CallReceipt> receipts = p.receipts;
  for (CallReceipt& r : receipts) {
    if (r.outcome == CallOutcome::kRunning) r.outcome = CallOutcome::kInterrupted;
  }
  return Finish(db, std::move(p), std::move(receipts), now);
}

Status DiscardProposal(store::Database& db, std::string_view account_id,
                       std::string_view proposal_id, int64_t now) {
  ENSEMBLE_ASSIGN_OR_RETURN(Proposal p, GetProposal(db, account_id, proposal_id));
  if (p.state == ProposalState::kApplying || p.state == ProposalState::kApplied ||
      p.state == ProposalState::kDiscarded) {
    return NotClaimable(p.state);
  }
  ENSEMBLE_ASSIGN_OR_RETURN(bool written,
                            WriteIfUnchanged(db, p, ProposalState::kDiscarded, p.receipts, now));
  return written ? Status::Ok() : ChangedMeanwhile();
}

Status DeleteConversationProposals(store::Database& db, std::string_view conversation_id) {
  return db.Exec("DELETE FROM assistant_proposals WHERE conversation_id = $1",
                 {Value(std::string(conversation_id))});
}

Result<std::vector<UndoItem>> MarkUndone(store::Database& db, std::string_view account_id,
                                         std::string_view proposal_id,
                                         const std::optional<std::vector<std::string>>& call_ids,
                                         int64_t now) {
  return MarkUndoState(db, account_id, proposal_id, call_ids, now, UndoDirection::kUndo);
}

Result<std::vector<UndoItem>> MarkRedone(store::Database& db, std::string_view account_id,
                                         std::string_view proposal_id,
                                         const std::optional<std::vector<std::string>>& call_ids,
                                         int64_t now) {
  return MarkUndoState(db, account_id, proposal_id, call_ids, now, UndoDirection::kRedo);
}

Status SetUndoEntry(store::Database& db, std::string_view proposal_id, std::string_view call_id,
                    json undo, int64_t now) {
  ENSEMBLE_ASSIGN_OR_RETURN(Proposal p, Load(db, proposal_id));
  std::vector<CallReceipt> receipts = p.receipts;
  auto it = std::find_if(receipts.begin(), receipts.end(),
                         [&](const CallReceipt& r) { return r.call_id == call_id; });
  if (it == receipts.end()) return Status(codes::kNotFound, "no receipt for that call");
  if (it->outcome != CallOutcome::kSucceeded) {
    return Status(codes::kFailedPrecondition, "only a call that succeeded has an undo entry");
  }
  it->undo = std::move(undo);
  ENSEMBLE_ASSIGN_OR_RETURN(bool written, WriteIfUnchanged(db, p, p.state, receipts, now));
  return written ? Status::Ok() : ChangedMeanwhile();
}

}  // namespace ensemble::core::assistant
