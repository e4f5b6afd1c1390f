#include "server/events/event_stream.h"

#include <array>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/write.hpp>
#include <memory>

#include "server/await_token.h"
#include "server/http/json_response.h"
#include "server/http/request_guard.h"

namespace ensemble::server::events {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
using beast::error_code;

// What the pending read shares with the stream's coroutine; the read's
// handler may run after the coroutine is gone, so it holds this, not the frame.
struct PeerWatch {
  bool gone = false;
  net::steady_timer* wake = nullptr;  // Null once the coroutine has ended.
  net::ip::tcp::socket* socket = nullptr;
  std::array<char, 512> sink{};
};

// Reads (and drops) whatever the peer sends until it closes, then wakes the
// stream so it ends without waiting for the next heartbeat.
void WatchPeer(const std::shared_ptr<PeerWatch>& watch) {
  watch->socket->async_read_some(net::buffer(watch->sink), [watch](error_code ec, size_t) {
    if (!watch->wake) return;  // The stream is over.
    if (ec) {
      watch->gone = true;
      watch->wake->cancel();
      return;
    }
    WatchPeer(watch);
  });
}

// Clears the watch's pointers into the coroutine frame however it ends
// (including destruction with the io_context).
struct WatchGuard {
  std::shared_ptr<PeerWatch> watch;
  ~WatchGuard() {
    watch->wake = nullptr;
    watch->socket = nullptr;
  }
};

// Answers a stream that will not open: `code` and `message`, with
// Retry-After, and the connection ends; gives its status.
net::awaitable<unsigned> Refuse(beast::tcp_stream& stream, const http::Request& request,
                                std::string_view code, std::string message) {
  http::StringResponse refusal = http::ErrorResponse(code, message);
  refusal.set(beast::http::field::retry_after, std::to_string(kSseRetryAfter.count()));
  refusal.version(request.version());
  refusal.keep_alive(false);
  http::AddSecurityHeaders(refusal.base());
  http::EchoRequestId(request, refusal.base());
  stream.expires_after(kSseWriteTimeout);
  error_code ec;
  co_await beast::http::async_write(stream, refusal, AwaitToken(ec));
  co_return refusal.result_int();
}

}  // namespace

std::string PokeEventText(int64_t version) {
  return "event: poke\ndata: {\"version\": " + std::to_string(version) + "}\n\n";
}

net::awaitable<unsigned> ServeEventStream(beast::tcp_stream& stream, const http::Request& request,
                                          PokeHub& hub, std::string account_id,
                                          std::chrono::milliseconds heartbeat,
                                          core::platform::Logger& logger) {
  error_code ec;
  net::steady_timer wake(co_await net::this_coro::executor);
  if (!account_id.empty() && hub.SubscribersOf(account_id) >= kMaxEventStreamsPerAccount) {
    co_return co_await Refuse(
        stream, request, core::codes::kLimitReached,
        "you have " + std::to_string(kMaxEventStreamsPerAccount) +
            " event streams open on this server (one per open tab): close a tab of the app");
  }
  std::unique_ptr<PokeHub::Subscription> subscription =
      hub.Subscribe([&wake] { wake.cancel(); }, std::move(account_id));
  if (!subscription) {
    co_return co_await Refuse(stream, request, http::codes::kTooManySubscribers,
                              "this server has " + std::to_string(hub.max_subscribers()) +
                                  " event subscribers already; try again later");
  }

  // HTTP/1.1 frames the endless body in chunks; HTTP/1.0 ends it by closing.
  const bool chunked = request.version() >= 11;
  beast::http::response<beast::http::empty_body> head(beast::http::status::ok, request.version());
  head.set(beast::http::field::content_type, "text/event-stream");
  head.set(beast::http::field::cache_control, "no-store");
  head.set("X-Accel-Buffering", "no");  // Proxies such as nginx must not buffer it.
  head.keep_alive(false);               // The connection ends with the stream.
  http::AddSecurityHeaders(head.base());
  http::EchoRequestId(request, head.base());
  if (chunked) head.chunked(true);
  beast::http::response_serializer<beast::http::empty_body> serializer(head);
  stream.expires_after(kSseWriteTimeout);
  co_await beast::http::async_write_header(stream, serializer, AwaitToken(ec));
  if (ec) co_return head.result_int();

  // No request timeout from here on; writes set their own deadline.
  stream.expires_never();
  auto watch = std::make_shared<PeerWatch>();
  watch->wake = &wake;
  watch->socket = &stream.socket();
  WatchGuard guard{watch};
  WatchPeer(watch);

  auto send = [&](const std::string& text) -> net::awaitable<void> {
    stream.expires_after(kSseWriteTimeout);
    if (chunked) {
      co_await net::async_write(stream, beast::http::make_chunk(net::buffer(text)), AwaitToken(ec));
    } else {
      co_await net::async_write(stream, net::buffer(text), AwaitToken(ec));
    }
    stream.expires_never();
  };

  // An opening comment flushes the headers through buffering proxies.
  co_await send(": connected\n\n");
  auto next_ping = std::chrono::steady_clock::now() + heartbeat;
  while (!ec && !watch->gone) {
    if (std::optional<int64_t> version = subscription->TakePending()) {
      co_await send(PokeEventText(*version));
      continue;
    }
    if (std::chrono::steady_clock::now() >= next_ping) {
      co_await send(": ping\n\n");
      next_ping = std::chrono::steady_clock::now() + heartbeat;
      continue;
    }
    wake.expires_at(next_ping);
    error_code wait_ec;
    co_await wake.async_wait(AwaitToken(wait_ec));  // Cancelled: a poke, or the peer left.
  }
  if (ec && ec != net::error::operation_aborted && ec != beast::error::timeout) {
    logger.Log(core::platform::LogLevel::kDebug, "event stream ended: " + ec.message());
  }
  error_code ignored;
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
  co_return head.result_int();
}

}  // namespace ensemble::server::events
