// The HTTP message types shared by the session, the router and the services:
// requests arrive whole with a string body; a response has a string body
// (JSON), a file body (static files, sent straight from disk) or no body (HEAD).
//
// Thread-safety: plain values.

#ifndef ENSEMBLE_SERVER_HTTP_MESSAGE_H_
#define ENSEMBLE_SERVER_HTTP_MESSAGE_H_

#include "server/boost_prelude.h"

#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/file_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <string_view>
#include <variant>

namespace ensemble::server::http {

namespace beast = boost::beast;

using Request = beast::http::request<beast::http::string_body>;
using StringResponse = beast::http::response<beast::http::string_body>;
using FileResponse = beast::http::response<beast::http::file_body>;
using EmptyResponse = beast::http::response<beast::http::empty_body>;
using Response = std::variant<StringResponse, FileResponse, EmptyResponse>;

// The header a request id comes in and goes back in.
inline constexpr std::string_view kRequestIdHeader = "X-Request-Id";

// Copies `request`'s request id into an answer's `fields`. A stream writes
// its own answer; the session puts the id it chose into the request first.
inline void EchoRequestId(const Request& request, beast::http::fields& fields) {
  auto it = request.find(kRequestIdHeader);
  if (it != request.end()) fields.set(kRequestIdHeader, it->value());
}

}  // namespace ensemble::server::http

#endif  // ENSEMBLE_SERVER_HTTP_MESSAGE_H_
