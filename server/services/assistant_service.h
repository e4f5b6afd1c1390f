// AssistantService: the assistant's conversations and streamed turns (spec
// 000 §1, §2 activity and Stop, §3 history). Every route acts as the
// session's account; a conversation or turn of another account is NOT_FOUND.
//
//   POST   /api/assistant/conversations {spaceId, title?}      -> 201 conversation
//   GET    /api/assistant/conversations?spaceId=               -> {conversations}
//   DELETE /api/assistant/conversations/:id                    -> {deleted: true}
//   GET    /api/assistant/conversations/:id/messages           -> {messages}
//          a reply with a proposal carries it as it stands now:
//          `proposal` (assistant_json.h ProposalJson)
//   POST   /api/assistant/conversations/:id/messages
//          {text, mentions?: [{kind, id, label}], surface?: {kind?, path?},
//           verify?: {checklist: [...]}}
//          -> text/event-stream: first `turn` {turnId, conversationId,
//             userMessageId, messageId}, then the frames of
//             server/assistant/turn_driver.h (refs, text, tool, proposal,
//             done | error). Bad input is answered as JSON before any frame.
//   POST   /api/assistant/conversations/:id/exchanges
//          {exchanges: [{id, message, reply, at, calls?}]} -> {saved: n}
//          what the device's built-in planner answered while the server was
//          out of reach, appended once each (core/assistant/offline_exchanges.h)
//   POST   /api/assistant/turns/:id/stop                       -> {stopped: true}
//          (the turn id is the reply's message id, from the `turn` frame;
//          a turn another server process runs is stopped through the store's
//          notifications, server/events/poke_channel.h)
//   GET    /api/assistant/activity -> {turns: [{id, conversationId, state,
//          startedAt}]}, state working | queued | stopping | paused, the
//          caller's turns on every process sharing the store
//          (core/assistant/running_turns.h)
//   GET    /api/assistant/approvals -> {approvals: [{conversationId,
//          messageId, createdAt, calls: [{callId, tool, summary}]}]}
//          the caller's proposals waiting on Needs me, newest first
//
// A turn runs under the caller's saved settings (core/accounts/
// account_settings.h): assistant.writePolicy decides which writes run and
// which wait (needs-me proposals wait on the Needs me list, the rest in the
// chat), and assistant.allowedWriteAreas drops the write tools of the areas
// turned off from what the turn is offered. A conversation is in one space:
// in accounts mode the account must be a member (else NOT_FOUND); local mode
// trusts its one person.
//
// Thread-safety: handlers run on the server's io thread (turns need it:
// server/model/openai_client.h); store work goes to the StorePool.

#ifndef ENSEMBLE_SERVER_SERVICES_ASSISTANT_SERVICE_H_
#define ENSEMBLE_SERVER_SERVICES_ASSISTANT_SERVICE_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <chrono>
#include <memory>
#include <string>

#include "core/assistant/running_turns.h"
#include "core/platform/env.h"
#include "core/playbooks/router.h"
#include "core/routines/routine_runs.h"
#include "server/assistant/turn_driver.h"
#include "server/assistant/turn_registry.h"
#include "server/credentials/credential_store.h"
#include "server/http/message.h"
#include "server/http/url.h"
#include "server/services/assistant_json.h"
#include "server/services/auth_service.h"
#include "server/services/json_route.h"
#include "server/store/store_pool.h"

namespace ensemble::server::services {

class AssistantService {
 public:
  // Everything given must outlive the service. INTERNAL if the embedded
  // playbooks do not build (a bug caught by the playbook tests).
  // `on_commit` pokes this process's subscribers after a turn's write.
  static core::Result<std::unique_ptr<AssistantService>> Create(
      store::StorePool& pool, const credentials::CredentialStore& credentials,
      core::platform::Env env, std::chrono::milliseconds model_timeout,
      assistant::OnCommit on_commit = {}, model::ModelConnectionPool* model_connections = nullptr);

