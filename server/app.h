// App: the whole sync server wired together (store, services, router,
// listener) on one io_context. main() runs it; the integration tests run it
// in-process on port 0.
//
// Pokes: each push that applied something is published to the PokeHub, which
// feeds GET /api/events; on PostgreSQL a PgPokeListener also feeds it the
// pokes of every server process sharing the database (LISTEN/NOTIFY).
//
// One io_context thread serves everything, and store calls run synchronously
// on it. That is simple and correct for the skeleton (one connection, no
// locking, requests serialized); a connection pool and a thread pool come
// with the sync-protocol work.
//
// Thread-safety: Run() on one thread; Stop() and port() from any thread.

#ifndef ENSEMBLE_SERVER_APP_H_
#define ENSEMBLE_SERVER_APP_H_

// clang-format off
#include <utility>  // Before Asio: Boost 1.74's awaitable.hpp misses it under GCC 12.
// clang-format on
#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <memory>
#include <string_view>

#include "core/base/status.h"
#include "core/platform/env.h"
#include "core/store/database.h"
#include "server/config.h"
#include "server/events/pg_poke_listener.h"
#include "server/events/poke_hub.h"
#include "server/http/listener.h"
#include "server/http/router.h"
#include "server/services/static_files.h"
#include "server/services/sync_service.h"
#include "server/store/store_pool.h"

namespace ensemble::server {

class App {
 public:
  // Opens and migrates the store, builds the routes and binds the listening
  // socket; nothing is served until Run(). `env` must outlive the App.
  static core::Result<std::unique_ptr<App>> Create(const Config& config, core::platform::Env env);
  ~App();

  // Serves until Stop(); returns on the calling thread.
  void Run();
  // Stops accepting and makes Run() return soon; connections still open are
  // cut. Safe from any thread, and before Run().
  void Stop();

  // The bound port (the real one when the Config asked for 0).
  uint16_t port() const { return port_; }
  // "sqlite" or "postgres".
  std::string_view store_kind() const;
  boost::asio::io_context& io_context() { return ioc_; }
  // "in-process" (SQLite), or "listening" / "connecting" (PostgreSQL).
  std::string_view pokes_state() const;

 private:
  App(core::platform::Env env, std::unique_ptr<store::StorePool> pool, const Config& config);
  void AddRoutes();

  core::platform::Env env_;
  std::unique_ptr<store::StorePool> pool_;
  // Before the io_context: SSE sessions unsubscribe as their frames go.
  events::PokeHub pokes_;
  std::chrono::milliseconds sse_heartbeat_;
  services::SyncService sync_;
  services::StaticFiles static_files_;
  http::Router router_;
  // Declared after what its pending sessions use, so it is destroyed (and
  // their coroutine frames with it) first.
  boost::asio::io_context ioc_{1};
  std::unique_ptr<http::Listener> listener_;
  uint16_t port_ = 0;
  std::unique_ptr<events::PgPokeListener> poke_listener_;  // PostgreSQL only.
};

}  // namespace ensemble::server

#endif  // ENSEMBLE_SERVER_APP_H_
