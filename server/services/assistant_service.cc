#include "server/services/assistant_service.h"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/assistant/conversation_store.h"
#include "core/assistant/hub_tools.h"
#include "core/assistant/offline_exchanges.h"
#include "core/assistant/proposal_store.h"
#include "core/assistant/running_turns.h"
#include "core/base/id.h"
#include "core/hub/hub_tools.h"
#include "core/playbooks/embedded.h"
#include "core/sync/authorization.h"
#include "server/await_token.h"
#include "server/events/poke_channel.h"
#include "server/http/json_response.h"
#include "server/http/router.h"
#include "server/services/assistant_json.h"
#include "server/services/json_body.h"

namespace ensemble::server::services {
namespace {

namespace net = boost::asio;
namespace bhttp = boost::beast::http;
namespace codes = core::codes;
using core::Result;
using core::Status;
using nlohmann::json;

}  // namespace

Result<std::unique_ptr<AssistantService>> AssistantService::Create(
    store::StorePool& pool, const credentials::CredentialStore& credentials,
    core::platform::Env env, std::chrono::milliseconds model_timeout, assistant::OnCommit on_commit,
    model::ModelConnectionPool* model_connections) {
  auto set = core::playbooks::PlaybookSet::Build(core::playbooks::EmbeddedPlaybooks());
  if (!set.ok()) {
    return Status(codes::kInternal,
                  "the embedded playbooks do not build: " + set.status().ToString());
  }
  return std::unique_ptr<AssistantService>(new AssistantService(
      pool, credentials, env, model_timeout, core::playbooks::Router(std::move(*set)),
      std::move(on_commit), model_connections));
}

AssistantService::AssistantService(store::StorePool& pool,
                                   const credentials::CredentialStore& credentials,
                                   core::platform::Env env, std::chrono::milliseconds model_timeout,
                                   core::playbooks::Router router, assistant::OnCommit on_commit,
                                   model::ModelConnectionPool* model_connections)
    : pool_(pool),
      credentials_(credentials),
      env_(env),
      router_(std::move(router)),
      owner_("process-" + core::NewId(*env.clock, *env.random)),
      driver_(pool, *env.logger, model_timeout, router_, core::hub::HubToolRegistry(), env.random,
              on_commit, model_connections),
      on_commit_(std::move(on_commit)) {}

net::awaitable<Result<json>> AssistantService::CreateConversation(RouteCall& call) {
  ENSEMBLE_CO_ASSIGN_OR_RETURN(json body, call.ObjectBody({"spaceId", "title"}));
  std::string space_id;
  ENSEMBLE_CO_RETURN_IF_ERROR(
      kBodyFields.ReadText(body, "spaceId", "", {.allow_empty = false}, &space_id));
  // No title, a null or an empty one: the chat is named by its default.
  std::string title;
  ENSEMBLE_CO_RETURN_IF_ERROR(
      kBodyFields.ReadText(body, "title", "", {.required = false, .allow_null = true}, &title));
  if (title.empty()) title = "New chat";
  std::string id = core::NewId(*env_.clock, *env_.random);
  const int64_t now = env_.clock->NowMillis();
  const Caller& caller = call.caller;
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      core::assistant::Conversation created,
      co_await pool_.Run([&](core::store::Database& db) -> Result<core::assistant::Conversation> {
        ENSEMBLE_RETURN_IF_ERROR(CheckSpaceAccess(db, caller, space_id));
        return core::assistant::CreateConversation(db, id, space_id, caller.account_id, title, now);
      }));
  call.status = bhttp::status::created;
  co_return ConversationJson(created);
}

net::awaitable<Result<json>> AssistantService::ListConversations(RouteCall& call) {
  std::optional<std::string_view> space = call.target.Param("spaceId");
  if (!space || space->empty()) co_return core::InvalidArgument("spaceId is required");
  std::string space_id(*space);
  const Caller& caller = call.caller;
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      std::vector<core::assistant::Conversation> list,
      co_await pool_.Run(
          [&](core::store::Database& db) -> Result<std::vector<core::assistant::Conversation>> {
            ENSEMBLE_RETURN_IF_ERROR(CheckSpaceAccess(db, caller, space_id));
            return core::assistant::ListConversations(db, caller.account_id, space_id);
          }));
  json out = json::array();
  for (const auto& c : list) out.push_back(ConversationJson(c));
  co_return json{{"conversations", out}};
}

