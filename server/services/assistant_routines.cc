// AssistantService::RunRoutines: routines run on their schedule as turns of
// their author, with no one watching the stream; the replies wait in the
// routine's conversation (see assistant_service.h). One whose author cannot
// run it now is paused where its space's owners see it.

#include "server/boost_prelude.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <string>
#include <vector>

#include "core/assistant/conversation_store.h"
#include "core/base/id.h"
#include "core/hub/hub.h"
#include "core/routines/routine_runs.h"
#include "core/sync/authorization.h"
#include "core/sync/server_sync.h"
#include "server/await_token.h"
#include "server/events/poke_channel.h"
#include "server/services/assistant_service.h"

namespace ensemble::server::services {

namespace net = boost::asio;
using core::Result;
using core::Status;
using core::platform::LogLevel;

net::awaitable<void> AssistantService::RunRoutines(std::string local_account,
                                                   std::chrono::milliseconds interval) {
  auto ex = co_await net::this_coro::executor;
  net::steady_timer pause(ex);
  for (;;) {
    pause.expires_after(interval);
    boost::system::error_code ec;
    co_await pause.async_wait(AwaitToken(ec));
    if (ec) co_return;
    const int64_t now = env_.clock->NowMillis();
    std::vector<std::string> stalled;
    Result<std::vector<core::routines::RoutineRun>> due =
        co_await pool_.Run([&](core::store::Database& db) {
          return core::routines::ClaimDueRoutines(db, now, local_account, &stalled);
        });
    if (!due.ok()) {
      env_.logger->Log(LogLevel::kWarning, "routines: " + due.status().ToString());
      continue;
    }
    if (!stalled.empty()) co_await PauseRoutines(std::move(stalled), now);
    // Each runs on its own, as turns do; a slow model holds up only its own.
    for (core::routines::RoutineRun& run : *due) {
      net::co_spawn(ex, RunRoutine(std::move(run)), net::detached);
    }
  }
}

net::awaitable<void> AssistantService::RunRoutine(core::routines::RoutineRun run) {
  Caller caller;
  caller.account_id = run.account_id;
  caller.local = run.account_id == kLocalAccountId;
  const int64_t now = env_.clock->NowMillis();
  // The routine's conversation, made on its first run (or again if deleted).
  Result<std::string> conversation =
      co_await pool_.Run([&](core::store::Database& db) -> Result<std::string> {
        if (!run.conversation_id.empty()) {
          Result<core::assistant::Conversation> kept =
              core::assistant::GetConversation(db, caller.account_id, run.conversation_id);
          if (kept.ok()) return kept->id;
          if (kept.status().code() != core::codes::kNotFound) return kept.status();
        }
        ENSEMBLE_ASSIGN_OR_RETURN(
            core::assistant::Conversation made,
            core::assistant::CreateConversation(db, core::NewId(*env_.clock, *env_.random),
                                                run.space_id, caller.account_id, run.title, now));
        ENSEMBLE_RETURN_IF_ERROR(
            core::routines::SetRoutineConversation(db, run.routine_id, made.id));
        return made.id;
      });
  Status outcome = conversation.status();
  if (conversation.ok()) {
    PostedMessage posted;
    posted.text = run.instruction;
    Result<PreparedTurn> prepared =
        co_await PrepareTurn(caller, *conversation, std::move(posted), now);
    outcome = prepared.status();
    if (prepared.ok()) {
      prepared->turn.received = std::chrono::steady_clock::now();
      // Named, not a temporary in the co_await: GCC 12 can destroy those early.
      const assistant::EmitFrame record_error = [&outcome](std::string_view event,
                                                           const nlohmann::json& data) {
        if (event == "error") {
          outcome = Status(data.value("code", std::string(core::codes::kInternal)),
                           data.value("message", std::string()));
        }
      };
      co_await RunTurn(prepared->turn, record_error);
    }
  }
  // A paused assistant skips the run; the routine comes due again as usual.
  const bool skipped = outcome.code() == core::codes::kAssistantPaused;
  env_.logger->Log(outcome.ok() || skipped ? LogLevel::kInfo : LogLevel::kWarning,
                   "routine " + run.routine_id + ": " +
                       (outcome.ok() ? std::string("ran")
                        : skipped    ? std::string("skipped, the assistant is paused")
                                     : outcome.ToString()));
}

net::awaitable<void> AssistantService::PauseRoutines(std::vector<std::string> routine_ids,
                                                     int64_t now) {
  nlohmann::json mutations = nlohmann::json::array();
  for (const std::string& id : routine_ids) {
    mutations.push_back(
        {{"name", "routine.update"}, {"args", {{"id", id}, {"fields", {{"paused", 1}}}}}});
  }
  events::Poke poke;
  Status st = co_await pool_.RunInTransaction([&](core::store::Database& db) -> Status {
    core::sync::ServerSync server(core::hub::Config());
    // The server's own write: no account, since nobody asked for it.
    ENSEMBLE_ASSIGN_OR_RETURN(core::sync::PushOutcome done,
                              server.ApplyServerWrites(db, mutations, nullptr, now));
    poke.version = done.version;
    ENSEMBLE_ASSIGN_OR_RETURN(
        std::vector<std::string> readers,
        core::sync::ReadersOfChanges(db, core::hub::Config(), done.first_version, done.version));
    poke.readers = std::make_shared<const std::vector<std::string>>(std::move(readers));
    ENSEMBLE_RETURN_IF_ERROR(events::NotifyPoke(db, poke));
    return Status::Ok();
  });
  std::string ids;
  for (const std::string& id : routine_ids) ids += (ids.empty() ? "" : ", ") + id;
  if (!st.ok()) {
    env_.logger->Log(LogLevel::kWarning, "routines " + ids + " could not pause: " + st.ToString());
    co_return;
  }
  env_.logger->Log(LogLevel::kInfo,
                   "routines " + ids + " paused: their author no longer owns the space");
  if (poke.version > 0 && on_commit_) on_commit_(poke);
}

}  // namespace ensemble::server::services
