#include "server/http/listener.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/write.hpp>
#include <exception>
#include <string>

#include "server/await_token.h"
#include "server/http/http_session.h"
#include "server/http/json_response.h"
#include "server/http/request_guard.h"

namespace ensemble::server::http {
namespace {

namespace net = boost::asio;
using core::Status;
using core::platform::LogLevel;
using net::ip::tcp;

Status ListenError(const std::string& where, const boost::system::error_code& ec) {
  return Status(core::codes::kInternal, "cannot listen on " + where + ": " + ec.message());
}

// Logs what escaped a coroutine; sessions and the accept loop catch their own
// errors, so this sees only the unexpected (such as running out of memory).
auto LogFailure(core::platform::Logger& logger, std::string what) {
  return [&logger, what = std::move(what)](std::exception_ptr e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      logger.Log(LogLevel::kError, what + " failed: " + ex.what());
    } catch (...) {
      logger.Log(LogLevel::kError, what + " failed");
    }
  };
}

// Runs `session`, then gives its place back.
net::awaitable<void> Counted(std::shared_ptr<std::atomic<size_t>> open,
                             net::awaitable<void> session) {
  struct Release {
    std::atomic<size_t>& open;
    ~Release() { open.fetch_sub(1); }
  } release{*open};
  co_await std::move(session);
}

// Answers a connection past the cap without reading its request.
net::awaitable<void> RefuseBusy(tcp::socket socket) {
  beast::tcp_stream stream(std::move(socket));
  StringResponse res = ErrorResponse(codes::kServerBusy,
                                     "this server has as many connections as it serves at once; "
                                     "try again shortly");
  res.set(beast::http::field::retry_after, "1");
  res.keep_alive(false);
  AddSecurityHeaders(res.base());
  stream.expires_after(kWriteTimeout);
  boost::system::error_code ec;
  co_await beast::http::async_write(stream, res, AwaitToken(ec));
  stream.socket().shutdown(tcp::socket::shutdown_both, ec);
}

}  // namespace

Listener::Listener(net::io_context& ioc, const Router& router, core::platform::Logger& logger)
    : ioc_(ioc), acceptor_(ioc), router_(router), logger_(logger) {}

core::Result<std::unique_ptr<Listener>> Listener::Bind(net::io_context& ioc,
                                                       const std::string& address, uint16_t port,
                                                       const Router& router,
                                                       core::platform::Logger& logger,
                                                       size_t max_connections) {
  std::string where = address + ":" + std::to_string(port);
  boost::system::error_code ec;
  tcp::resolver resolver(ioc);
  auto results = resolver.resolve(address, std::to_string(port),
                                  tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec) return ListenError(where, ec);
  if (results.empty()) return Status(core::codes::kInternal, "cannot resolve " + where);

  std::unique_ptr<Listener> listener(new Listener(ioc, router, logger));
  listener->max_connections_ = max_connections;
  tcp::acceptor& acceptor = listener->acceptor_;
  tcp::endpoint endpoint = results.begin()->endpoint();
  acceptor.open(endpoint.protocol(), ec);
  if (ec) return ListenError(where, ec);
  // A restarted server can bind while old connections sit in TIME_WAIT.
  acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (ec) return ListenError(where, ec);
  acceptor.bind(endpoint, ec);
  if (ec) return ListenError(where, ec);
  acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return ListenError(where, ec);
  listener->endpoint_ = acceptor.local_endpoint(ec);
  if (ec) return ListenError(where, ec);
  return listener;
}

void Listener::Start() { net::co_spawn(ioc_, AcceptLoop(), LogFailure(logger_, "accept loop")); }

net::awaitable<void> Listener::AcceptLoop() {
  boost::system::error_code ec;
  while (acceptor_.is_open()) {
    tcp::socket socket = co_await acceptor_.async_accept(AwaitToken(ec));
    if (ec == net::error::operation_aborted || !acceptor_.is_open()) break;
    if (ec) {
      logger_.Log(LogLevel::kWarning, "accept failed: " + ec.message());
      net::steady_timer pause(ioc_, kAcceptRetryDelay);
      co_await pause.async_wait(AwaitToken(ec));
      continue;
    }
    if (open_->fetch_add(1) >= max_connections_) {
      open_->fetch_sub(1);
      net::co_spawn(ioc_, RefuseBusy(std::move(socket)), LogFailure(logger_, "busy refusal"));
      continue;
    }
    net::co_spawn(
        ioc_,
        Counted(open_, RunHttpSession(beast::tcp_stream(std::move(socket)), router_, logger_)),
        LogFailure(logger_, "HTTP session"));
  }
}

}  // namespace ensemble::server::http