namespace {

// The conversation the path names ("/api/assistant/conversations/:id/...").
Result<std::string> ConversationIdOf(const RouteCall& call) {
  std::optional<std::string> id = call.target.PathParam("id");
  if (!id) return core::InvalidArgument("a conversation id is required");
  return *id;
}

}  // namespace

net::awaitable<Result<json>> AssistantService::DeleteConversation(RouteCall& call) {
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string id, ConversationIdOf(call));
  ENSEMBLE_CO_RETURN_IF_ERROR(co_await pool_.Run([&](core::store::Database& db) {
    return core::assistant::DeleteConversation(db, call.caller.account_id, id);
  }));
  co_return json{{"deleted", true}};
}

net::awaitable<Result<json>> AssistantService::ListMessages(RouteCall& call) {
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string id, ConversationIdOf(call));
  struct Listed {
    std::vector<core::assistant::StoredMessage> messages;
    std::vector<core::assistant::Proposal> proposals;
  };
  const Caller& caller = call.caller;
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      Listed listed, co_await pool_.Run([&](core::store::Database& db) -> Result<Listed> {
        ENSEMBLE_RETURN_IF_ERROR(
            core::assistant::GetConversation(db, caller.account_id, id).status());
        Listed l;
        ENSEMBLE_ASSIGN_OR_RETURN(l.messages, core::assistant::ListMessages(db, id));
        ENSEMBLE_ASSIGN_OR_RETURN(
            l.proposals, core::assistant::ListConversationProposals(db, caller.account_id, id));
        return l;
      }));
  // A reply's calls as they stand now (applied, undone...), not as the turn
  // left them: the chat shows the same buttons after a reload.
  std::map<std::string, const core::assistant::Proposal*> by_message;
  for (const auto& p : listed.proposals) by_message[p.message_id] = &p;
  json out = json::array();
  for (const auto& m : listed.messages) {
    json j = MessageJson(m);
    if (auto it = by_message.find(m.id); it != by_message.end()) {
      j["proposal"] = ProposalJson(*it->second);
    }
    out.push_back(std::move(j));
  }
  co_return json{{"messages", out}};
}

net::awaitable<Result<json>> AssistantService::SaveOfflineExchanges(RouteCall& call) {
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string id, ConversationIdOf(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(json body, call.Body());
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::vector<core::assistant::OfflineExchange> exchanges,
                               core::assistant::ParseOfflineExchanges(body));
  const int64_t now = env_.clock->NowMillis();
  const Caller& caller = call.caller;
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      size_t saved, co_await pool_.Run([&](core::store::Database& db) -> Result<size_t> {
        ENSEMBLE_ASSIGN_OR_RETURN(core::assistant::Conversation conversation,
                                  core::assistant::GetConversation(db, caller.account_id, id));
        ENSEMBLE_RETURN_IF_ERROR(CheckSpaceAccess(db, caller, conversation.space_id));
        return core::assistant::SaveOfflineExchanges(db, id, exchanges, now);
      }));
  co_return json{{"saved", saved}};
}

net::awaitable<Result<json>> AssistantService::StopTurn(RouteCall& call) {
  std::optional<std::string> id = call.target.PathParam("id");
  if (!id) co_return core::InvalidArgument("a turn id is required");
  const Caller& caller = call.caller;
  // The store knows every process's turns: it checks the account and, for a
  // turn another process runs, carries the stop to it at commit.
  const int64_t now = env_.clock->NowMillis();
  Result<core::assistant::RunningTurnRow> marked = co_await pool_.RunInTransaction(
      [&](core::store::Database& db) -> Result<core::assistant::RunningTurnRow> {
        ENSEMBLE_ASSIGN_OR_RETURN(
            core::assistant::RunningTurnRow row,
            core::assistant::MarkTurnStopping(db, caller.account_id, *id, now));
        if (row.owner != owner_) ENSEMBLE_RETURN_IF_ERROR(events::NotifyTurnStop(db, row.id));
        return row;
      },
      core::store::Durability::kRelaxed);
  if (!marked.ok() && marked.status().code() != codes::kNotFound) co_return marked.status();
  // A turn of this process is stopped here, recorded or not (its record is
  // written as it starts, its stop signal a moment later).
  const bool here = turns_.Stop(caller.account_id, *id).ok();
  if (!here && !marked.ok()) co_return marked.status();
  co_return json{{"stopped", true}, {"id", *id}};
}

