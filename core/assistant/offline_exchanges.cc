#include "core/assistant/offline_exchanges.h"

#include <algorithm>
#include <utility>

#include "core/assistant/conversation_store.h"
#include "core/base/id.h"
#include "core/text/json_fields.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;
using store::Value;

// A call's id and tool name are short identifiers, never text.
constexpr size_t kMaxCallIdChars = 64;

// An upload's errors name the field (`exchanges[0].message`) with no prefix.
constexpr text::JsonFields kUploadFields;

bool IsCallIdentifier(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

Result<OfflineCall> ReadCall(const json& in, const std::string& where) {
  ENSEMBLE_RETURN_IF_ERROR(
      kUploadFields.CheckKnownKeys(in, where, {"id", "name", "state", "summary"}));
  OfflineCall call;
  ENSEMBLE_RETURN_IF_ERROR(
      kUploadFields.ReadText(in, "id", where, {.max_chars = kMaxCallIdChars}, &call.id));
  ENSEMBLE_RETURN_IF_ERROR(
      kUploadFields.ReadText(in, "name", where, {.max_chars = kMaxCallIdChars}, &call.name));
  if (!IsCallIdentifier(call.id))
    return InvalidArgument(where + ".id must be lower-case letters, digits and _");
  if (!IsCallIdentifier(call.name)) return InvalidArgument(where + ".name is not a tool name");
  ENSEMBLE_RETURN_IF_ERROR(
      kUploadFields.ReadText(in, "state", where, {.max_chars = kMaxCallIdChars}, &call.state));
  if (call.state != "succeeded" && call.state != "failed" && call.state != "held") {
    return InvalidArgument(where + ".state must be succeeded, failed or held");
  }
  ENSEMBLE_RETURN_IF_ERROR(kUploadFields.ReadText(
      in, "summary", where, {.required = false, .max_chars = kMaxOfflineCallTextChars},
      &call.summary));
  return call;
}

Result<OfflineExchange> ReadExchange(const json& in, const std::string& where) {
  ENSEMBLE_RETURN_IF_ERROR(
      kUploadFields.CheckKnownKeys(in, where, {"id", "message", "reply", "at", "calls"}));
  OfflineExchange exchange;
  ENSEMBLE_RETURN_IF_ERROR(
      kUploadFields.ReadText(in, "id", where, {.max_chars = kIdLength}, &exchange.id));
  if (!IsValidId(exchange.id)) return InvalidArgument(where + ".id is not a record id");
  ENSEMBLE_RETURN_IF_ERROR(kUploadFields.ReadText(
      in, "message", where, {.allow_empty = false, .max_chars = kMaxMessageChars},
      &exchange.message));
  ENSEMBLE_RETURN_IF_ERROR(
      kUploadFields.ReadText(in, "reply", where, {.max_chars = kMaxMessageChars}, &exchange.reply));
  const auto at = in.find("at");
  if (at == in.end() || !at->is_number_integer() || at->get<int64_t>() < 0) {
    return InvalidArgument(where + ".at must be a time in milliseconds");
  }
  exchange.at = at->get<int64_t>();
  if (const auto calls = in.find("calls"); calls != in.end()) {
    if (!calls->is_array()) return InvalidArgument(where + ".calls must be a list");
    if (calls->size() > kMaxOfflineExchangeCalls) {
      return InvalidArgument(where + ".calls has more than " +
                             std::to_string(kMaxOfflineExchangeCalls) + " calls");
    }
    for (size_t i = 0; i < calls->size(); ++i) {
      ENSEMBLE_ASSIGN_OR_RETURN(OfflineCall call,
                                ReadCall((*calls)[i], where + ".calls[" + std::to_string(i) + "]"));
      exchange.calls.push_back(std::move(call));
    }
  }
  return exchange;
}

// The calls as a reply saves them (server/assistant/turn_driver.cc): a held
// call was a draft on the device, shown as waiting there.
json ToolCallsJson(const std::vector<OfflineCall>& calls) {
  json out = json::array();
  for (const OfflineCall& call : calls) {
    json receipt;
    if (call.state == "failed") {
      receipt = {{"state", "failed"}, {"error", {{"message", call.summary}}}};
    } else {
      receipt = {{"state", call.state == "held" ? "proposed" : "succeeded"},
                 {"summary", call.summary}};
    }
    out.push_back({{"id", call.id}, {"name", call.name}, {"receipt", std::move(receipt)}});
  }
  return out;
}

}  // namespace

Result<std::vector<OfflineExchange>> ParseOfflineExchanges(const json& body) {
  ENSEMBLE_RETURN_IF_ERROR(kUploadFields.CheckKnownKeys(body, "the body", {"exchanges"}));
  const auto list = body.find("exchanges");
  if (list == body.end() || !list->is_array()) {
    return InvalidArgument("exchanges is required and must be a list");
  }
  if (list->size() > kMaxOfflineExchanges) {
    return InvalidArgument("an upload has at most " + std::to_string(kMaxOfflineExchanges) +
                           " exchanges");
  }
  std::vector<OfflineExchange> out;
  out.reserve(list->size());
  for (size_t i = 0; i < list->size(); ++i) {
    ENSEMBLE_ASSIGN_OR_RETURN(OfflineExchange exchange,
                              ReadExchange((*list)[i], "exchanges[" + std::to_string(i) + "]"));
    out.push_back(std::move(exchange));
  }
  return out;
}

Result<size_t> SaveOfflineExchanges(store::Database& db, std::string_view conversation_id,
                                    const std::vector<OfflineExchange>& exchanges, int64_t now) {
  store::Transaction txn(db);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  size_t saved = 0;
  for (const OfflineExchange& exchange : exchanges) {
    StoredMessage asked;
    asked.id = DerivedId(exchange.id, "offline-message");
    // Saved before (this upload retried, or sent from another tab): skip.
    ENSEMBLE_ASSIGN_OR_RETURN(
        store::Rows seen,
        db.Query("SELECT 1 FROM assistant_messages WHERE id = $1", {Value(asked.id)}));
    if (!seen.empty()) continue;
    asked.conversation_id = std::string(conversation_id);
    asked.role = MessageRole::kUser;
    asked.text = exchange.message;
    asked.created_at = std::min(exchange.at, now);
    ENSEMBLE_RETURN_IF_ERROR(AppendMessage(db, asked).status());
    StoredMessage answered;
    answered.id = DerivedId(exchange.id, "offline-reply");
    answered.conversation_id = asked.conversation_id;
    answered.role = MessageRole::kAssistant;
    answered.text = exchange.reply;
    answered.tool_calls = ToolCallsJson(exchange.calls);
    answered.created_at = asked.created_at;
    ENSEMBLE_RETURN_IF_ERROR(AppendMessage(db, std::move(answered)).status());
    ++saved;
  }
  ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
  return saved;
}

}  // namespace ensemble::core::assistant
