// Config: the server's settings, read from environment variables
// (ENSEMBLE_HTTP_ADDR, ENSEMBLE_PORT, ENSEMBLE_DATA_DIR, ENSEMBLE_DATABASE_URL,
// ENSEMBLE_WEB_ROOT, ENSEMBLE_WASM_DIR, ENSEMBLE_MAX_EVENT_SUBSCRIBERS,
// ENSEMBLE_STORE_CONNECTIONS) with defaults that run a
// developer server from the repository root.
//
// database_url may hold a password: never log it or put it in a message.
//
// Thread-safety: a plain value; read-only once built.

#ifndef ENSEMBLE_SERVER_CONFIG_H_
#define ENSEMBLE_SERVER_CONFIG_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "core/base/status.h"
#include "server/events/event_stream.h"
#include "server/events/poke_hub.h"

namespace ensemble::server {

inline constexpr char kDefaultHttpAddr[] = "127.0.0.1";
inline constexpr uint16_t kDefaultPort = 8080;
inline constexpr char kDefaultDataDir[] = ".data";
inline constexpr char kDefaultWebRoot[] = "web-shell";
inline constexpr char kDefaultWasmDir[] = "build/wasm/wasm";
// PostgreSQL connections (and store worker threads) per server process: a
// request mostly waits on the store, so a few more than the cores keep both
// busy. The embedded SQLite store always has one.
inline constexpr size_t kDefaultStoreConnections = 4;
inline constexpr size_t kMaxStoreConnections = 64;

struct Config {
  std::string http_addr = kDefaultHttpAddr;
  uint16_t port = kDefaultPort;  // 0 picks a free port (tests).
  std::string data_dir = kDefaultDataDir;
  std::string database_url;  // Empty: the embedded SQLite store in data_dir.
  std::string web_root = kDefaultWebRoot;
  std::string wasm_dir = kDefaultWasmDir;
  // GET /api/events subscribers this process keeps at once.
  size_t max_event_subscribers = events::kMaxEventSubscribers;
  // PostgreSQL only: see kDefaultStoreConnections (1..kMaxStoreConnections).
  size_t store_connections = kDefaultStoreConnections;
  // Idle time before an SSE heartbeat (tests shorten it; no variable).
  std::chrono::milliseconds sse_heartbeat = events::kSseHeartbeat;
};

// Returns the value of a variable, or nullptr when it is unset.
using EnvLookup = std::function<const char*(const char* name)>;

// Builds a Config from `lookup` (std::getenv by default); INVALID_ARGUMENT
// names the variable that does not parse.
core::Result<Config> ConfigFromEnv(const EnvLookup& lookup = nullptr);

}  // namespace ensemble::server

#endif  // ENSEMBLE_SERVER_CONFIG_H_