net::awaitable<Result<json>> AssistantService::Activity(RouteCall& call) {
  const int64_t now = env_.clock->NowMillis();
  struct Snapshot {
    std::vector<core::assistant::RunningTurnRow> turns;
    std::optional<int64_t> paused_at;
  };
  const Caller& caller = call.caller;
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      Snapshot snapshot, co_await pool_.Run([&](core::store::Database& db) -> Result<Snapshot> {
        Snapshot s;
        ENSEMBLE_ASSIGN_OR_RETURN(s.turns,
                                  core::assistant::ListRunningTurns(db, caller.account_id, now));
        ENSEMBLE_ASSIGN_OR_RETURN(s.paused_at,
                                  core::assistant::AssistantPausedAt(db, caller.account_id));
        return s;
      }));
  json out = json::array();
  for (const core::assistant::RunningTurnRow& turn : snapshot.turns) {
    out.push_back({{"id", turn.id},
                   {"conversationId", turn.conversation_id},
                   {"state", turn.state},
                   {"startedAt", turn.started_at}});
  }
  json body = {{"turns", out}, {"paused", snapshot.paused_at.has_value()}};
  if (snapshot.paused_at) body["pausedAt"] = *snapshot.paused_at;
  co_return body;
}

net::awaitable<Result<json>> AssistantService::Pause(RouteCall& call) {
  const int64_t now = env_.clock->NowMillis();
  const Caller& caller = call.caller;
  // As Stop, for every running turn of the account: the store marks them
  // and carries the stop to the processes that run them, at commit.
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      std::vector<core::assistant::RunningTurnRow> stopping,
      co_await pool_.RunInTransaction(
          [&](core::store::Database& db) -> Result<std::vector<core::assistant::RunningTurnRow>> {
            ENSEMBLE_ASSIGN_OR_RETURN(std::vector<core::assistant::RunningTurnRow> rows,
                                      core::assistant::PauseAssistant(db, caller.account_id, now));
            for (const core::assistant::RunningTurnRow& row : rows) {
              if (row.owner != owner_) {
                ENSEMBLE_RETURN_IF_ERROR(events::NotifyTurnStop(db, row.id));
              }
            }
            return rows;
          }));
  // Every local turn of the account, recorded or not (as in StopTurn).
  turns_.StopAccount(caller.account_id);
  json stopped = json::array();
  for (const core::assistant::RunningTurnRow& row : stopping) stopped.push_back(row.id);
  co_return json{{"paused", true}, {"stopped", stopped}};
}

net::awaitable<Result<json>> AssistantService::Resume(RouteCall& call) {
  ENSEMBLE_CO_RETURN_IF_ERROR(co_await pool_.Run([&](core::store::Database& db) {
    return core::assistant::ResumeAssistant(db, call.caller.account_id);
  }));
  co_return json{{"paused", false}};
}

net::awaitable<void> AssistantService::ForgetTurn(const std::string& turn_id) {
  Status forgot = co_await pool_.Run([&turn_id](core::store::Database& db) {
    return core::assistant::ForgetRunningTurn(db, turn_id);
  });
  // Left behind, the record only goes stale (kRunningTurnStaleMs).
  if (!forgot.ok()) env_.logger->Log(core::platform::LogLevel::kWarning, forgot.ToString());
}

net::awaitable<void> AssistantService::BeatRunningTurns() {
  net::steady_timer pause(co_await net::this_coro::executor);
  for (;;) {
    pause.expires_after(std::chrono::milliseconds(core::assistant::kRunningTurnHeartbeatMs));
    boost::system::error_code ec;
    co_await pause.async_wait(AwaitToken(ec));
    if (ec) co_return;
    std::vector<std::string> ids = turns_.Ids();
    if (ids.empty()) continue;
    const int64_t now = env_.clock->NowMillis();
    Status beat = co_await pool_.Run([&](core::store::Database& db) {
      return core::assistant::BeatRunningTurns(db, owner_, ids, now);
    });
    if (!beat.ok()) {
      env_.logger->Log(core::platform::LogLevel::kWarning,
                       "running turns heartbeat: " + beat.ToString());
    }
  }
}

net::awaitable<Result<json>> AssistantService::ListApprovals(RouteCall& call) {
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::vector<core::assistant::Approval> approvals,
                               co_await pool_.Run([&call](core::store::Database& db) {
                                 return core::assistant::ListApprovals(db, call.caller.account_id);
                               }));
  json out = json::array();
  for (const auto& a : approvals) out.push_back(ApprovalJson(a));
  co_return json{{"approvals", out}};
}

}  // namespace ensemble::server::services
