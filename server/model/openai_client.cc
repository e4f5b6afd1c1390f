#include "server/model/openai_client.h"

#include <openssl/ssl.h>

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <cctype>

#include "core/model/model_timeout.h"
#include "server/await_token.h"
#include "server/outbound/outbound_guard.h"

namespace ensemble::server::model {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using beast::error_code;
using core::Status;
using core::model::StreamEvent;
using core::platform::LogLevel;
using tcp = net::ip::tcp;

namespace {

constexpr char kUserAgent[] = "ensemble-server";

Status Invalid(std::string message) {
  return Status(core::codes::kInvalidArgument, std::move(message));
}

bool HasControl(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
}

// Delivers new events to the result and the callback, then forgets them.
void Deliver(std::vector<StreamEvent>& events, const OpenAiClient::OnEvent& on_event,
             CallResult& result) {
  for (auto& e : events) {
    if (e.kind == StreamEvent::Kind::kToolCall) result.tool_calls.push_back(e.call);
    if (on_event) on_event(e);
  }
  events.clear();
}

}  // namespace

// ---- StopSignal ----

// on_stop_ runs under the lock so that Detach, which the call makes before
// it ends, waits for it: a Stop racing the end of a call never posts to an
// executor that may be gone.
void StopSignal::Stop() {
  std::lock_guard<std::mutex> lock(mu_);
  if (stopped_) return;
  stopped_ = true;
  if (on_stop_) on_stop_();
}

bool StopSignal::stopped() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stopped_;
}

void StopSignal::Attach(std::function<void()> on_stop) {
  std::lock_guard<std::mutex> lock(mu_);
  on_stop_ = std::move(on_stop);
  if (stopped_) on_stop_();
}

void StopSignal::Detach() {
  std::lock_guard<std::mutex> lock(mu_);
  on_stop_ = nullptr;
}

// ---- One call's connection ----

// Owned by the call and by whatever may close it (the deadline, Stop), so
// closing after the call returned is harmless.
struct OpenAiClient::Call {
  explicit Call(const net::any_io_executor& ex) : resolver(ex), timer(ex) {}

  void Close() {
    resolver.cancel();
    if (connection) connection->tcp().close();
  }
  bool interrupted() const { return timed_out || stopped; }

  tcp::resolver resolver;
  net::steady_timer timer;
  std::unique_ptr<ModelConnection> connection;
  bool timed_out = false;
  bool stopped = false;
  bool reusable = false;  // The answer was read to its end on a keep-alive connection.
};

// ---- OpenAiClient ----

OpenAiClient::OpenAiClient(ProviderConfig config, core::platform::Logger& logger,
                           ModelConnectionPool* pool)
    : config_(std::move(config)), logger_(logger), pool_(pool) {}

OpenAiClient::~OpenAiClient() = default;

