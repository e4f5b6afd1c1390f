// Conversations and their messages, as the server saves them: one row per
// conversation (owned by one account, in one space) and one per message, the
// person's and the assistant's, in order.
//
// A conversation is private to the account that started it: every read and
// write names the account, and another account's conversation is answered as
// NOT_FOUND (never FORBIDDEN, which would confirm that the id exists).
// Messages are saved as written, with the mentions the person made (or, on a
// reply, the records it names by id) and the reply's tool calls with their
// receipts; error and stopped turns are saved too, and History() leaves them
// out of what the model is shown as answers.
//
// Thread-safety: functions of a Database, which is used from one thread at a
// time; History() is pure.

#ifndef ENSEMBLE_CORE_ASSISTANT_CONVERSATION_STORE_H_
#define ENSEMBLE_CORE_ASSISTANT_CONVERSATION_STORE_H_

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

// The model sees the conversation's last 12 messages (spec §3, History).
inline constexpr size_t kHistoryMessages = 12;
// A reply saves at most 60 records it names by id (spec §4.1).
inline constexpr size_t kMaxSavedMentions = 60;
// A message is a request or a reply, not a document; pasted documents go in
// as files.
inline constexpr size_t kMaxMessageChars = 32000;
inline constexpr size_t kMaxConversationTitleChars = 120;
// One page of a conversation list.
inline constexpr size_t kMaxConversationsListed = 100;
// Conversations one account keeps (deleting one makes room): bounds what one
// person stores, far above everyday use.
inline constexpr size_t kMaxConversationsPerAccount = 10000;

// The assistant_conversations and assistant_messages tables.
extern const store::Migration kCreateConversationTables;

struct Conversation {
  std::string id;
  std::string space_id;
  std::string account_id;
  std::string title;
  int64_t created_at = 0;  // Milliseconds since the epoch.
  int64_t updated_at = 0;  // The last message's time.
  // The routine whose replies it holds (routine_runs), or "" for a chat.
  std::string routine_id;
};

enum class MessageRole { kUser, kAssistant };
// kError: the turn failed (no valid final answer); kStopped: the person
// stopped it. Both are saved so the chat can show them, with Retry.
enum class MessageStatus { kOk, kError, kStopped };

std::string_view MessageRoleName(MessageRole role);
std::string_view MessageStatusName(MessageStatus status);

// A reply's model tokens, as the turn's `done` frame reported them (a
// stopped or failed turn keeps what was known when it ended).
struct MessageUsage {
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  int64_t cached_tokens = 0;

  bool operator==(const MessageUsage&) const = default;
};

struct StoredMessage {
  std::string id;
  std::string conversation_id;
  int64_t seq = 0;  // 1, 2, ... within the conversation; set by AppendMessage.
  MessageRole role = MessageRole::kUser;
  std::string text;
  nlohmann::json mentions = nlohmann::json::array();    // [{kind, id, label}]
  nlohmann::json tool_calls = nlohmann::json::array();  // Calls with receipts.
  MessageStatus status = MessageStatus::kOk;
  std::string error_code;  // Empty unless status is kError.
  int64_t created_at = 0;
  MessageUsage usage;  // Zero for the person's messages.
};

// Starts a conversation for `account_id` in `space_id`. The title is trimmed
// and cut to kMaxConversationTitleChars (whole UTF-8 characters).
// LIMIT_REACHED when the account keeps kMaxConversationsPerAccount already.
Result<Conversation> CreateConversation(store::Database& db, std::string id, std::string space_id,
                                        std::string account_id, std::string_view title,
                                        int64_t now);

// The account's conversation, or NOT_FOUND when it does not exist or is not
// the account's.
Result<Conversation> GetConversation(store::Database& db, std::string_view account_id,
                                     std::string_view conversation_id);

// The account's conversations in the space, most recently active first, at
// most `limit` (capped at kMaxConversationsListed).
Result<std::vector<Conversation>> ListConversations(store::Database& db,
                                                    std::string_view account_id,
                                                    std::string_view space_id,
                                                    size_t limit = kMaxConversationsListed);

// Deletes the conversation, its messages and their proposals (NOT_FOUND as
// GetConversation).
Status DeleteConversation(store::Database& db, std::string_view account_id,
                          std::string_view conversation_id);

// Saves `message` as the conversation's next one and returns it with its seq.
// Refuses (INVALID_ARGUMENT) text over kMaxMessageChars and mentions that are
// not an array; keeps at most kMaxSavedMentions mentions. The caller has
// checked that the conversation is the account's.
Result<StoredMessage> AppendMessage(store::Database& db, StoredMessage message);

// Replaces a saved message's text, tool calls, status, mentions and usage: a
// turn saves its reply once when it starts and again as it ends.
Status UpdateMessage(store::Database& db, const StoredMessage& message);

// Every message of the conversation, oldest first.
Result<std::vector<StoredMessage>> ListMessages(store::Database& db,
                                                std::string_view conversation_id);

// What the model is shown of `messages` (oldest first): the last
// kHistoryMessages, as written, without the assistant's error and stopped
// turns (they are never replayed as answers).
std::vector<StoredMessage> History(std::span<const StoredMessage> messages);

// History() of the whole conversation, read from the store without loading
// the rest of it: a turn's cost must not grow with the conversation.
Result<std::vector<StoredMessage>> LoadHistory(store::Database& db,
                                               std::string_view conversation_id);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_CONVERSATION_STORE_H_
