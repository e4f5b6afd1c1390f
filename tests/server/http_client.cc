#include "tests/server/http_client.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

namespace ensemble::testing {

namespace net = boost::asio;
namespace bhttp = boost::beast::http;
using net::ip::tcp;

nlohmann::json HttpReply::json() const {
  auto parsed = nlohmann::json::parse(body(), nullptr, /*allow_exceptions=*/false);
  return parsed.is_discarded() ? nlohmann::json() : parsed;
}

std::string HttpReply::error_code() const {
  nlohmann::json j = json();
  if (!j.is_object() || !j.contains("error") || !j["error"].is_object() ||
      !j["error"].contains("code") || !j["error"]["code"].is_string()) {
    return "";
  }
  return j["error"]["code"].get<std::string>();
}

HttpConnection::HttpConnection(uint16_t port) : socket_(ioc_) {
  boost::system::error_code ec;
  socket_.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
  if (ec) {
    socket_.close(ec);
    return;
  }
  timeval tv{kClientTimeoutSeconds, 0};
  setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  setsockopt(socket_.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

HttpReply HttpConnection::Send(bhttp::verb method, const std::string& target,
                               const std::string& body, const std::string& content_type,
                               const HttpHeaders& headers, std::string_view method_name) {
  HttpReply reply;
  if (!socket_.is_open()) {
    reply.error = "not connected";
    return reply;
  }
  bhttp::request<bhttp::string_body> req(method == bhttp::verb::unknown ? bhttp::verb::get : method,
                                         target, 11);
  if (!method_name.empty()) req.method_string(method_name);
  req.set(bhttp::field::host, "127.0.0.1");
  for (const auto& [name, value] : headers) {
    if (name.other.empty()) {
      req.set(name.known, value);
    } else {
      req.set(name.other, value);
    }
  }
  if (!body.empty()) {
    req.set(bhttp::field::content_type, content_type);
    req.body() = body;
  }
  req.prepare_payload();
  boost::system::error_code ec;
  bhttp::write(socket_, req, ec);
  // Still read on a write error: the server may have answered (413) and
  // stopped reading before the whole body was sent.
  std::string write_error = ec ? ec.message() : "";
  boost::beast::flat_buffer buffer;
  bhttp::response_parser<bhttp::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  if (method == bhttp::verb::head) parser.skip(true);
  bhttp::read(socket_, buffer, parser, ec);
  if (ec) {
    reply.error = "read: " + ec.message() + (write_error.empty() ? "" : "; write: " + write_error);
    socket_.close(ec);
    return reply;
  }
  reply.message = parser.release();
  reply.status = reply.message.result_int();
  if (!reply.message.keep_alive()) socket_.close(ec);
  return reply;
}

HttpReply HttpClient::Send(bhttp::verb method, const std::string& target,
                           const std::string& body) const {
  HttpConnection connection(port_);
  return connection.Send(method, target, body);
}

HttpReply HttpClient::SendMethod(std::string_view method_name, const std::string& target) const {
  HttpConnection connection(port_);
  return connection.Send(bhttp::verb::unknown, target, "", "application/json", {}, method_name);
}

HttpReply HttpClient::Get(const std::string& target, const HttpHeaders& headers) const {
  HttpConnection connection(port_);
  return connection.Send(bhttp::verb::get, target, "", "application/json", headers);
}

}  // namespace ensemble::testing
