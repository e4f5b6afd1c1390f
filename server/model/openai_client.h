// OpenAiClient: one OpenAI-compatible provider (OpenAI, Azure OpenAI, Ollama,
// llama.cpp's server, vLLM), reached at its base URL with its key. StreamChat
// POSTs a chat-completions body to <base_url>/chat/completions and streams the
// answer through the core's StreamDecoder, handing each event (text delta,
// whole tool call, finish, usage) to a callback as it arrives.
//
// Every call runs under one limit (spec 000 §5: the clamped
// ENSEMBLE_MODEL_CALL_TIMEOUT_MS, or a caller's shorter one): past it the
// connection is closed and the call ends with MODEL_TIMEOUT and the chat's
// message, keeping the text already streamed. A StopSignal closes the stream
// the same way (CANCELLED). The key is sent only as the Authorization (or
// Azure's api-key) header: it is never logged, and a provider's error that
// quotes it is redacted.
//
// http:// and https:// (OpenSSL, the peer verified against the system's
// certificates, or a given CA file, and the host name).
//
// Given a ModelConnectionPool, a call reuses an idle keep-alive connection to
// the same provider and gives it back once the answer was read to its end; a
// reused connection the provider had closed is replaced by a new one, once,
// as long as no byte of an answer arrived on it.
//
// Thread-safety: a client is immutable once created and may be shared; each
// StreamChat runs on the calling coroutine's executor, which must be
// single-threaded (the server's io_context) or a strand. StopSignal::Stop is
// safe from any thread.

#ifndef ENSEMBLE_SERVER_MODEL_OPENAI_CLIENT_H_
#define ENSEMBLE_SERVER_MODEL_OPENAI_CLIENT_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/model/stream_decoder.h"
#include "core/platform/env.h"
#include "server/model/connection_pool.h"

namespace ensemble::server::model {

// The status line and headers of a provider's response.
inline constexpr uint32_t kMaxResponseHeaderBytes = 64 * 1024;
// A whole streamed answer (the decoder bounds text and arguments further).
inline constexpr uint64_t kMaxResponseBodyBytes = 32 * 1024 * 1024;
// Of an error response only this much is read, for its message.
inline constexpr size_t kMaxErrorBodyBytes = 64 * 1024;
// Bytes handed to the decoder per read at most.
inline constexpr size_t kReadChunkBytes = 16 * 1024;
// A base URL, a key: longer is not a configuration but a mistake.
inline constexpr size_t kMaxBaseUrlBytes = 2048;
inline constexpr size_t kMaxApiKeyBytes = 4096;

enum class KeyHeader {
  kBearer,  // Authorization: Bearer <key> (OpenAI, vLLM, llama.cpp, Ollama).
  kApiKey,  // api-key: <key> (Azure OpenAI).
};

struct ProviderConfig {
  // "https://api.openai.com/v1", "http://127.0.0.1:11434/v1", or Azure's
  // "https://x.openai.azure.com/openai/deployments/d?api-version=2024-10-21"
  // (a query is kept after the path).
  std::string base_url;
  std::string api_key;  // May be empty (a local server). Never logged.
  KeyHeader key_header = KeyHeader::kBearer;
  // PEM certificates trusted besides the system's (a self-hosted provider
  // behind its own CA); empty: the system's only.
  std::string ca_file;
  std::string provider = "openai";  // For logs and error messages.
  // True: connect only to public addresses (a person's own base URL on a
  // shared server; server/outbound/outbound_guard.h).
  bool public_addresses_only = false;
};

// Stops one call in flight; thread-safe and idempotent. Stop before the call
// starts stops it at once.
class StopSignal {
 public:
  void Stop();
  bool stopped() const;

 private:
  friend class OpenAiClient;
  // What Stop does for the call in flight (it must only post, as it runs
  // under the signal's lock); runs at once if already stopped.
  void Attach(std::function<void()> on_stop);
  void Detach();

  mutable std::mutex mu_;
  bool stopped_ = false;
  std::function<void()> on_stop_;
};

struct CallOptions {
  // EffectiveModelCallTimeout(configured, caller's limit).
  std::chrono::milliseconds timeout{std::chrono::minutes(15)};
  // The name people see, for the timeout message ("GPT-6.1 Sol").
  std::string model_name;
};

struct CallResult {
  // OK; MODEL_TIMEOUT (message for the chat); CANCELLED (Stop); MODEL_ERROR
  // (unreachable, HTTP error, error object, cut-off stream); MALFORMED_JSON;
  // BODY_TOO_LARGE.
  core::Status status;
  int http_status = 0;      // 0 when no response arrived.
  std::string retry_after;  // The provider's Retry-After header, if any.
  std::string text;         // Streamed so far: kept on timeout, Stop or error.
  std::vector<core::model::AssembledToolCall> tool_calls;
  std::string finish_reason;
  core::model::Usage usage;
  bool has_usage = false;
};

class OpenAiClient {
 public:
  using OnEvent = std::function<void(const core::model::StreamEvent&)>;

  // INVALID_ARGUMENT for a base URL that is not http(s)://host[:port][/path],
  // a key with control characters or a CA file that cannot be loaded;
  // `logger` and `pool` (may be null: a connection per call) must outlive
  // the client.
  static core::Result<std::unique_ptr<OpenAiClient>> Create(ProviderConfig config,
                                                            core::platform::Logger& logger,
                                                            ModelConnectionPool* pool = nullptr);
  ~OpenAiClient();
  OpenAiClient(const OpenAiClient&) = delete;
  OpenAiClient& operator=(const OpenAiClient&) = delete;

  // Sends `body` (a chat-completions request, core/model/chat_request.h) and
  // streams the answer, calling `on_event` (may be empty) for each event as it
  // is decoded. Never throws; the outcome is in CallResult::status.
  boost::asio::awaitable<CallResult> StreamChat(std::string body, CallOptions options,
                                                OnEvent on_event,
                                                std::shared_ptr<StopSignal> stop = nullptr) const;

  const std::string& host() const { return host_; }
  bool tls() const { return tls_; }

 private:
  struct Call;
  OpenAiClient(ProviderConfig config, core::platform::Logger& logger, ModelConnectionPool* pool);
  // Gives the call a connection: an idle one from the pool (`reused`), or a
  // new one, connected and (for https) verified.
  boost::asio::awaitable<core::Status> Open(Call& call, bool& reused) const;
  boost::asio::awaitable<core::Status> Exchange(Call& call, const std::string& body,
                                                const OnEvent& on_event, CallResult& result) const;
  // `text` with the key cut out, for a provider message that echoes it.
  std::string Redact(std::string text) const;

  ProviderConfig config_;
  core::platform::Logger& logger_;
  bool tls_ = false;
  std::string host_;
  std::string port_;
  std::string target_;  // Path (and query) of chat/completions.
  std::shared_ptr<boost::asio::ssl::context> ssl_;
  ModelConnectionPool* pool_ = nullptr;
  std::string pool_key_;  // Scheme, host, port and CA file.
};

}  // namespace ensemble::server::model

#endif  // ENSEMBLE_SERVER_MODEL_OPENAI_CLIENT_H_
