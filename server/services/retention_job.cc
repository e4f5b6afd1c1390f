#include "server/services/retention_job.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <exception>
#include <string>

#include "core/hub/hub.h"
#include "server/await_token.h"

namespace ensemble::server::services {

namespace net = boost::asio;
using core::platform::LogLevel;

RetentionJob::RetentionJob(net::io_context& ioc, store::StorePool& pool, core::platform::Env env,
                           std::chrono::milliseconds interval)
    : ioc_(ioc), pool_(pool), env_(env), interval_(interval) {}

void RetentionJob::Start() {
  // Loop catches its own errors; this sees only the unexpected.
  net::co_spawn(ioc_, Loop(), [logger = env_.logger](std::exception_ptr e) {
    if (e) logger->Log(LogLevel::kError, "retention job stopped unexpectedly");
  });
}

net::awaitable<void> RetentionJob::Loop() {
  net::steady_timer pause(ioc_);
  for (;;) {
    const int64_t now = env_.clock->NowMillis();
    auto done = co_await pool_.Run([now](core::store::Database& db) {
      return core::sync::RunRetention(db, core::sync::ServerSync(core::hub::Config()), now);
    });
    if (!done.ok()) {
      env_.logger->Log(LogLevel::kWarning, "retention: " + done.status().ToString());
    } else if (done->purged > 0) {
      env_.logger->Log(LogLevel::kInfo,
                       "retention: purged " + std::to_string(done->purged) + " records from Trash");
    }
    pause.expires_after(interval_);
    boost::system::error_code ec;
    co_await pause.async_wait(AwaitToken(ec));
    if (ec) co_return;  // Cancelled: the server is going away.
  }
}

}  // namespace ensemble::server::services
