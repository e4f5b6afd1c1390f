// The sync server's entry point: reads the Config from the environment, runs
// the App until SIGINT or SIGTERM, and exits 0 (1 when it cannot start).

#include "server/boost_prelude.h"

#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <cstdio>
#include <string>

#include "server/app.h"
#include "server/config.h"
#include "server/platform/system_env.h"

namespace {

using ensemble::core::platform::LogLevel;

int Fail(ensemble::server::platform::StderrLogger& logger, const ensemble::core::Status& st) {
  logger.Log(LogLevel::kError, "cannot start: " + st.ToString());
  return 1;
}

}  // namespace

int main() {
  ensemble::server::platform::SystemEnv system;
  if (auto st = ensemble::server::platform::SystemRandom::Init(); !st.ok()) {
    return Fail(system.logger, st);
  }
  auto config = ensemble::server::ConfigFromEnv();
  if (!config.ok()) return Fail(system.logger, config.status());
  auto app = ensemble::server::App::Create(*config, system.env());
  if (!app.ok()) return Fail(system.logger, app.status());

  boost::asio::signal_set signals((*app)->io_context(), SIGINT, SIGTERM);
  signals.async_wait([&app, &system](const boost::system::error_code& ec, int signal) {
    if (ec) return;
    system.logger.Log(LogLevel::kInfo,
                      "signal " + std::to_string(signal) + " received; shutting down");
    (*app)->Stop();
  });

  // The one start-up line: the address and the store kind, never the
  // database URL (it may hold a password).
  const std::string& addr = config->http_addr;
  const std::string host = addr.find(':') == std::string::npos ? addr : "[" + addr + "]";
  std::printf("ensemble_server listening on http://%s:%u (store: %.*s)\n", host.c_str(),
              static_cast<unsigned>((*app)->port()), static_cast<int>((*app)->store_kind().size()),
              (*app)->store_kind().data());
  std::fflush(stdout);
  (*app)->Run();
  return 0;
}
