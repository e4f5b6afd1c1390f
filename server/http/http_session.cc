#include "server/http/http_session.h"

#include <algorithm>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/rfc7230.hpp>
#include <boost/beast/http/write.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "server/await_token.h"
#include "server/http/json_response.h"

namespace ensemble::server::http {
namespace {

namespace net = boost::asio;
using beast::error_code;
using core::platform::LogLevel;

constexpr size_t kDrainChunkBytes = 64 * 1024;
// A refused request's target is logged this far: enough to tell the route,
// never a whole query another site wrote.
constexpr size_t kLoggedTargetChars = 80;

net::awaitable<void> Write(beast::tcp_stream& stream, Response& response, error_code& ec) {
  stream.expires_after(kWriteTimeout);
  co_await std::visit([&](auto& r) { return beast::http::async_write(stream, r, AwaitToken(ec)); },
                      response);
}

// Half-closes, then reads and drops what the peer is still sending, so our
// last response is not lost to a TCP reset when we close with unread data.
net::awaitable<void> CloseAfterDraining(beast::tcp_stream& stream) {
  error_code ec;
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
  stream.expires_after(kDrainTimeout);
  std::vector<char> sink(kDrainChunkBytes);
  size_t total = 0;
  while (!ec && total < kMaxDrainBytes) {
    total += co_await stream.async_read_some(net::buffer(sink), AwaitToken(ec));
  }
}

// The refusal for a request that could not be read, or nullopt when the
// connection just ended (closed, reset, timed out) and nobody is listening.
std::optional<StringResponse> RefusalFor(const error_code& ec, uint64_t body_limit) {
  if (ec == beast::http::error::body_limit) {
    return ErrorResponse(core::codes::kBodyTooLarge,
                         "the request body is larger than " + std::to_string(body_limit) +
                             " bytes" +
                             (body_limit < kMaxRequestBodyBytes ? " (before signing in)" : ""));
  }
  if (ec == beast::http::error::header_limit) {
    return ErrorResponse(core::codes::kInvalidArgument, "the request headers are too large");
  }
  // Other errors of Beast's HTTP parser mean the bytes were not valid HTTP;
  // end_of_stream and partial_message mean the peer closed.
  const auto& parse_errors =
      beast::http::make_error_code(beast::http::error::bad_target).category();
  if (ec.category() == parse_errors && ec != beast::http::error::end_of_stream &&
      ec != beast::http::error::partial_message) {
    return ErrorResponse(core::codes::kInvalidArgument, "malformed HTTP request: " + ec.message());
  }
  return std::nullopt;
}

}  // namespace

net::awaitable<void> RunHttpSession(beast::tcp_stream stream, const Router& router,
                                    core::platform::Logger& logger) {
  beast::flat_buffer buffer;
  error_code ec;
  // Where the client is, for the limits that count by address.
  const net::ip::tcp::endpoint remote = stream.socket().remote_endpoint(ec);
  const std::string peer = ec ? std::string() : remote.address().to_string();
  ec.clear();
  for (;;) {
    beast::http::request_parser<beast::http::string_body> parser;
    parser.body_limit(kMaxRequestBodyBytes);
    parser.header_limit(kMaxRequestHeaderBytes);

    stream.expires_after(kRequestTimeout);
    co_await beast::http::async_read_header(stream, buffer, parser, AwaitToken(ec));
    uint64_t body_limit = kMaxRequestBodyBytes;
    if (!ec) {
      // The parser checked a Content-Length against the limit it had while
      // reading the header; a lower one for this request is checked here,
      // and by the parser for chunks still to come.
      body_limit = std::min(kMaxRequestBodyBytes, router.BodyLimitFor(parser.get(), body_limit));
      parser.body_limit(body_limit);
      if (parser.content_length() && *parser.content_length() > body_limit) {
        ec = beast::http::error::body_limit;
      }
    }
    if (!ec &&
        beast::http::token_list(parser.get()[beast::http::field::expect]).exists("100-continue")) {
      // The body is wanted (it passed the size check at the header): say so,
      // or clients such as curl wait a second before sending it.
      beast::http::response<beast::http::empty_body> go_on(beast::http::status::continue_, 11);
      co_await beast::http::async_write(stream, go_on, AwaitToken(ec));
    }
    if (!ec) co_await beast::http::async_read(stream, buffer, parser, AwaitToken(ec));
    if (ec) {
      if (auto refusal = RefusalFor(ec, body_limit)) {
        refusal->keep_alive(false);
        AddSecurityHeaders(refusal->base());
        Response res = std::move(*refusal);
        co_await Write(stream, res, ec);
        if (!ec) co_await CloseAfterDraining(stream);
      }
      break;
    }

    Request request = parser.release();
    const auto started = std::chrono::steady_clock::now();
    if (std::optional<StringResponse> refusal = router.Refuse(request)) {
      const std::string request_id = router.RequestIdFor(request);
      refusal->set(kRequestIdHeader, request_id);
      router.Record(request, kRefusedRoute, refusal->result_int(), request_id,
                    std::chrono::steady_clock::now() - started);
      refusal->version(request.version());
      refusal->keep_alive(request.keep_alive());
      AddSecurityHeaders(refusal->base());
      const bool keep_alive = refusal->keep_alive();
      Response res = std::move(*refusal);
      co_await Write(stream, res, ec);
      if (ec || !keep_alive) break;
      continue;
    }
    Target stream_target;
    std::string_view stream_route;
    if (const Router::StreamHandler* serve_stream =
            router.FindStream(request, &stream_target, &stream_route)) {
      const auto opened = std::chrono::steady_clock::now();
      const std::string request_id = router.RequestIdFor(request);
      request.set(kRequestIdHeader, request_id);  // The stream's answer echoes it.
      const core::platform::LogField fields[] = {
          core::platform::LogField::Text("request_id", request_id),
          core::platform::LogField::Text("method", std::string(request.method_string())),
          core::platform::LogField::Text("path", stream_target.path.substr(0, kLoggedTargetChars)),
      };
      logger.LogFields(LogLevel::kInfo, "stream", fields);
      const unsigned status = co_await (*serve_stream)(stream, request, stream_target);
      router.RecordStream(request, stream_route, status, request_id,
                          std::chrono::steady_clock::now() - opened);
      break;  // The stream owned the connection to its end.
    }
    Response response = co_await router.Route(request, peer);
    std::visit(
        [&](auto& r) {
          r.version(request.version());
          r.keep_alive(request.keep_alive());
          AddSecurityHeaders(r.base());
        },
        response);
    const bool keep_alive = std::visit([](auto& r) { return r.keep_alive(); }, response);
    co_await Write(stream, response, ec);
    if (ec || !keep_alive) break;
  }
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
}

}  // namespace ensemble::server::http
