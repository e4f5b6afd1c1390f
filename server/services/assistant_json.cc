#include "server/services/assistant_json.h"

#include <optional>

#include "core/assistant/answer_check.h"
#include "core/context/surface_tool_run.h"
#include "core/sync/authorization.h"
#include "core/text/utf8.h"

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
  if (!body.is_object()) {
    return Status(codes::kInvalidArgument, "the body must be an object with text");
  }
  PostedMessage out;
  for (const auto& [key, value] : body.items()) {
    if (key == "text") {
      if (!value.is_string()) return Status(codes::kInvalidArgument, "text must be a string");
      out.text = value.get<std::string>();
    } else if (key == "mentions") {
      if (value.is_null()) continue;
      if (!value.is_array() || value.size() > kMaxPostedMentions) {
        return Status(codes::kInvalidArgument,
                      "mentions must be a list of at most " + std::to_string(kMaxPostedMentions));
      }
      for (const json& m : value) {
        if (!m.is_object() || !m.contains("kind") || !m["kind"].is_string() || !m.contains("id") ||
            !m["id"].is_string() || (m.contains("label") && !m["label"].is_string())) {
          return Status(codes::kInvalidArgument,
                        "each mention must be {kind, id, label} with string values");
        }
        out.mentions.push_back(
            {{"kind", m["kind"]}, {"id", m["id"]}, {"label", m.value("label", "")}});
      }
    } else if (key == "surface") {
      ENSEMBLE_ASSIGN_OR_RETURN(out.surface, core::context::CheckSurface(value));
      if (out.surface.is_object()) out.open_path = out.surface.value("path", "");
    } else if (key == "verify") {
      if (value.is_null()) continue;
      ENSEMBLE_ASSIGN_OR_RETURN(out.checklist, core::assistant::ParseVerifyHook(value));
    } else {
      return Status(codes::kInvalidArgument, "unknown field " + key);
    }
  }
  if (core::text::Trim(out.text).empty()) {
    return Status(codes::kInvalidArgument, "text is required");
  }
  if (core::text::CountCodePoints(out.text) > core::assistant::kMaxMessageChars) {
    return Status(codes::kInvalidArgument, "a message has at most " +
                                               std::to_string(core::assistant::kMaxMessageChars) +
                                               " characters");
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
