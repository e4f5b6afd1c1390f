#include "core/assistant/conversation_store.h"

#include <algorithm>
#include <utility>

#include "core/assistant/proposal_store.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"

namespace ensemble::core::assistant {

using nlohmann::json;
using store::AsInt;
using store::AsText;
using store::Value;

// The version is assigned in the hub's list (core/hub/hub.cc), append only.
const store::Migration kCreateConversationTables = {
    9, "create assistant conversations and messages",
    "CREATE TABLE assistant_conversations ("
    " id TEXT PRIMARY KEY, space_id TEXT NOT NULL, account_id TEXT NOT NULL,"
    " title TEXT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL);"
    "CREATE INDEX assistant_conversations_account"
    " ON assistant_conversations (account_id, space_id, updated_at);"
    "CREATE TABLE assistant_messages ("
    " id TEXT PRIMARY KEY,"
    " conversation_id TEXT NOT NULL REFERENCES assistant_conversations (id) ON DELETE CASCADE,"
    " seq BIGINT NOT NULL, role TEXT NOT NULL, text TEXT NOT NULL,"
    " mentions TEXT NOT NULL, tool_calls TEXT NOT NULL, status TEXT NOT NULL,"
    " error_code TEXT NOT NULL, created_at BIGINT NOT NULL,"
    " UNIQUE (conversation_id, seq));"};

namespace {

// A routine's conversation names its routine (routine_runs), so the app
// shows a routine's replies by id, whatever the routine is called now.
constexpr char kConversationColumns[] =
    "c.id, c.space_id, c.account_id, c.title, c.created_at, c.updated_at,"
    " COALESCE(r.routine_id, '')";
constexpr char kConversationFrom[] =
    " FROM assistant_conversations c LEFT JOIN routine_runs r ON r.conversation_id = c.id";
constexpr char kMessageColumns[] =
    "id, conversation_id, seq, role, text, mentions, tool_calls, status, error_code, created_at,"
    " usage_prompt_tokens, usage_completion_tokens, usage_cached_tokens";

Conversation ConversationFromRow(const std::vector<Value>& row) {
  return Conversation{AsText(row[0]), AsText(row[1]), AsText(row[2]), AsText(row[3]),
                      AsInt(row[4]),  AsInt(row[5]),  AsText(row[6])};
}

// Saved columns are written only by this file, so a parse failure means the
// row was edited by hand: show what can be shown rather than failing the list.
json ParseSavedArray(const std::string& text) {
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
  return value.is_array() ? value : json::array();
}

MessageRole ParseRole(std::string_view name) {
  return name == "assistant" ? MessageRole::kAssistant : MessageRole::kUser;
}

MessageStatus ParseStatus(std::string_view name) {
  if (name == "error") return MessageStatus::kError;
  if (name == "stopped") return MessageStatus::kStopped;
  return MessageStatus::kOk;
}

StoredMessage MessageFromRow(const std::vector<Value>& row) {
  StoredMessage m;
  m.id = AsText(row[0]);
  m.conversation_id = AsText(row[1]);
  m.seq = AsInt(row[2]);
  m.role = ParseRole(AsText(row[3]));
  m.text = AsText(row[4]);
  m.mentions = ParseSavedArray(AsText(row[5]));
  m.tool_calls = ParseSavedArray(AsText(row[6]));
  m.status = ParseStatus(AsText(row[7]));
  m.error_code = AsText(row[8]);
  m.created_at = AsInt(row[9]);
  m.usage = {AsInt(row[10]), AsInt(row[11]), AsInt(row[12])};
  return m;
}

// Checks what a caller may hand in, and keeps at most kMaxSavedMentions.
Status CheckMessage(StoredMessage& message) {
  if (!text::IsValidUtf8(message.text)) {
    return Status(codes::kInvalidArgument, "the message is not valid UTF-8");
  }
  if (text::CountCodePoints(message.text) > kMaxMessageChars) {
    return Status(codes::kInvalidArgument,
                  "a message has at most " + text::FormatCount(kMaxMessageChars) + " characters");
  }
  if (!message.mentions.is_array() || !message.tool_calls.is_array()) {
    return Status(codes::kInvalidArgument, "mentions and tool calls must be lists");
  }
  if (message.mentions.size() > kMaxSavedMentions) {
    message.mentions.erase(message.mentions.begin() + kMaxSavedMentions, message.mentions.end());
  }
  return Status::Ok();
}

Status NotFound() { return Status(codes::kNotFound, "no such conversation"); }

}  // namespace

std::string_view MessageRoleName(MessageRole role) {
  return role == MessageRole::kAssistant ? "assistant" : "user";
}

std::string_view MessageStatusName(MessageStatus status) {
  switch (status) {
    case MessageStatus::kError:
      return "error";
    case MessageStatus::kStopped:
      return "stopped";
    case MessageStatus::kOk:
      break;
  }
  return "ok";
}

Result<Conversation> CreateConversation(store::Database& db, std::string id, std::string space_id,
                                        std::string account_id, std::string_view title,
                                        int64_t now) {
  if (!text::IsValidUtf8(title)) {
    return Status(codes::kInvalidArgument, "the title is not valid UTF-8");
  }
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows count,
      db.Query("SELECT COUNT(*) FROM assistant_conversations WHERE account_id = $1",
               {Value(account_id)}));
  if (static_cast<size_t>(store::AsInt(count.rows[0][0])) >= kMaxConversationsPerAccount) {
    return Status(codes::kLimitReached, "you keep " + std::to_string(kMaxConversationsPerAccount) +
                                            " conversations already: delete some to start another");
  }
  Conversation c{std::move(id),
                 std::move(space_id),
                 std::move(account_id),
                 text::TruncateChars(text::Trim(title), kMaxConversationTitleChars),
                 now,
                 now,
                 /*routine_id=*/{}};
  ENSEMBLE_RETURN_IF_ERROR(
      db.Exec("INSERT INTO assistant_conversations (id, space_id, account_id, title, created_at,"
              " updated_at) VALUES ($1, $2, $3, $4, $5, $6)",
              {Value(c.id), Value(c.space_id), Value(c.account_id), Value(c.title),
               Value(c.created_at), Value(c.updated_at)}));
  return c;
}

