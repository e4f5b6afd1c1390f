// AssistantService::RunRoutines: routines run on their schedule as turns of
// the space's owner, with no one watching the stream; the replies wait in
// the routine's conversation (see assistant_service.h).

// clang-format off
#include <utility>  // Before Asio: Boost 1.74's awaitable.hpp misses it under GCC 12.
// clang-format on
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <string>
#include <vector>

#include "core/assistant/conversation_store.h"
#include "core/base/id.h"
#include "core/routines/routine_runs.h"
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
    co_await pause.async_wait(net::redirect_error(net::use_awaitable, ec));
    if (ec) co_return;
    const int64_t now = env_.clock->NowMillis();
    Result<std::vector<core::routines::RoutineRun>> due =
        co_await pool_.Run([&](core::store::Database& db) {
          return core::routines::ClaimDueRoutines(db, now, local_account);
        });
    if (!due.ok()) {
      env_.logger->Log(LogLevel::kWarning, "routines: " + due.status().ToString());
      continue;
    }
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
  env_.logger->Log(outcome.ok() ? LogLevel::kInfo : LogLevel::kWarning,
                   "routine " + run.routine_id + ": " +
                       (outcome.ok() ? std::string("ran") : outcome.ToString()));
}

}  // namespace ensemble::server::services
