// AssistantService::PostMessage: one turn, from the posted message to its
// last frame (see assistant_service.h and server/assistant/turn_driver.h);
// PrepareTurn and RunTurn, which a routine's run shares.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/accounts/account.h"
#include "core/accounts/account_settings.h"
#include "core/assistant/conversation_store.h"
#include "core/assistant/hub_tools.h"
#include "core/assistant/route_turn.h"
#include "core/assistant/running_turns.h"
#include "core/base/id.h"
#include "core/calendar/week_date.h"
#include "core/hub/hub_tools.h"
#include "core/sync/authorization.h"
#include "server/assistant/sse_channel.h"
#include "server/http/json_response.h"
#include "server/http/router.h"
#include "server/services/assistant_json.h"
#include "server/services/assistant_service.h"
#include "server/services/json_body.h"

namespace ensemble::server::services {
namespace {

namespace net = boost::asio;
namespace codes = core::codes;
using core::Result;
using core::Status;
using core::assistant::StoredMessage;
using nlohmann::json;

// What the turn starts from, read and written in one go on a store worker.
struct Started {
  core::assistant::Conversation conversation;
  std::vector<StoredMessage> earlier;
  StoredMessage user;
  StoredMessage reply;
  std::optional<credentials::ModelCredentials> credentials;
  core::accounts::AccountSettings settings;  // The caller's saved settings.
  // The caller's role in the conversation's space: what tools it is offered.
  core::sync::Role role = core::sync::Role::kOwner;
  std::vector<core::connections::Connection> connections;  // The caller's, in the space.
  std::string own_email;
};

}  // namespace

net::awaitable<Result<AssistantService::PreparedTurn>> AssistantService::PrepareTurn(
    const Caller& caller, const std::string& conversation_id, PostedMessage posted, int64_t now) {
  json route_json = {{"message", posted.text}, {"mentions", posted.mentions}};
  if (!posted.open_path.empty()) route_json["path"] = posted.open_path;
  Result<core::playbooks::RouteRequest> route =
      core::assistant::TurnRouteRequest(router_, core::hub::HubToolRegistry(), route_json);
  if (!route.ok()) co_return route.status();

  StoredMessage user;
  user.id = core::NewId(*env_.clock, *env_.random);
  user.conversation_id = conversation_id;
  user.role = core::assistant::MessageRole::kUser;
  user.text = posted.text;
  user.mentions = posted.mentions;
  user.created_at = now;
  StoredMessage reply;
  reply.id = core::NewId(*env_.clock, *env_.random);
  reply.conversation_id = conversation_id;
  reply.role = core::assistant::MessageRole::kAssistant;
  reply.created_at = now;
  // A few indexed reads and a relaxed commit: short enough to run without a
  // thread hop on the embedded store (StorePool::RunShort).
  Result<Started> started =
      co_await pool_.RunShort([&](core::store::Database& db) -> Result<Started> {
        Started s;
        ENSEMBLE_ASSIGN_OR_RETURN(s.conversation, core::assistant::GetConversation(
                                                      db, caller.account_id, conversation_id));
        ENSEMBLE_ASSIGN_OR_RETURN(s.earlier, core::assistant::LoadHistory(db, conversation_id));
        ENSEMBLE_ASSIGN_OR_RETURN(s.credentials,
                                  credentials_.ResolveModelCredentials(db, caller.account_id));
        ENSEMBLE_ASSIGN_OR_RETURN(s.settings,
                                  core::accounts::GetAccountSettings(db, caller.account_id));
        if (!caller.local) {
          ENSEMBLE_ASSIGN_OR_RETURN(
              std::optional<core::sync::Role> role,
              core::sync::RoleIn(db, s.conversation.space_id, caller.account_id));
          // A conversation outlives a membership; its space is then not found.
          if (!role) return Status(codes::kNotFound, "no space with this id");
          s.role = *role;
          ENSEMBLE_ASSIGN_OR_RETURN(std::optional<core::accounts::Account> account,
                                    core::accounts::FindAccount(db, caller.account_id));
          if (account) s.own_email = account->email;
        }
        // A guest gets no app paragraph, and no connection is read for it.
        if (s.role != core::sync::Role::kGuest) {
          ENSEMBLE_ASSIGN_OR_RETURN(s.connections, core::connections::ListConnections(
                                                       db, s.conversation.space_id,
                                                       caller.local ? "" : caller.account_id));
        }
        // Chat text: not worth a wait for the disk (core/store/database.h).
        ENSEMBLE_RETURN_IF_ERROR(core::store::RunInTransaction(
            db,
            [&](core::store::Database& db) -> Status {
              ENSEMBLE_ASSIGN_OR_RETURN(s.user, core::assistant::AppendMessage(db, user));
              ENSEMBLE_ASSIGN_OR_RETURN(s.reply, core::assistant::AppendMessage(db, reply));
              // Listed by the activity endpoint of every process until the turn ends.
              return core::assistant::RecordRunningTurn(
                  db, {reply.id, caller.account_id, conversation_id, "", now, owner_}, now,
                  max_turns_per_account_);
            },
            core::store::Durability::kRelaxed));
        return s;
      });
  if (!started.ok()) co_return started.status();
  const core::accounts::AssistantSettings& settings = started->settings.assistant;
  if (!settings.AllWriteAreasAllowed() || started->role != core::sync::Role::kOwner) {
    // Routed again under the caller's role and with the areas turned off, so
    // the write tools they may not use are not offered (the first routing
    // checked the request before anything was saved; most turns are the
    // owner's with every area on).
    if (!settings.AllWriteAreasAllowed()) {
      route_json["allowedWriteAreas"] = settings.allowed_write_areas;
    }
    route_json["role"] = std::string(core::sync::RoleName(started->role));
    route = core::assistant::TurnRouteRequest(router_, core::hub::HubToolRegistry(),
                                              std::move(route_json));
    if (!route.ok()) {
      co_await ForgetTurn(started->reply.id);
      co_return route.status();
    }
  }

  PreparedTurn prepared;
  prepared.user_message_id = started->user.id;
  assistant::TurnRequest& turn = prepared.turn;
  turn.account_id = caller.account_id;
  turn.local = caller.local;
  turn.space_id = started->conversation.space_id;
  turn.now_ms = now;
  turn.message = std::move(posted.text);
  turn.route = std::move(*route);
  turn.mentions = std::move(posted.mentions);
  turn.surface = std::move(posted.surface);
  turn.checklist = std::move(posted.checklist);
  turn.policy = settings.write_policy;
  turn.earlier = std::move(started->earlier);
  turn.reply = std::move(started->reply);
  turn.credentials = std::move(started->credentials);
  turn.effort = settings.effort;
  turn.time_zone = started->settings.general.time_zone;
  turn.today = core::calendar::TodayIn(now, turn.time_zone);
  turn.stop = std::make_shared<model::StopSignal>();
  turn.connections = std::move(started->connections);
  turn.guest = started->role == core::sync::Role::kGuest;
  turn.own_email = std::move(started->own_email);
  turn.app_reader = app_reader_;
  co_return prepared;
}

net::awaitable<void> AssistantService::RunTurn(assistant::TurnRequest& turn,
                                               const assistant::EmitFrame& emit) {
  assistant::RunningTurn running;
  running.id = turn.reply.id;
  running.account_id = turn.account_id;
  running.conversation_id = turn.reply.conversation_id;
  running.started_at = turn.now_ms;
  running.stop = turn.stop;
  turns_.Add(running);
  try {
    co_await driver_.Run(turn, emit);
  } catch (const std::exception& e) {
    // A turn must not throw; the reply stays as saved at the start.
    env_.logger->Log(core::platform::LogLevel::kError,
                     std::string("assistant turn threw: ") + e.what());
    emit("error",
         {{"code", codes::kInternal}, {"message", "The turn failed on the server. Try again."}});
  }
  turns_.Remove(running.id);
}

net::awaitable<unsigned> AssistantService::PostMessage(boost::beast::tcp_stream& stream,
                                                       const http::Request& request,
                                                       const http::Target& target,
                                                       const Caller& caller) {
  const auto received = std::chrono::steady_clock::now();
  std::optional<std::string> conversation_id = target.PathParam("id");
  if (!conversation_id) {
    co_return co_await assistant::WriteAndClose(
        stream, request,
        http::ErrorResponse(codes::kInvalidArgument, "a conversation id is required"));
  }
  Result<json> body = ParseJsonBody(request.body());
  Result<PostedMessage> posted =
      body.ok() ? ParsePostedMessage(*body) : Result<PostedMessage>(body.status());
  if (!posted.ok()) {
    co_return co_await assistant::WriteAndClose(stream, request,
                                                http::ErrorResponse(posted.status()));
  }
  const int64_t now = env_.clock->NowMillis();
  Result<PreparedTurn> prepared =
      co_await PrepareTurn(caller, *conversation_id, std::move(*posted), now);
  if (!prepared.ok()) {
    co_return co_await assistant::WriteAndClose(
        stream, request, FailureResponse(prepared.status(), "assistant", *env_.logger));
  }
  assistant::TurnRequest& turn = prepared->turn;
  turn.received = received;

  auto channel = std::make_shared<assistant::SseChannel>(stream, request);
  // The person going away stops the turn, as Stop does.
  channel->set_on_broken([stop = turn.stop] { stop->Stop(); });
  // The head is 200 whether or not its write reached the person.
  constexpr unsigned kOpened = 200;
  if (!co_await channel->Open()) {
    co_await ForgetTurn(turn.reply.id);
    co_return kOpened;
  }
  channel->Push("turn", {{"turnId", turn.reply.id},
                         {"conversationId", *conversation_id},
                         {"userMessageId", prepared->user_message_id},
                         {"messageId", turn.reply.id}});
  // Named, not a temporary in the co_await: GCC 12 can destroy those early.
  const assistant::EmitFrame emit = [channel](std::string_view event, const json& data) {
    channel->Push(event, data);
  };
  co_await RunTurn(turn, emit);
  co_await channel->Drain();
  co_return kOpened;
}

}  // namespace ensemble::server::services