core::Result<std::unique_ptr<OpenAiClient>> OpenAiClient::Create(ProviderConfig config,
                                                                 core::platform::Logger& logger,
                                                                 ModelConnectionPool* pool) {
  if (config.base_url.size() > kMaxBaseUrlBytes || HasControl(config.base_url)) {
    return Invalid("the model provider's base URL is not a URL");
  }
  if (config.api_key.size() > kMaxApiKeyBytes || HasControl(config.api_key)) {
    return Invalid("the model provider's key has characters a key cannot have");
  }
  std::unique_ptr<OpenAiClient> client(new OpenAiClient(std::move(config), logger, pool));
  std::string_view url = client->config_.base_url;
  const std::string_view kHttp = "http://", kHttps = "https://";
  if (url.substr(0, kHttps.size()) == kHttps) {
    client->tls_ = true;
    url.remove_prefix(kHttps.size());
  } else if (url.substr(0, kHttp.size()) == kHttp) {
    url.remove_prefix(kHttp.size());
  } else {
    return Invalid("the model provider's base URL must start with http:// or https://");
  }
  size_t path_at = url.find_first_of("/?");
  std::string_view authority = url.substr(0, path_at);
  std::string_view rest = path_at == std::string_view::npos ? "" : url.substr(path_at);
  if (authority.find('@') != std::string_view::npos) {
    return Invalid("put the model provider's key in its key, not in the base URL");
  }
  std::string_view host = authority, port = client->tls_ ? "443" : "80";
  if (!authority.empty() && authority.front() == '[') {  // [IPv6]:port
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return Invalid("the base URL's IPv6 address is unclosed");
    host = authority.substr(1, close - 1);
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return Invalid("the base URL's host is malformed");
      port = after.substr(1);
    }
  } else if (size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty()) return Invalid("the model provider's base URL names no host");
  if (port.empty() || port.size() > 5 ||
      !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      std::stoi(std::string(port)) == 0 || std::stoi(std::string(port)) > 65535) {
    return Invalid("the model provider's base URL has a bad port");
  }
  client->host_ = std::string(host);
  client->port_ = std::string(port);
  std::string_view path = rest.substr(0, rest.find('?'));
  std::string_view query = rest.substr(path.size());
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  client->target_ = std::string(path) + "/chat/completions" + std::string(query);
  client->pool_key_ = (client->tls_ ? "https " : "http ") + client->host_ + " " + client->port_ +
                      " " + client->config_.ca_file;

  if (client->tls_) {
    client->ssl_ = std::make_shared<net::ssl::context>(net::ssl::context::tls_client);
    error_code ec;
    client->ssl_->set_default_verify_paths(ec);
    if (ec) {
      return Status(core::codes::kInternal,
                    "the system's certificate store could not be loaded: " + ec.message());
    }
    if (!client->config_.ca_file.empty()) {
      client->ssl_->load_verify_file(client->config_.ca_file, ec);
      if (ec)
        return Invalid("the CA file for the model provider could not be loaded: " + ec.message());
    }
    client->ssl_->set_verify_mode(net::ssl::verify_peer);
  }
  return client;
}

std::string OpenAiClient::Redact(std::string text) const {
  const std::string& key = config_.api_key;
  if (key.size() < 4) return text;  // Too short to tell from ordinary words.
  for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at)) {
    text.replace(at, key.size(), "[redacted]");
  }
  return text;
}

net::awaitable<CallResult> OpenAiClient::StreamChat(std::string body, CallOptions options,
                                                    OnEvent on_event,
                                                    std::shared_ptr<StopSignal> stop) const {
  auto ex = co_await net::this_coro::executor;
  if (stop && stop->stopped()) {
    CallResult stopped;
    stopped.status = Status(core::codes::kCancelled, "stopped before the model was asked");
    co_return stopped;
  }
  auto call = std::make_shared<Call>(ex);
  const auto started = std::chrono::steady_clock::now();
  call->timer.expires_after(options.timeout);
  call->timer.async_wait([call](const error_code& ec) {
    if (ec) return;  // Cancelled: the call ended in time.
    call->timed_out = true;
    call->Close();
  });
  if (stop) {
    // Weak: the signal may outlive the call, and the call must end (and be
    // destroyed) on its own executor, never on the thread that said Stop.
    std::weak_ptr<Call> weak = call;
    stop->Attach([weak, ex] {
      net::post(ex, [weak] {
        if (auto live = weak.lock()) {
          live->stopped = true;
          live->Close();
        }
      });
    });
  }

  CallResult result;
  Status status;
  try {
    status = co_await Exchange(*call, body, on_event, result);
  } catch (const std::exception& e) {  // Beast and Asio report by error_code; belt and braces.
    status = Status(core::codes::kInternal, std::string("model call failed: ") + e.what());
  }
  call->timer.cancel();
  if (stop) stop->Detach();
  if (call->timed_out) {
    status = core::model::ModelTimeoutError(options.model_name, options.timeout);
  } else if (call->stopped || (stop && stop->stopped())) {
    status = Status(core::codes::kCancelled, "stopped before the model finished");
  }
  result.status = Status::Ok();
  if (!status.ok()) result.status = Status(status.code(), Redact(status.message()));
  if (call->reusable && !call->interrupted() && pool_) {
    pool_->Put(pool_key_, std::move(call->connection));
  }
  call->Close();

  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - started)
                      .count();
  logger_.Log(result.status.ok() ? LogLevel::kInfo : LogLevel::kWarning,
              "model call to " + config_.provider + " at " + host_ + " (" + options.model_name +
                  "): " + (result.status.ok() ? std::string("OK") : result.status.code()) +
                  (result.http_status ? ", HTTP " + std::to_string(result.http_status) : "") +
                  ", " + std::to_string(result.text.size()) + " bytes of text, " +
                  std::to_string(result.tool_calls.size()) + " tool calls, " + std::to_string(ms) +
                  " ms");
  co_return result;
}

