// Config: the server's settings, read from environment variables
// (ENSEMBLE_HTTP_ADDR, ENSEMBLE_PORT, ENSEMBLE_DATA_DIR, ENSEMBLE_DATABASE_URL,
// ENSEMBLE_WEB_ROOT, ENSEMBLE_WASM_DIR, ENSEMBLE_MAX_EVENT_SUBSCRIBERS, ENSEMBLE_MAX_CONNECTIONS,
// ENSEMBLE_STORE_CONNECTIONS, ENSEMBLE_ACCOUNTS, ENSEMBLE_SIGNUP,
// ENSEMBLE_COOKIE_SECURE, ENSEMBLE_ALLOWED_HOSTS, ENSEMBLE_LOCAL_ON_NETWORK,
// ENSEMBLE_PRIVATE_LINKS, ENSEMBLE_SECRET_KEY and the operator's model:
// ENSEMBLE_MODEL_PROVIDER, ENSEMBLE_MODEL_BASE_URL, ENSEMBLE_MODEL,
// ENSEMBLE_MODEL_API_KEY, ENSEMBLE_MODEL_CALL_TIMEOUT_MS) with defaults that run a developer server
// from the repository root.
//
// Two modes:
//   local (default)  one person on their own machine, no sign-in: today's
//                    trusted behaviour (the sync routes may touch every
//                    space; settings belong to the one local account), and
//                    the operator's model variables serve that person.
//   accounts         ENSEMBLE_ACCOUNTS=on: people sign up and sign in
//                    (/api/auth/*); the sync, events and settings routes
//                    need a session and act as its account, within the
//                    spaces it is a member of. The operator's model
//                    variables are never lent to an account (spec 000 §5).
//
// database_url, secret_key, metrics_token and operator_model.api_key are
// secrets: never log
// them or put them in a message.
//
// Thread-safety: a plain value; read-only once built.

#ifndef ENSEMBLE_SERVER_CONFIG_H_
#define ENSEMBLE_SERVER_CONFIG_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/assistant/running_turns.h"
#include "core/base/status.h"
#include "core/model/model_timeout.h"
#include "core/routines/routine_runs.h"
#include "server/events/event_stream.h"
#include "server/events/poke_hub.h"
#include "server/http/listener.h"

namespace ensemble::server {

inline constexpr char kDefaultHttpAddr[] = "127.0.0.1";
inline constexpr uint16_t kDefaultPort = 8080;
inline constexpr char kDefaultDataDir[] = ".data";
inline constexpr char kDefaultWebRoot[] = "web-shell";
inline constexpr char kDefaultWasmDir[] = "build/wasm/wasm";
// Where the wasm build leaves the web shell's precompressed copies.
inline constexpr char kDefaultWebCompressedDir[] = "build/wasm/web-shell";
// PostgreSQL connections (and store worker threads) per server process: a
// request mostly waits on the store, so a few more than the cores keep both
// busy. The embedded SQLite store always has one.
inline constexpr size_t kDefaultStoreConnections = 4;
inline constexpr size_t kMaxStoreConnections = 64;

// The operator's own model, from the environment. Used only in local mode.
struct OperatorModel {
  std::string provider;  // ENSEMBLE_MODEL_PROVIDER ("openai" when only a key or URL is set).
  std::string base_url;  // ENSEMBLE_MODEL_BASE_URL
  std::string model;     // ENSEMBLE_MODEL
  std::string api_key;   // ENSEMBLE_MODEL_API_KEY (a secret)

  bool configured() const { return !base_url.empty() || !model.empty() || !api_key.empty(); }
};

struct Config {
  std::string http_addr = kDefaultHttpAddr;
  uint16_t port = kDefaultPort;  // 0 picks a free port (tests).
  std::string data_dir = kDefaultDataDir;
  std::string database_url;  // Empty: the embedded SQLite store in data_dir.
  std::string web_root = kDefaultWebRoot;
  std::string wasm_dir = kDefaultWasmDir;
  std::string web_compressed_dir = kDefaultWebCompressedDir;
  // GET /api/events subscribers this process keeps at once.
  size_t max_event_subscribers = events::kMaxEventSubscribers;
  size_t max_connections = http::kMaxConnections;
  // Assistant turns one account runs at once, on every process together.
  size_t max_turns_per_account = core::assistant::kMaxConcurrentTurnsPerAccount;
  // PostgreSQL only: see kDefaultStoreConnections (1..kMaxStoreConnections).
  size_t store_connections = kDefaultStoreConnections;
  // Idle time before an SSE heartbeat (tests shorten it; no variable).
  std::chrono::milliseconds sse_heartbeat = events::kSseHeartbeat;

  // ENSEMBLE_ACCOUNTS=on|off (off: local mode; see the top of this file).
  bool accounts = false;
  // ENSEMBLE_PRIVATE_LINKS=on|off: whether an address a person supplies (a
  // connected app's link, their own model base URL) may point to a loopback
  // or private network address. Default: on in local mode
  // (the person's own machine and network), off in accounts mode, where a
  // person must not make the server read its own network.
  bool private_links = true;
  // ENSEMBLE_SIGNUP=first|open, accounts mode only. first (default): only the
  // first account may sign up (the operator's own); later sign-ups are
  // refused with FORBIDDEN. open: anyone who reaches the server may.
  bool open_signup = false;
  // ENSEMBLE_COOKIE_SECURE=on|off: add Secure to the session cookie, and
  // name it "__Host-ensemble_session". Turn it on whenever the server is
  // reached over https.
  bool secure_cookies = false;
  // ENSEMBLE_ALLOWED_HOSTS: comma-separated host names (or addresses) this
  // server answers for besides the loopback ones and the address it binds;
  // a request naming any other Host is refused (server/http/request_guard.h).
  std::vector<std::string> allowed_hosts;
  // ENSEMBLE_LOCAL_ON_NETWORK=on|off: local mode trusts whoever connects, so
  // it refuses to listen on an address other machines reach unless this is
  // on; then every start prints a warning.
  bool local_on_network = false;
  // ENSEMBLE_SECRET_KEY: base64 of 32 bytes that encrypts saved secrets
  // (server/credentials/secret_box.h). Empty: <data_dir>/secret.key, made on
  // first run. Processes sharing a PostgreSQL database need the same key.
  std::string secret_key;
  // ENSEMBLE_METRICS_TOKEN: GET /metrics asks for "Authorization: Bearer
  // <this>". Empty: it answers only clients on this machine (loopback).
  std::string metrics_token;
  OperatorModel operator_model;
  // ENSEMBLE_MODEL_CALL_TIMEOUT_MS: how long one model call may wait,
  // clamped to 30 s .. 30 min (core/model/model_timeout.h). Tests set a
  // shorter limit here directly, as a caller's limit.
  std::chrono::milliseconds model_call_timeout = core::model::kDefaultModelCallTimeout;
  // How often routines that fell due are looked for (tests check sooner).
  std::chrono::milliseconds routine_check_interval{core::routines::kRoutineCheckIntervalMs};
};

// Returns the value of a variable, or nullptr when it is unset.
using EnvLookup = std::function<const char*(const char* name)>;

// Builds a Config from `lookup` (std::getenv by default); INVALID_ARGUMENT
// names the variable that does not parse.
core::Result<Config> ConfigFromEnv(const EnvLookup& lookup = nullptr);

}  // namespace ensemble::server

#endif  // ENSEMBLE_SERVER_CONFIG_H_
