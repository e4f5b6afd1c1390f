#include "server/connectors/http_fetch.h"

#include "server/boost_prelude.h"

#include <openssl/ssl.h>

#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <cctype>
#include <memory>
#include <optional>

#include "server/await_token.h"
#include "server/outbound/outbound_guard.h"

namespace ensemble::server::connectors {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using boost::system::error_code;
using core::Result;
using core::Status;

constexpr size_t kMaxHeaderBytes = 16 * 1024;
constexpr std::string_view kUserAgent = "Ensemble/1 (calendar link)";

Status Unreachable(std::string message) {
  return Status(core::codes::kAppUnreachable, std::move(message));
}

struct HttpUrl {
  bool tls = false;
  std::string host;  // Without the brackets of an IPv6 address.
  std::string port;
  std::string target;  // Path and query: the secret part of a link.
};

// The host as a URL or a Host header writes it: an IPv6 address in brackets.
std::string UrlHost(const HttpUrl& url) {
  return url.host.find(':') == std::string::npos ? url.host : "[" + url.host + "]";
}

// The Host header: the port only when it is not the scheme's own.
std::string HostHeader(const HttpUrl& url) {
  const bool default_port = url.port == (url.tls ? "443" : "80");
  return default_port ? UrlHost(url) : UrlHost(url) + ":" + url.port;
}

Result<HttpUrl> ParseHttpUrl(std::string_view url) {
  HttpUrl out;
  if (url.starts_with("https://")) {
    out.tls = true;
    url.remove_prefix(8);
  } else if (url.starts_with("http://")) {
    url.remove_prefix(7);
  } else {
    return Unreachable("the link is not an http(s) address.");
  }
  const size_t path_at = url.find_first_of("/?#");
  const std::string_view authority = url.substr(0, path_at);
  std::string_view rest = path_at == std::string_view::npos ? "/" : url.substr(path_at);
  rest = rest.substr(0, rest.find('#'));
  if (authority.find('@') != std::string_view::npos) {
    return Unreachable("the link holds a user name or password.");
  }
  std::string_view host = authority;
  std::string_view port = out.tls ? "443" : "80";
  if (!authority.empty() && authority.front() == '[') {  // [IPv6]:port
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return Unreachable("the link's address is malformed.");
    host = authority.substr(1, close - 1);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return Unreachable("the link's address is malformed.");
      port = after.substr(1);
    }
  } else if (const size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty()) return Unreachable("the link names no host.");
  if (port.empty() || port.size() > 5 ||
      !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return Unreachable("the link has a bad port.");
  }
  out.host = std::string(host);
  out.port = std::string(port);
  out.target = rest.front() == '?' ? "/" + std::string(rest) : std::string(rest);
  return out;
}

struct Answer {
  unsigned status = 0;
  std::string reason;
  std::string location;
  std::string body;
};

template <typename Stream>
net::awaitable<Result<Answer>> Exchange(Stream& stream, const HttpUrl& url, size_t max_bytes) {
  error_code ec;
  bhttp::request<bhttp::empty_body> request(bhttp::verb::get, url.target, 11);
  request.set(bhttp::field::host, HostHeader(url));
  request.set(bhttp::field::user_agent, std::string(kUserAgent));
  request.set(bhttp::field::accept, "text/calendar, */*;q=0.5");
  request.keep_alive(false);
  co_await bhttp::async_write(stream, request, AwaitToken(ec));
  if (ec) co_return Unreachable(url.host + " closed the connection: " + ec.message() + ".");
  beast::flat_buffer buffer;
  bhttp::response_parser<bhttp::string_body> parser;
  parser.header_limit(kMaxHeaderBytes);
  parser.body_limit(max_bytes);
  const auto too_large = [max_bytes] {
    return Unreachable("the calendar is larger than " + std::to_string(max_bytes / 1024 / 1024) +
                       " MB.");
  };
  // The header first: Beast 1.74 applies body_limit to a declared
  // Content-Length when the header ends, but a single eager async_read took a
  // 64 KB body past a 1 KB limit.
  co_await bhttp::async_read_header(stream, buffer, parser, AwaitToken(ec));
  if (!ec) {
    co_await bhttp::async_read(stream, buffer, parser, AwaitToken(ec));
  }
  if (ec == bhttp::error::body_limit) co_return too_large();
  if (ec == beast::error::timeout) co_return Unreachable(url.host + " did not answer in time.");
  if (ec) co_return Unreachable(url.host + " gave no readable answer: " + ec.message() + ".");
  Answer answer;
  answer.status = parser.get().result_int();
  answer.reason = std::string(parser.get().reason());
  answer.location = std::string(parser.get()[bhttp::field::location]);
  answer.body = std::move(parser.get().body());
  co_return answer;
}

