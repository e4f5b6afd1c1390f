// A small blocking HTTP/1.1 client for the server tests, on Beast. Each
// HttpConnection is one TCP connection (keep-alive across Send calls);
// HttpClient opens a fresh connection per request.
//
// Thread-safety: none; use from the test thread.

#ifndef ENSEMBLE_TESTS_SERVER_HTTP_CLIENT_H_
#define ENSEMBLE_TESTS_SERVER_HTTP_CLIENT_H_

#include "server/boost_prelude.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/verb.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace ensemble::testing {

// A socket read or write that takes longer fails the test instead of hanging it.
inline constexpr int kClientTimeoutSeconds = 30;

struct HttpReply {
  int status = 0;  // 0 when no response could be read.
  boost::beast::http::response<boost::beast::http::string_body> message;
  std::string error;  // Why no response, when status is 0.

  const std::string& body() const { return message.body(); }
  std::string header(boost::beast::http::field f) const { return std::string(message[f]); }
  std::string header(std::string_view name) const { return std::string(message[name]); }
  // The body parsed as JSON (null when it is not JSON).
  nlohmann::json json() const;
  // error.code of a JSON error body, or empty.
  std::string error_code() const;
};

// A request header's name: one Beast knows, or any other ("X-Request-Id").
struct HeaderName {
  HeaderName(boost::beast::http::field f) : known(f) {}  // NOLINT: implicit by design.
  HeaderName(const char* name) : other(name) {}          // NOLINT: implicit by design.
  boost::beast::http::field known = boost::beast::http::field::unknown;
  std::string other;
};

// Extra request headers, such as Accept-Encoding or If-None-Match.
using HttpHeaders = std::vector<std::pair<HeaderName, std::string>>;

class HttpConnection {
 public:
  explicit HttpConnection(uint16_t port);
  bool is_open() const { return socket_.is_open(); }

  // Sends one request and reads its response.
  // `method_name`, when not empty, is sent as the method instead of `method`
  // (a method of the client's own making, such as "BREW").
  HttpReply Send(boost::beast::http::verb method, const std::string& target,
                 const std::string& body = "", const std::string& content_type = "application/json",
                 const HttpHeaders& headers = {}, std::string_view method_name = {});

 private:
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::socket socket_;
};

class HttpClient {
 public:
  explicit HttpClient(uint16_t port) : port_(port) {}

  HttpReply Send(boost::beast::http::verb method, const std::string& target,
                 const std::string& body = "") const;
  HttpReply Get(const std::string& target, const HttpHeaders& headers = {}) const;
  // A request with a method Beast does not know, such as "BREW".
  HttpReply SendMethod(std::string_view method_name, const std::string& target) const;
  HttpReply Head(const std::string& target) const {
    return Send(boost::beast::http::verb::head, target);
  }
  HttpReply Post(const std::string& target, const std::string& body) const {
    return Send(boost::beast::http::verb::post, target, body);
  }
  HttpReply PostJson(const std::string& target, const nlohmann::json& body) const {
    return Post(target, body.dump());
  }

 private:
  uint16_t port_;
};

}  // namespace ensemble::testing

#endif  // ENSEMBLE_TESTS_SERVER_HTTP_CLIENT_H_
