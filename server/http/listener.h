// Listener: accepts TCP connections on one address and runs an HTTP session
// (server/http/http_session.h) for each, as its own coroutine.
//
// Binding happens in Bind, before anything runs, so a busy port is reported
// at start-up and port 0 resolves to the actual port at once.
//
// Thread-safety: call Start on the io_context's thread or before it runs.
// Accepting stops when the Listener is destroyed.

#ifndef ENSEMBLE_SERVER_HTTP_LISTENER_H_
#define ENSEMBLE_SERVER_HTTP_LISTENER_H_

#include "server/boost_prelude.h"

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "core/base/status.h"
#include "core/platform/env.h"
#include "server/http/router.h"

namespace ensemble::server::http {

// After a failed accept (such as running out of file descriptors), wait this
// long before the next, rather than spinning.
inline constexpr std::chrono::milliseconds kAcceptRetryDelay{100};
// Connections served at once by one process (ENSEMBLE_MAX_CONNECTIONS); one
// past it is answered 503 SERVER_BUSY at once and closed, so a flood of idle
// connections cannot use up the process's file descriptors.
inline constexpr size_t kMaxConnections = 4096;

class Listener {
 public:
  // Binds and listens on `address`:`port` (an IP address or a host name; port
  // 0 picks a free port). `router` and `logger` must outlive the Listener and
  // its sessions.
  static core::Result<std::unique_ptr<Listener>> Bind(boost::asio::io_context& ioc,
                                                      const std::string& address, uint16_t port,
                                                      const Router& router,
                                                      core::platform::Logger& logger,
                                                      size_t max_connections = kMaxConnections);

  // Connections being served now.
  size_t open_connections() const { return open_->load(); }

  // The bound endpoint (with the actual port when 0 was asked for).
  boost::asio::ip::tcp::endpoint endpoint() const { return endpoint_; }

  // Starts accepting on the io_context.
  void Start();

 private:
  Listener(boost::asio::io_context& ioc, const Router& router, core::platform::Logger& logger);
  boost::asio::awaitable<void> AcceptLoop();

  boost::asio::io_context& ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::ip::tcp::endpoint endpoint_;
  const Router& router_;
  core::platform::Logger& logger_;
  size_t max_connections_ = kMaxConnections;
  // Sessions running; shared with them, since they may outlive the Listener.
  std::shared_ptr<std::atomic<size_t>> open_ = std::make_shared<std::atomic<size_t>>(0);
};

}  // namespace ensemble::server::http

#endif  // ENSEMBLE_SERVER_HTTP_LISTENER_H_