Result<Conversation> GetConversation(store::Database& db, std::string_view account_id,
                                     std::string_view conversation_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query(std::string("SELECT ") + kConversationColumns + kConversationFrom +
                   " WHERE c.id = $1 AND c.account_id = $2",
               {Value(std::string(conversation_id)), Value(std::string(account_id))}));
  if (rows.empty()) return NotFound();
  return ConversationFromRow(rows.rows[0]);
}

Result<std::vector<Conversation>> ListConversations(store::Database& db,
                                                    std::string_view account_id,
                                                    std::string_view space_id, size_t limit) {
  limit = std::min(limit, kMaxConversationsListed);
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows, db.Query(std::string("SELECT ") + kConversationColumns + kConversationFrom +
                                     " WHERE c.account_id = $1 AND c.space_id = $2"
                                     " ORDER BY c.updated_at DESC, c.id DESC LIMIT $3",
                                 {Value(std::string(account_id)), Value(std::string(space_id)),
                                  Value(static_cast<int64_t>(limit))}));
  std::vector<Conversation> out;
  out.reserve(rows.size());
  for (const auto& row : rows.rows) out.push_back(ConversationFromRow(row));
  return out;
}

Status DeleteConversation(store::Database& db, std::string_view account_id,
                          std::string_view conversation_id) {
  store::Transaction txn(db);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  ENSEMBLE_RETURN_IF_ERROR(GetConversation(db, account_id, conversation_id).status());
  // Proposals and messages first: SQLite enforces ON DELETE CASCADE only with
  // foreign keys on.
  ENSEMBLE_RETURN_IF_ERROR(DeleteConversationProposals(db, conversation_id));
  ENSEMBLE_RETURN_IF_ERROR(db.Exec("DELETE FROM assistant_messages WHERE conversation_id = $1",
                                   {Value(std::string(conversation_id))}));
  ENSEMBLE_RETURN_IF_ERROR(db.Exec("DELETE FROM assistant_conversations WHERE id = $1",
                                   {Value(std::string(conversation_id))}));
  return txn.Commit();
}

