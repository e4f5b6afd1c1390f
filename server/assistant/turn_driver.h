// TurnDriver: runs one assistant turn (spec 000 §1, §4, "Turn limits") and
// reports it as frames. With a model configured it drives the core's TurnLoop
// (core/assistant/turn_loop.h): each NextRequest goes to the provider through
// OpenAiClient, text deltas are forwarded as `text` frames the moment they are
// decoded, tool calls run (their `run` hook, on a store worker) or are held
// as proposals under the write policy, and the outcomes go back to the loop.
// With a checklist (the surface's verify hook) the answer is checked by the
// model, tools off and under the check's own limit (answer_check.h), and what
// it leaves out goes back to the model, at most kMaxVerifyRounds times.
// Without a model (ResolveModelCredentials found none) the core's local
// planner (core/assistant/local_planner.h) plays the model's part in the same
// shape: tool rows, proposals, then its reply.
//
// Frames (event name, then its JSON data):
//   refs      {"refs": [{kind, id, label}]}            before any text
//   text      {"text": delta}
//   tool      {"callId", "name", "phase": "started" | "status" | "ended",
//              "status"? (a status line), "receipt"? (ended: {state:
//              "succeeded" | "failed" | "proposed" | "answered", summary?,
//              error?: {code, message}})}
//   proposal  {"messageId", "callId", "name", "input", "preview"}
//   done      {"messageId", "status": "ok" | "stopped", "text", "usage":
//              {promptTokens, completionTokens, cachedTokens}, "mentions",
//              "timing": {modelMs (waiting for the model)}}
//   error     {"messageId", "code", "message", "usage"}   the turn failed
// The reply message (saved by the caller when the turn started) is updated
// as the turn ends: its text, tool calls with receipts, status ok / error
// (with its code) / stopped, and usage; its held calls are saved with it as
// its proposal (core/assistant/proposal_store.h), which POST
// /api/assistant/apply runs; it waits on Needs me under the needs-me policy,
// else in the chat. The local planner runs only tools the turn's routing
// allows (request.route.allowed_tools), as a model is offered no others. Writes that run at once go
// through ServerSync as the turn's account, each call in one transaction, and poke subscribers. A
// model call past its limit ends the turn with MODEL_TIMEOUT and the spec's message; text already
// streamed stays in the reply, with the message after it. Stop (or the person going away) closes
// the model stream and keeps what is known: usage, receipts and text.
//
// Thread-safety: Run runs on the server's single io thread (OpenAiClient's
// requirement); store work goes to the StorePool's workers.

#ifndef ENSEMBLE_SERVER_ASSISTANT_TURN_DRIVER_H_
#define ENSEMBLE_SERVER_ASSISTANT_TURN_DRIVER_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/accounts/account_settings.h"
#include "core/assistant/conversation_store.h"
#include "core/assistant/instructions.h"
#include "core/assistant/turn_loop.h"
#include "core/connections/connection.h"
#include "core/platform/env.h"
#include "core/playbooks/router.h"
#include "core/tools/tool_registry.h"
#include "server/connectors/link_reader.h"
#include "server/credentials/credential_store.h"
#include "server/events/poke_hub.h"
#include "server/metrics/metrics.h"
#include "server/model/openai_client.h"
#include "server/store/store_pool.h"