net::awaitable<Result<Answer>> GetOnce(const HttpUrl& url, net::ssl::context& ssl,
                                       std::chrono::steady_clock::time_point deadline,
                                       const FetchLimits& limits) {
  const size_t max_bytes = limits.max_bytes;
  auto ex = co_await net::this_coro::executor;
  error_code ec;
  net::ip::tcp::resolver resolver(ex);
  bool private_target = false;
  // The one guard (server/outbound/outbound_guard.h): connect to exactly the
  // addresses it checked.
  auto endpoints = co_await server::outbound::Resolve(
      resolver, url.host, url.port,
      limits.allow_private_addresses ? server::outbound::Reach::kPrivateToo
                                     : server::outbound::Reach::kPublicOnly,
      core::codes::kAppUnreachable, &private_target);
  if (!endpoints.ok()) co_return endpoints.status();
  beast::tcp_stream tcp(ex);
  tcp.expires_at(deadline);
  co_await tcp.async_connect(*endpoints, AwaitToken(ec));
  if (ec == beast::error::timeout) co_return Unreachable(url.host + " did not answer in time.");
  // A private address's failure names the host only: refused or not
  // listening would tell a port's state.
  if (ec && private_target) co_return Unreachable("could not connect to " + url.host + ".");
  if (ec) co_return Unreachable("could not connect to " + url.host + ": " + ec.message() + ".");
  if (!url.tls) co_return co_await Exchange(tcp, url, max_bytes);
  beast::ssl_stream<beast::tcp_stream> secure(std::move(tcp), ssl);
  if (!SSL_set_tlsext_host_name(secure.native_handle(), url.host.c_str())) {
    co_return Unreachable("could not set the TLS host name for " + url.host + ".");
  }
  secure.set_verify_callback(net::ssl::host_name_verification(url.host));
  co_await secure.async_handshake(net::ssl::stream_base::client, AwaitToken(ec));
  if (ec) {
    co_return Unreachable("the secure connection to " + url.host + " failed: " + ec.message() +
                          ".");
  }
  co_return co_await Exchange(secure, url, max_bytes);
}

net::awaitable<Result<std::string>> FetchOnce(std::string link, FetchLimits limits);

// Writes what the read gave to `out`: co_spawn wants a default-constructible
// result, which Result is not.
net::awaitable<void> Fetch(std::string link, FetchLimits limits,
                           std::shared_ptr<std::optional<Result<std::string>>> out) {
  *out = co_await FetchOnce(std::move(link), limits);
}