net::awaitable<Status> OpenAiClient::Open(Call& call, bool& reused) const {
  auto ex = co_await net::this_coro::executor;
  reused = false;
  if (pool_ && pool_->executor() == ex) {
    call.connection = pool_->Take(pool_key_);
    reused = call.connection != nullptr;
    if (reused) co_return Status::Ok();
  }
  call.connection = std::make_unique<ModelConnection>();
  if (tls_) {
    call.connection->ssl = ssl_;
    call.connection->secure = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(ex, *ssl_);
  } else {
    call.connection->plain = std::make_unique<beast::tcp_stream>(ex);
  }
  error_code ec;
  const std::string where = host_ + ":" + port_;
  // A public-only client never gets a private address back, so a failure
  // below is a public host's and may say why.
  auto endpoints = co_await outbound::Resolve(
      call.resolver, host_, port_,
      config_.public_addresses_only ? outbound::Reach::kPublicOnly : outbound::Reach::kPrivateToo,
      core::codes::kModelError);
  if (!endpoints.ok()) co_return endpoints.status();
  co_await call.connection->tcp().async_connect(*endpoints, AwaitToken(ec));
  if (ec) {
    co_return Status(core::codes::kModelError,
                     "could not connect to " + where + ": " + ec.message());
  }
  if (auto* secure = call.connection->secure.get()) {
    if (!SSL_set_tlsext_host_name(secure->native_handle(), host_.c_str())) {
      co_return Status(core::codes::kModelError, "could not set the TLS host name for " + where);
    }
    secure->set_verify_callback(net::ssl::host_name_verification(host_));
    co_await secure->async_handshake(net::ssl::stream_base::client, AwaitToken(ec));
    if (ec) {
      co_return Status(core::codes::kModelError,
                       "the TLS handshake with " + where + " failed: " + ec.message());
    }
  }
  co_return Status::Ok();
}

