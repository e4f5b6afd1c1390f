// The assistant routes' JSON: conversations and messages as the API shows
// them, the body of a posted message, and the space check every
// conversation route makes.
//
// Thread-safety: stateless functions (CheckSpaceAccess uses the Database
// given).

#ifndef ENSEMBLE_SERVER_SERVICES_ASSISTANT_JSON_H_
#define ENSEMBLE_SERVER_SERVICES_ASSISTANT_JSON_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/assistant/conversation_store.h"
#include "core/assistant/instructions.h"
#include "core/assistant/proposal_store.h"
#include "core/base/status.h"
#include "core/store/database.h"
#include "server/services/auth_service.h"

namespace ensemble::server::services {

// Mentions one message may carry (the dock's chips); more is not a request.
inline constexpr size_t kMaxPostedMentions = 60;

// {id, spaceId, title, createdAt, updatedAt}.
nlohmann::json ConversationJson(const core::assistant::Conversation& conversation);
// {id, conversationId, seq, role, text, mentions, toolCalls, status,
//  errorCode?, createdAt, usage? (a reply's: {promptTokens,
//  completionTokens, cachedTokens}, as its `done` frame said)}.
nlohmann::json MessageJson(const core::assistant::StoredMessage& message);
// {proposalId, state, receipts: [{callId, tool, outcome: "pending" |
// "running" | "succeeded" | "failed" | "unattempted" | "interrupted",
// summary?, error?: {code, message}, steps?, undoable?, undone?}]}: what
// Apply, Undo and Redo answer, and a reply's `proposal` in the messages list.
nlohmann::json ProposalJson(const core::assistant::Proposal& proposal);
// {conversationId, messageId, createdAt, calls: [{callId, tool, summary}]}.
nlohmann::json ApprovalJson(const core::assistant::Approval& approval);

// A posted message's body.
struct PostedMessage {
  std::string text;
  nlohmann::json mentions = nlohmann::json::array();  // [{kind, id, label}]
  std::string open_path;                              // surface.path, for routing.
  // The surface as core::context::CheckSurface normalized it (null: none).
  nlohmann::json surface;
  // The surface's verify hook, `verify: {"checklist": [...]}`
  // (core/assistant/answer_check.h); empty: none.
  std::vector<std::string> checklist;
};

// INVALID_ARGUMENT naming the field for a body that is not
// {text, mentions?, surface?, verify?}. The write policy is the person's saved
// setting (GET /api/settings), never a field of the message.
core::Result<PostedMessage> ParsePostedMessage(const nlohmann::json& body);

// OK when `caller` may use `space_id`: always in local mode; in accounts mode
// when the account is a member (NOT_FOUND otherwise, never FORBIDDEN).
core::Status CheckSpaceAccess(core::store::Database& db, const Caller& caller,
                              const std::string& space_id);

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_ASSISTANT_JSON_H_