net::awaitable<Result<std::string>> FetchOnce(std::string link, FetchLimits limits) {
  net::ssl::context ssl(net::ssl::context::tls_client);
  error_code ec;
  ssl.set_default_verify_paths(ec);
  ssl.set_verify_mode(net::ssl::verify_peer);
  const auto deadline = std::chrono::steady_clock::now() + limits.timeout;
  for (int hop = 0;; ++hop) {
    Result<HttpUrl> url = ParseHttpUrl(link);
    if (!url.ok()) co_return url.status();
    Result<Answer> answer = co_await GetOnce(*url, ssl, deadline, limits);
    if (!answer.ok()) co_return answer.status();
    const unsigned status = answer->status;
    if (status >= 300 && status < 400 && status != 304 && !answer->location.empty()) {
      if (hop == kMaxRedirects) co_return Unreachable(url->host + " redirected too many times.");
      link = ResolveRedirect(link, answer->location);
      continue;
    }
    if (status != 200) {
      co_return Unreachable("the calendar answered " + std::to_string(status) +
                            (answer->reason.empty() ? "" : " " + answer->reason) + ".");
    }
    co_return std::move(answer->body);
  }
}

}  // namespace

std::string ResolveRedirect(std::string_view from, std::string_view location) {
  // A scheme (RFC 3986 §3.1: a letter, then letters, digits, "+", "-", ".",
  // up to a colon) makes the location absolute. Its scheme is lower-cased
  // for the read; another scheme than http(s) is refused there.
  size_t colon = 0;
  while (colon < location.size() &&
         (std::isalpha(static_cast<unsigned char>(location[colon])) ||
          (colon > 0 &&
           (std::isdigit(static_cast<unsigned char>(location[colon])) || location[colon] == '+' ||
            location[colon] == '-' || location[colon] == '.')))) {
    ++colon;
  }
  if (colon > 0 && colon < location.size() && location[colon] == ':') {
    std::string out(location);
    for (size_t i = 0; i < colon; ++i) {
      out[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[i])));
    }
    return out;
  }
  Result<HttpUrl> base = ParseHttpUrl(from);
  // Whatever is not an http(s) address stays as written: the read refuses it.
  if (!base.ok()) return std::string(location);
  const std::string scheme = base->tls ? "https:" : "http:";
  if (location.starts_with("//")) return scheme + std::string(location);
  std::string out = scheme + "//" + UrlHost(*base) + ":" + base->port;
  const std::string_view target = base->target;
  const std::string_view path = target.substr(0, target.find('?'));
  if (location.empty()) return out + std::string(target);
  if (location.front() == '/') return out + std::string(location);
  if (location.front() == '?') return out + std::string(path) + std::string(location);
  if (location.front() == '#') return out + std::string(target);
  // A relative path: beside the document that redirected. Dot segments are
  // left to the server that answers them.
  return out + std::string(path.substr(0, path.rfind('/') + 1)) + std::string(location);
}

net::awaitable<Result<std::string>> HttpGetAsync(std::string url, FetchLimits limits) {
  auto ex = co_await net::this_coro::executor;
  auto out = std::make_shared<std::optional<Result<std::string>>>();
  // A backstop for what the stream's deadline does not cover (name lookup):
  // the read may go on, but its answer is no longer waited for.
  auto backstop = std::make_shared<net::steady_timer>(ex, limits.timeout + std::chrono::seconds(1));
  net::co_spawn(ex, Fetch(std::move(url), limits, out), [out, backstop](std::exception_ptr e) {
    if (e && !*out) *out = Unreachable("the calendar could not be read.");
    backstop->cancel();
  });
  error_code ec;
  if (!*out) co_await backstop->async_wait(AwaitToken(ec));
  if (!*out) co_return Unreachable("the calendar did not answer in time.");
  co_return std::move(**out);
}

Result<std::string> HttpGet(std::string_view url, const FetchLimits& limits) {
  net::io_context ioc(1);
  auto out = std::make_shared<std::optional<Result<std::string>>>();
  net::co_spawn(ioc, Fetch(std::string(url), limits, out), [out](std::exception_ptr e) {
    if (e) *out = Unreachable("the calendar could not be read.");
  });
  // A backstop for what the stream's deadline does not cover (name lookup).
  ioc.run_for(limits.timeout + std::chrono::seconds(1));
  if (!*out) return Unreachable("the calendar did not answer in time.");
  return std::move(**out);
}

}  // namespace ensemble::server::connectors