Result<StoredMessage> AppendMessage(store::Database& db, StoredMessage message) {
  ENSEMBLE_RETURN_IF_ERROR(CheckMessage(message));
  store::Transaction txn(db);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  // The (conversation_id, seq) key makes two writers racing for one seq fail
  // rather than interleave; a conversation has one turn at a time anyway.
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT COALESCE(MAX(seq), 0) FROM assistant_messages WHERE conversation_id = $1",
               {Value(message.conversation_id)}));
  message.seq = AsInt(rows.rows.at(0).at(0)) + 1;
  ENSEMBLE_RETURN_IF_ERROR(
      db.Exec(std::string("INSERT INTO assistant_messages (") + kMessageColumns +
                  ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
              {Value(message.id), Value(message.conversation_id), Value(message.seq),
               Value(std::string(MessageRoleName(message.role))), Value(message.text),
               Value(text::DumpJson(message.mentions)), Value(text::DumpJson(message.tool_calls)),
               Value(std::string(MessageStatusName(message.status))), Value(message.error_code),
               Value(message.created_at), Value(message.usage.prompt_tokens),
               Value(message.usage.completion_tokens), Value(message.usage.cached_tokens)}));
  ENSEMBLE_RETURN_IF_ERROR(db.Exec(
      "UPDATE assistant_conversations SET updated_at = $2 WHERE id = $1 AND updated_at < $2",
      {Value(message.conversation_id), Value(message.created_at)}));
  ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
  return message;
}

Status UpdateMessage(store::Database& db, const StoredMessage& message) {
  StoredMessage checked = message;
  ENSEMBLE_RETURN_IF_ERROR(CheckMessage(checked));
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("UPDATE assistant_messages SET text = $2, mentions = $3, tool_calls = $4,"
               " status = $5, error_code = $6, usage_prompt_tokens = $7,"
               " usage_completion_tokens = $8, usage_cached_tokens = $9 WHERE id = $1 RETURNING id",
               {Value(checked.id), Value(checked.text), Value(text::DumpJson(checked.mentions)),
                Value(text::DumpJson(checked.tool_calls)),
                Value(std::string(MessageStatusName(checked.status))), Value(checked.error_code),
                Value(checked.usage.prompt_tokens), Value(checked.usage.completion_tokens),
                Value(checked.usage.cached_tokens)}));
  if (rows.empty()) return Status(codes::kNotFound, "no such message");
  return Status::Ok();
}

Result<std::vector<StoredMessage>> ListMessages(store::Database& db,
                                                std::string_view conversation_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query(std::string("SELECT ") + kMessageColumns +
                   " FROM assistant_messages WHERE conversation_id = $1 ORDER BY seq",
               {Value(std::string(conversation_id))}));
  std::vector<StoredMessage> out;
  out.reserve(rows.size());
  for (const auto& row : rows.rows) out.push_back(MessageFromRow(row));
  return out;
}

Result<std::vector<StoredMessage>> LoadHistory(store::Database& db,
                                               std::string_view conversation_id) {
  // The same filter as History(), newest first through the
  // (conversation_id, seq) index, so only the kept rows are read and parsed.
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query(std::string("SELECT ") + kMessageColumns +
                   " FROM assistant_messages WHERE conversation_id = $1"
                   " AND NOT (role = 'assistant' AND status IN ('error', 'stopped'))"
                   " ORDER BY seq DESC LIMIT $2",
               {Value(std::string(conversation_id)), Value(int64_t{kHistoryMessages})}));
  std::vector<StoredMessage> out;
  out.reserve(rows.size());
  for (auto it = rows.rows.rbegin(); it != rows.rows.rend(); ++it) {
    out.push_back(MessageFromRow(*it));
  }
  return out;
}

std::vector<StoredMessage> History(std::span<const StoredMessage> messages) {
  // Filter first, then take the last 12: a failed turn does not cost the
  // model one of the messages it would otherwise see.
  std::vector<StoredMessage> kept;
  for (const StoredMessage& m : messages) {
    if (m.role == MessageRole::kAssistant && m.status != MessageStatus::kOk) continue;
    kept.push_back(m);
  }
  if (kept.size() > kHistoryMessages) {
    kept.erase(kept.begin(), kept.end() - kHistoryMessages);
  }
  return kept;
}

}  // namespace ensemble::core::assistant
