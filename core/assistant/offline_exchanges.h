// Offline exchanges: what the person asked the built-in planner while their
// browser could not reach the server (local_turn.h) and what it answered,
// uploaded once the server is back so the conversation keeps them, and the
// model later sees them in its history like any other exchange. Their
// writes are not here: those went to the device's outbox and sync on their
// own.
//
// An upload is {"exchanges": [{"id", "message", "reply", "at", "calls"?:
// [{"id", "name", "state": "succeeded" | "failed" | "held", "summary"?}]}]}.
// The exchange id is the device's (a record id, core/base/id.h) and makes
// the upload idempotent: each exchange is saved as two messages whose ids
// derive from it, so an upload retried after a lost answer saves nothing
// twice.
//
// Thread-safety: stateless functions of the Database given.

#ifndef ENSEMBLE_CORE_ASSISTANT_OFFLINE_EXCHANGES_H_
#define ENSEMBLE_CORE_ASSISTANT_OFFLINE_EXCHANGES_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"

namespace ensemble::core::assistant {

// One upload carries at most this many exchanges (a device keeps what did
// not fit and sends it next).
inline constexpr size_t kMaxOfflineExchanges = 50;
// A planner turn makes a few calls per step (local_planner.h); more than
// this is not one of its turns.
inline constexpr size_t kMaxOfflineExchangeCalls = 24;
// A call's summary or failure, as the chat shows it.
inline constexpr size_t kMaxOfflineCallTextChars = 2000;

struct OfflineCall {
  std::string id;
  std::string name;
  std::string state;    // "succeeded" | "failed" | "held".
  std::string summary;  // What it did, why it failed, or the draft's preview.
};

struct OfflineExchange {
  std::string id;
  std::string message;  // The person's words.
  std::string reply;    // The planner's answer.
  int64_t at = 0;       // When it was asked, milliseconds since the epoch.
  std::vector<OfflineCall> calls;
};

// Reads an upload. INVALID_ARGUMENT naming the first bad field (an unknown
// key, a missing or mistyped value, an id that is not a record id, text
// over kMaxMessageChars, too many exchanges or calls), before anything is
// saved.
Result<std::vector<OfflineExchange>> ParseOfflineExchanges(const nlohmann::json& body);

// Saves each exchange not saved before at the end of the conversation (the
// person's message, then the reply), in order, in one transaction; returns
// how many were new. The caller has checked the conversation is the
// account's. A time after `now` is saved as `now`.
Result<size_t> SaveOfflineExchanges(store::Database& db, std::string_view conversation_id,
                                    const std::vector<OfflineExchange>& exchanges, int64_t now);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_OFFLINE_EXCHANGES_H_
