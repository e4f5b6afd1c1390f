#include "server/services/assistant_json.h"

#include <optional>

#include "core/assistant/answer_check.h"
#include "core/context/surface_tool_run.h"
#include "core/sync/authorization.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "server/services/json_route.h"

namespace ensemble::server::services {

namespace codes = core::codes;
using core::Status;
using nlohmann::json;

json ConversationJson(const core::assistant::Conversation& c) {
  json out = {{"id", c.id},
              {"spaceId", c.space_id},
              {"title", c.title},
              {"createdAt", c.created_at},
              {"updatedAt", c.updated_at}};
  if (!c.routine_id.empty()) out["routineId"] = c.routine_id;
  return out;
}

json MessageJson(const core::assistant::StoredMessage& m) {
  json out = {{"id", m.id},
              {"conversationId", m.conversation_id},
              {"seq", m.seq},
              {"role", core::assistant::MessageRoleName(m.role)},
              {"text", m.text},
              {"mentions", m.mentions},
              {"toolCalls", m.tool_calls},
              {"status", core::assistant::MessageStatusName(m.status)},
              {"createdAt", m.created_at}};
  if (!m.error_code.empty()) out["errorCode"] = m.error_code;
  if (m.role == core::assistant::MessageRole::kAssistant) {
    out["usage"] = {{"promptTokens", m.usage.prompt_tokens},
                    {"completionTokens", m.usage.completion_tokens},
                    {"cachedTokens", m.usage.cached_tokens}};
  }
  return out;
}

json ProposalJson(const core::assistant::Proposal& proposal) {
  json receipts = json::array();
  for (const core::assistant::ProposedCall& call : proposal.calls) {
    json r = {{"callId", call.call_id}, {"tool", call.tool}};
    const core::assistant::CallReceipt* receipt = proposal.Receipt(call.call_id);
    if (!receipt) {
      r["outcome"] = "pending";
    } else {
      r["outcome"] = core::assistant::CallOutcomeName(receipt->outcome);
      if (!receipt->summary.empty()) r["summary"] = receipt->summary;
      if (!receipt->error_code.empty()) {
        r["error"] = {{"code", receipt->error_code}, {"message", receipt->error_message}};
      }
      if (!receipt->steps.is_null()) r["steps"] = receipt->steps;
      r["undoable"] = !receipt->undo.is_null();
      r["undone"] = receipt->undone;
    }
    receipts.push_back(std::move(r));
  }
  return {{"proposalId", proposal.id},
          {"state", core::assistant::ProposalStateName(proposal.state)},
          {"receipts", std::move(receipts)}};
}

json ApprovalJson(const core::assistant::Approval& a) {
  json calls = json::array();
  for (const auto& c : a.calls) {
    calls.push_back({{"callId", c.call_id}, {"tool", c.tool}, {"summary", c.summary}});
  }
  return {{"conversationId", a.conversation_id},
          {"messageId", a.message_id},
          {"createdAt", a.created_at},
          {"calls", std::move(calls)}};
}

core::Result<PostedMessage> ParsePostedMessage(const json& body) {
  ENSEMBLE_RETURN_IF_ERROR(
      kBodyFields.CheckKnownKeys(body, "the body", {"text", "mentions", "surface", "verify"}));
  PostedMessage out;
  ENSEMBLE_RETURN_IF_ERROR(kBodyFields.ReadText(
      body, "text", "", {.max_chars = core::assistant::kMaxMessageChars}, &out.text));
  if (core::text::Trim(out.text).empty()) return kBodyFields.Invalid("text is required");
  if (auto it = body.find("mentions"); it != body.end() && !it->is_null()) {
    if (!it->is_array() || it->size() > kMaxPostedMentions) {
      return kBodyFields.Invalid("mentions must be a list of at most " +
                                 std::to_string(kMaxPostedMentions));
    }
    for (size_t i = 0; i < it->size(); ++i) {
      const json& m = (*it)[i];
      const std::string where = "mentions[" + std::to_string(i) + "]";
      // Other keys a client keeps on a mention (the menu's own) are ignored.
      if (!m.is_object()) return kBodyFields.Invalid(where + " must be an object");
      std::string kind, id, label;
      ENSEMBLE_RETURN_IF_ERROR(kBodyFields.ReadText(m, "kind", where, {}, &kind));
      ENSEMBLE_RETURN_IF_ERROR(kBodyFields.ReadText(m, "id", where, {}, &id));
      ENSEMBLE_RETURN_IF_ERROR(
          kBodyFields.ReadText(m, "label", where, {.required = false}, &label));
      out.mentions.push_back(
          {{"kind", std::move(kind)}, {"id", std::move(id)}, {"label", std::move(label)}});
    }
  }
  if (auto it = body.find("surface"); it != body.end()) {
    ENSEMBLE_ASSIGN_OR_RETURN(out.surface, core::context::CheckSurface(*it));
    if (out.surface.is_object()) out.open_path = out.surface.value("path", "");
  }
  if (auto it = body.find("verify"); it != body.end() && !it->is_null()) {
    ENSEMBLE_ASSIGN_OR_RETURN(out.checklist, core::assistant::ParseVerifyHook(*it));
  }
  return out;
}

Status CheckSpaceAccess(core::store::Database& db, const Caller& caller,
                        const std::string& space_id) {
  if (caller.local) return Status();
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<core::sync::Role> role,
                            core::sync::RoleIn(db, space_id, caller.account_id));
  if (!role) return Status(codes::kNotFound, "no space with this id");
  return Status();
}

}  // namespace ensemble::server::services