net::awaitable<Status> OpenAiClient::Exchange(Call& call, const std::string& body,
                                              const OnEvent& on_event, CallResult& result) const {
  error_code ec;
  const std::string where = host_ + ":" + port_;
  http::request<http::string_body> request(http::verb::post, target_, 11);
  request.set(http::field::host, host_);
  request.set(http::field::user_agent, kUserAgent);
  request.set(http::field::content_type, "application/json");
  request.set(http::field::accept, "text/event-stream, application/json");
  if (!config_.api_key.empty()) {
    if (config_.key_header == KeyHeader::kApiKey) {
      request.set("api-key", config_.api_key);
    } else {
      request.set(http::field::authorization, "Bearer " + config_.api_key);
    }
  }
  request.keep_alive(pool_ != nullptr);
  request.body() = body;
  request.prepare_payload();

  beast::flat_buffer buffer;
  http::response_parser<http::buffer_body> parser;
  parser.header_limit(kMaxResponseHeaderBytes);
  parser.body_limit(kMaxResponseBodyBytes);
  auto read_header = [&]() -> net::awaitable<void> {
    if (auto* secure = call.connection->secure.get()) {
      co_await http::async_read_header(*secure, buffer, parser, AwaitToken(ec));
    } else {
      co_await http::async_read_header(*call.connection->plain, buffer, parser, AwaitToken(ec));
    }
  };
  std::vector<char> chunk(kReadChunkBytes);
  // One read: the body bytes it gave (possibly none), or sets `ec`.
  auto read_some = [&]() -> net::awaitable<std::string_view> {
    parser.get().body().data = chunk.data();
    parser.get().body().size = chunk.size();
    if (auto* secure = call.connection->secure.get()) {
      co_await http::async_read_some(*secure, buffer, parser, AwaitToken(ec));
    } else {
      co_await http::async_read_some(*call.connection->plain, buffer, parser, AwaitToken(ec));
    }
    if (ec == http::error::need_buffer) ec = {};
    co_return std::string_view(chunk.data(), chunk.size() - parser.get().body().size);
  };

  // A pooled connection the provider closed while it sat idle fails the
  // write or ends before any byte of an answer: that one try is made again
  // on a new connection. Nothing of the answer was seen, so nothing repeats.
  bool sent = false;
  for (bool retried = false;; retried = true) {
    bool reused = false;
    Status opened = co_await Open(call, reused);
    if (!opened.ok()) co_return opened;
    ec = {};
    if (auto* secure = call.connection->secure.get()) {
      co_await http::async_write(*secure, request, AwaitToken(ec));
    } else {
      co_await http::async_write(*call.connection->plain, request, AwaitToken(ec));
    }
    sent = !ec;
    if (sent) co_await read_header();
    const bool dropped_while_idle =
        reused && !retried && !call.interrupted() && ec && buffer.size() == 0 && !parser.got_some();
    if (!dropped_while_idle) break;
    call.connection->Close();
  }
  if (!sent)
    co_return Status(core::codes::kModelError, "could not send to " + where + ": " + ec.message());
  // A declared Content-Length over the limit ends the header read.
  if (ec == http::error::body_limit) {
    co_return Status(
        core::codes::kBodyTooLarge,
        where + " sent an answer over " + std::to_string(kMaxResponseBodyBytes) + " bytes");
  }
  if (ec == http::error::header_limit) {
    co_return Status(
        core::codes::kBodyTooLarge,
        where + " sent headers over " + std::to_string(kMaxResponseHeaderBytes) + " bytes");
  }
  if (ec) {
    co_return Status(core::codes::kModelError, where + " did not answer: " + ec.message());
  }
  const auto& head = parser.get();
  result.http_status = static_cast<int>(head.result_int());
  result.retry_after = std::string(head[http::field::retry_after]);
  std::string content_type(head[http::field::content_type]);
  std::transform(content_type.begin(), content_type.end(), content_type.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });

  if (result.http_status < 200 || result.http_status > 299) {
    std::string error_body;
    while (!parser.is_done() && error_body.size() < kMaxErrorBodyBytes) {
      std::string_view got = co_await read_some();
      error_body.append(got.substr(0, kMaxErrorBodyBytes - error_body.size()));
      if (ec) break;
    }
    std::string message = core::model::ProviderErrorMessage(error_body);
    if (message.empty()) message = std::string(head.reason());
    co_return Status(
        core::codes::kModelError,
        config_.provider + " answered HTTP " + std::to_string(result.http_status) + ": " + message);
  }

  core::model::StreamDecoder decoder;
  std::vector<StreamEvent> events;
  const bool streamed = content_type.find("text/event-stream") != std::string::npos;
  std::string whole;  // A non-streamed answer, decoded at its end.
  Status st;
  auto keep_known = [&] {
    result.text = decoder.text();
    Deliver(events, on_event, result);
    result.finish_reason = decoder.finish_reason();
    result.usage = decoder.usage();
    result.has_usage = decoder.has_usage();
  };
  while (!parser.is_done()) {
    std::string_view got = co_await read_some();
    if (streamed) {
      st = decoder.Feed(got, events);
      keep_known();
      if (!st.ok()) break;
    } else {
      whole.append(got);
    }
    if (ec) break;
  }
  if (!st.ok()) co_return st;
  if (ec == http::error::body_limit) {
    co_return Status(
        core::codes::kBodyTooLarge,
        where + " sent an answer over " + std::to_string(kMaxResponseBodyBytes) + " bytes");
  }
  // A connection closed mid-answer leaves the decoder to say what is missing.
  const bool cut_off = ec == http::error::partial_message || ec == http::error::end_of_stream ||
                       ec == net::error::eof || ec == net::ssl::error::stream_truncated;
  if (ec && !cut_off) {
    co_return Status(core::codes::kModelError,
                     "the answer from " + where + " broke off: " + ec.message());
  }
  if (streamed) {
    st = decoder.Finish(events);
  } else {
    st = decoder.DecodeCompletion(whole, events);
  }
  keep_known();
  call.reusable = st.ok() && !ec && parser.is_done() && parser.keep_alive() && buffer.size() == 0;
  co_return st;
}

}  // namespace ensemble::server::model