namespace ensemble::server::assistant {

// Sends one frame; never waits (SseChannel::Push).
using EmitFrame = std::function<void(std::string_view event, const nlohmann::json& data)>;
// Called on the io thread after a turn's write committed: pokes subscribers.
using OnCommit = std::function<void(const events::Poke& poke)>;

struct TurnRequest {
  std::string account_id;
  bool local = false;    // Local mode: the trusted local person.
  std::string space_id;  // The conversation's space: every tool reads in it.
  int64_t now_ms = 0;
  std::string message;                                // The person's text.
  core::playbooks::RouteRequest route;                // Built from the message (route_turn.h).
  nlohmann::json mentions = nlohmann::json::array();  // [{kind, id, label}]
  nlohmann::json surface;  // The open view (core/context/surface_tool_run.h); null: none.
  // The surface's verify hook (core/assistant/answer_check.h): what a
  // complete answer covers; empty: no check.
  std::vector<std::string> checklist;
  core::assistant::WritePolicy policy = core::assistant::WritePolicy::kImmediate;
  // The conversation's messages before this one, oldest first: at least
  // its History() (LoadHistory reads just that).
  std::vector<core::assistant::StoredMessage> earlier;
  core::assistant::StoredMessage reply;                      // Saved already; updated at the end.
  std::optional<credentials::ModelCredentials> credentials;  // None: local planner.
  // The saved reasoning effort (core/accounts/account_settings.h): kNoEffort
  // sends none; another is checked against the model before the first call.
  std::string effort = std::string(core::accounts::kNoEffort);
  std::string today;      // YYYY-MM-DD.
  std::string time_zone;  // IANA name.
  std::shared_ptr<model::StopSignal> stop;
  // When the server had the whole request: the done frame's timing.serverMs
  // is the time from here to the end of the turn, less the model's.
  std::chrono::steady_clock::time_point received{};
  // The apps the caller connected in this space (the instructions name
  // them), the reader the tools reach them with (may be null) and the
  // caller's own address (left out of the people an app brings in).
  std::vector<core::connections::Connection> connections;
  bool guest = false;  // A guest of the space: no app paragraph (spec 000 §3).
  connectors::LinkReader* app_reader = nullptr;
  std::string own_email;
};

class TurnDriver {
 public:
  // Everything given must outlive the driver (`model_connections` the
  // turns that use it).
  TurnDriver(store::StorePool& pool, core::platform::Logger& logger,
             std::chrono::milliseconds model_timeout, const core::playbooks::Router& router,
             const core::tools::ToolRegistry& registry, core::platform::Random* random,
             OnCommit on_commit = {}, model::ModelConnectionPool* model_connections = nullptr);

  // Runs the turn to its end, emitting frames, and saves the reply. Takes
  // `request` over (moved from).
  boost::asio::awaitable<void> Run(TurnRequest& request, const EmitFrame& emit);

  // Counts turns by outcome (ensemble_assistant_turns_total) and observes
  // model calls (ensemble_model_call_duration_seconds, and
  // ensemble_model_calls_total by result) in `registry`, which must outlive
  // the driver. Call before any turn.
  void set_metrics(metrics::Registry& registry) { metrics_ = &registry; }

 private:
  struct Turn;
  core::assistant::TurnSetup Setup(const Turn& turn) const;
  boost::asio::awaitable<void> RunWithModel(Turn& turn);
  boost::asio::awaitable<void> RunLocally(Turn& turn);
  // Runs a call's `run` hook on a store worker (FAILED_PRECONDITION "not
  // available yet" when the tool has none) and emits its tool rows.
  boost::asio::awaitable<core::Result<nlohmann::json>> RunTool(Turn& turn, const std::string& id,
                                                               const core::tools::ToolDef& tool,
                                                               const nlohmann::json& input);
  boost::asio::awaitable<core::Result<nlohmann::json>> RunHook(Turn& turn,
                                                               const core::tools::ToolDef& tool,
                                                               const nlohmann::json& input);
  // Prepares a held call, saves it on the reply as a proposal and emits its
  // frames; returns the preview (or why prepare refused it).
  boost::asio::awaitable<core::Result<std::string>> Hold(Turn& turn, const std::string& id,
                                                         const core::tools::ToolDef& tool,
                                                         const nlohmann::json& input);
  // The surface's verify hook on `answer`: what is still missing (empty:
  // nothing, or the check failed and the answer stands).
  boost::asio::awaitable<std::string> CheckAnswer(Turn& turn, const model::OpenAiClient& client,
                                                  const core::model::ModelInfo& info,
                                                  const std::string& answer);
  boost::asio::awaitable<void> Finish(Turn& turn);
  // Records one model call that took `took` and ended with `result`.
  void CountModelCall(const model::CallResult& result,
                      std::chrono::steady_clock::duration took) const;
  static nlohmann::json TimingJson(const Turn& turn);

  store::StorePool& pool_;
  core::platform::Logger& logger_;
  // For the ids of records tools create (used on store workers, one call at
  // a time per turn).
  core::platform::Random* random_;
  const std::chrono::milliseconds model_timeout_;
  const core::playbooks::Router& router_;
  const core::tools::ToolRegistry& registry_;
  const OnCommit on_commit_;
  // Keep-alive connections to providers, shared by every turn; may be null.
  model::ModelConnectionPool* const model_connections_;
  metrics::Registry* metrics_ = nullptr;
};

}  // namespace ensemble::server::assistant

#endif  // ENSEMBLE_SERVER_ASSISTANT_TURN_DRIVER_H_