  // The JSON routes (App::AddJson binds them).
  boost::asio::awaitable<core::Result<nlohmann::json>> CreateConversation(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> ListConversations(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> DeleteConversation(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> ListMessages(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> SaveOfflineExchanges(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> StopTurn(RouteCall& call);
  // What the caller's assistant is doing: its running turns, and whether it
  // is paused.
  boost::asio::awaitable<core::Result<nlohmann::json>> Activity(RouteCall& call);
  // Pauses the caller's assistant: its running turns stop, wherever they
  // run, and no turn starts (ASSISTANT_PAUSED) until Resume.
  boost::asio::awaitable<core::Result<nlohmann::json>> Pause(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Resume(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> ListApprovals(RouteCall& call);

  // Refreshes this process's running turns in the store every
  // kRunningTurnHeartbeatMs, until the io_context stops.
  boost::asio::awaitable<void> BeatRunningTurns();
  // A Stop another process sent for a turn this one may run.
  void StopLocalTurn(const std::string& turn_id) { turns_.StopLocal(turn_id); }

  // Runs the routines that fall due (core/routines/routine_runs.h), checking
  // every `interval` until the io_context stops: each as a turn of its
  // author (of `local_account` in local mode), its instruction as the
  // message, its replies kept in one conversation; one whose author no
  // longer owns its space is paused instead, in every member's copy
  // (assistant_routines.cc).
  boost::asio::awaitable<void> RunRoutines(std::string local_account,
                                           std::chrono::milliseconds interval);
  // Reads connected apps for the turns' tools (hub_import_people); set
  // before the first turn, must outlive the service. Null: app reads say
  // they cannot run here.
  void set_app_reader(connectors::LinkReader* reader) { app_reader_ = reader; }
  // Turns one account may run at once (ENSEMBLE_MAX_TURNS_PER_ACCOUNT); set
  // before the first turn.
  void set_max_turns_per_account(size_t n) { max_turns_per_account_ = n; }
  // Counts turns and model calls in `registry` (TurnDriver::set_metrics).
  void set_metrics(metrics::Registry& registry) { driver_.set_metrics(registry); }
  // Owns the connection until the turn ends (assistant_turn_stream.cc);
  // gives the status answered (200 once the stream opened).
  boost::asio::awaitable<unsigned> PostMessage(boost::beast::tcp_stream& stream,
                                               const http::Request& request,
                                               const http::Target& target, const Caller& caller);

 private:
  AssistantService(store::StorePool& pool, const credentials::CredentialStore& credentials,
                   core::platform::Env env, std::chrono::milliseconds model_timeout,
                   core::playbooks::Router router, assistant::OnCommit on_commit,
                   model::ModelConnectionPool* model_connections);

  // A turn whose messages are saved and whose routing is settled.
  struct PreparedTurn {
    assistant::TurnRequest turn;  // Its stop signal made; `received` not set.
    std::string user_message_id;
  };
  // Routes `posted`, saves it and the reply to come on the caller's
  // conversation and records the turn as running: what PostMessage streams
  // and a routine runs. Errors as the messages route answers them.
  boost::asio::awaitable<core::Result<PreparedTurn>> PrepareTurn(const Caller& caller,
                                                                 const std::string& conversation_id,
                                                                 PostedMessage posted, int64_t now);
  // Runs a prepared turn to its end (registered for Stop meanwhile).
  boost::asio::awaitable<void> RunTurn(assistant::TurnRequest& turn,
                                       const assistant::EmitFrame& emit);
  // One routine's run (assistant_routines.cc).
  boost::asio::awaitable<void> RunRoutine(core::routines::RoutineRun run);
  // Pauses routines that may not run, as a server write every member pulls.
  boost::asio::awaitable<void> PauseRoutines(std::vector<std::string> routine_ids, int64_t now);

  // Removes the record of a turn that ended before it ran.
  boost::asio::awaitable<void> ForgetTurn(const std::string& turn_id);

  store::StorePool& pool_;
  const credentials::CredentialStore& credentials_;
  core::platform::Env env_;
  const core::playbooks::Router router_;
  assistant::TurnRegistry turns_;
  // This process, as the store's running-turns table names it.
  const std::string owner_;
  assistant::TurnDriver driver_;
  // After driver_, which is given a copy first: pokes for the service's own
  // writes (pausing routines).
  const assistant::OnCommit on_commit_;
  connectors::LinkReader* app_reader_ = nullptr;
  size_t max_turns_per_account_ = core::assistant::kMaxConcurrentTurnsPerAccount;
};

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_ASSISTANT_SERVICE_H_
