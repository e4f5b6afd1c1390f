// ModelConnectionPool: idle keep-alive connections to model providers, kept
// between calls so a turn's next model request, and the next turn, skip the
// TCP connect and the TLS handshake.
//
// Connections are keyed by scheme, host, port and the CA file the peer was
// verified against, and are handed out only on the pool's executor (the
// server's io_context): a socket belongs to the executor it was made on. One
// idle longer than kModelConnectionIdleLimit is closed instead of reused; one
// the provider closed while it sat idle is the client's to notice (it
// connects afresh, once: openai_client.h).
//
// The pool must be destroyed before its executor's io_context.
//
// Thread-safety: Take and Put are safe from any thread.

#ifndef ENSEMBLE_SERVER_MODEL_CONNECTION_POOL_H_
#define ENSEMBLE_SERVER_MODEL_CONNECTION_POOL_H_

#include "server/boost_prelude.h"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ensemble::server::model {

// Longer idle than this and a provider has likely dropped the connection
// (common keep-alive limits are 5 s to a few minutes).
inline constexpr std::chrono::seconds kModelConnectionIdleLimit{30};
// Idle connections kept per provider address; more are closed.
inline constexpr size_t kMaxIdleModelConnectionsPerKey = 8;

// One connection to a provider: plain TCP, or TLS over TCP.
struct ModelConnection {
  boost::beast::tcp_stream& tcp() {
    return plain ? *plain : boost::beast::get_lowest_layer(*secure);
  }
  void Close();

  std::shared_ptr<boost::asio::ssl::context> ssl;  // Outlives `secure`, which uses it.
  std::unique_ptr<boost::beast::tcp_stream> plain;
  std::unique_ptr<boost::beast::ssl_stream<boost::beast::tcp_stream>> secure;
};

class ModelConnectionPool {
 public:
  // `idle_limit`: shorter only in tests.
  explicit ModelConnectionPool(
      boost::asio::any_io_executor executor,
      std::chrono::steady_clock::duration idle_limit = kModelConnectionIdleLimit)
      : executor_(std::move(executor)), idle_limit_(idle_limit) {}
  ~ModelConnectionPool();
  ModelConnectionPool(const ModelConnectionPool&) = delete;
  ModelConnectionPool& operator=(const ModelConnectionPool&) = delete;

  const boost::asio::any_io_executor& executor() const { return executor_; }

  // The most recently used idle connection for `key`, or null.
  std::unique_ptr<ModelConnection> Take(const std::string& key);
  // Keeps `connection` (whose last response was read to its end) for reuse.
  void Put(const std::string& key, std::unique_ptr<ModelConnection> connection);

  size_t idle() const;

 private:
  struct Idle {
    std::unique_ptr<ModelConnection> connection;
    std::chrono::steady_clock::time_point since;
  };
  // Closes what has idled past the limit. Requires mu_.
  void DropExpired(std::chrono::steady_clock::time_point now);

  const boost::asio::any_io_executor executor_;
  const std::chrono::steady_clock::duration idle_limit_;
  mutable std::mutex mu_;
  std::map<std::string, std::vector<Idle>> idle_;  // Oldest first; guarded by mu_.
};

}  // namespace ensemble::server::model

#endif  // ENSEMBLE_SERVER_MODEL_CONNECTION_POOL_H_
