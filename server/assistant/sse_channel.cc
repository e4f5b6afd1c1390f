#include "server/assistant/sse_channel.h"

#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/write.hpp>

#include "server/await_token.h"
#include "server/http/request_guard.h"

namespace ensemble::server::assistant {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
using beast::error_code;

}  // namespace

std::string SseFrame(std::string_view event, const nlohmann::json& data) {
  std::string out = "event: ";
  out += event;
  out += "\ndata: ";
  // dump() escapes every newline, so the data stays one line; invalid UTF-8
  // from a model becomes U+FFFD rather than a throw.
  out += data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  out += "\n\n";
  return out;
}

net::awaitable<unsigned> WriteAndClose(beast::tcp_stream& stream, const http::Request& request,
                                       http::StringResponse response) {
  response.version(request.version());
  response.keep_alive(false);
  http::EchoRequestId(request, response.base());
  response.prepare_payload();
  error_code ec;
  stream.expires_after(kFrameWriteTimeout);
  co_await beast::http::async_write(stream, response, AwaitToken(ec));
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_both, ec);
  co_return response.result_int();
}

SseChannel::SseChannel(beast::tcp_stream& stream, const http::Request& request)
    : stream_(stream),
      chunked_(request.version() >= 11),
      version_(request.version()),
      request_id_(request[http::kRequestIdHeader]),
      idle_(stream.get_executor()) {}

net::awaitable<bool> SseChannel::Open() {
  beast::http::response<beast::http::empty_body> head(beast::http::status::ok, version_);
  head.set(beast::http::field::content_type, "text/event-stream");
  head.set(beast::http::field::cache_control, "no-store");
  head.set("X-Accel-Buffering", "no");
  head.keep_alive(false);  // The connection ends with the turn.
  http::AddSecurityHeaders(head.base());
  if (!request_id_.empty()) head.set(http::kRequestIdHeader, request_id_);
  if (chunked_) head.chunked(true);
  beast::http::response_serializer<beast::http::empty_body> serializer(head);
  error_code ec;
  stream_.expires_after(kFrameWriteTimeout);
  co_await beast::http::async_write_header(stream_, serializer, AwaitToken(ec));
  stream_.expires_never();
  if (ec) Break();
  co_return !ec;
}

void SseChannel::Push(std::string_view event, const nlohmann::json& data) {
  if (broken_) return;
  queue_.push_back(SseFrame(event, data));
  Pump();
}

void SseChannel::Pump() {
  if (writing_ || broken_ || queue_.empty()) return;
  writing_ = true;
  stream_.expires_after(kFrameWriteTimeout);
  auto done = [self = shared_from_this()](error_code ec, size_t) {
    self->writing_ = false;
    self->stream_.expires_never();
    if (ec) {
      self->Break();
      return;
    }
    self->queue_.pop_front();
    if (self->queue_.empty()) {
      self->idle_.cancel();
    } else {
      self->Pump();
    }
  };
  // The front string stays in place until its write completes.
  if (chunked_) {
    net::async_write(stream_, beast::http::make_chunk(net::buffer(queue_.front())),
                     std::move(done));
  } else {
    net::async_write(stream_, net::buffer(queue_.front()), std::move(done));
  }
}

void SseChannel::Break() {
  if (broken_) return;
  broken_ = true;
  queue_.clear();
  idle_.cancel();
  if (on_broken_) on_broken_();
}

net::awaitable<void> SseChannel::Drain() {
  auto keep = shared_from_this();
  while (!broken_ && (writing_ || !queue_.empty())) {
    idle_.expires_after(kFrameWriteTimeout * 2);
    error_code ec;
    co_await idle_.async_wait(AwaitToken(ec));
  }
  error_code ec;
  if (!broken_ && chunked_) {
    stream_.expires_after(kFrameWriteTimeout);
    co_await net::async_write(stream_, beast::http::make_chunk_last(), AwaitToken(ec));
    stream_.expires_never();
  }
  stream_.socket().shutdown(net::ip::tcp::socket::shutdown_both, ec);
}

}  // namespace ensemble::server::assistant
