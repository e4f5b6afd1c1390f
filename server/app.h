// App: the whole sync server wired together (store, services, router,
// listener) on one io_context. main() runs it; the integration tests run it
// in-process on port 0.
//
// Pokes: each push that applied something is published to the PokeHub, which
// feeds GET /api/events; on PostgreSQL a PgPokeListener also feeds it the
// pokes of every server process sharing the database (LISTEN/NOTIFY).
//
// Access: in local mode every route trusts the caller (one person, no
// sign-in); in accounts mode the sync, events and settings routes need a
// session and act as its account (services/auth_service.h).
//
// One io_context thread serves everything, and store calls run synchronously
// on it. That is simple and correct for the skeleton (one connection, no
// locking, requests serialized); a connection pool and a thread pool come
// with the sync-protocol work.
//
// Observability: GET /metrics (ServeMetrics) renders the Registry every part
// counts in: requests by route (the Router), pushes and mutations (sync),
// store waits (StorePool), open event streams, turns and model calls.
//
// Thread-safety: Run() on one thread; Stop() and port() from any thread.

#ifndef ENSEMBLE_SERVER_APP_H_
#define ENSEMBLE_SERVER_APP_H_

#include "server/boost_prelude.h"

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/platform/env.h"
#include "core/store/database.h"
#include "server/config.h"
#include "server/connectors/link_reader.h"
#include "server/credentials/credential_store.h"
#include "server/credentials/secret_box.h"
#include "server/events/pg_poke_listener.h"
#include "server/events/poke_hub.h"
#include "server/http/listener.h"
#include "server/http/router.h"
#include "server/metrics/metrics.h"
#include "server/model/connection_pool.h"
#include "server/services/apply_service.h"
#include "server/services/assistant_service.h"
#include "server/services/auth_service.h"
#include "server/services/connections_service.h"
#include "server/services/context_service.h"
#include "server/services/json_route.h"
#include "server/services/people_service.h"
#include "server/services/retention_job.h"
#include "server/services/settings_service.h"
#include "server/services/spaces_service.h"
#include "server/services/static_files.h"
#include "server/services/sync_service.h"
#include "server/store/store_pool.h"

namespace ensemble::server {

class App {
 public:
  // Loads the secret key (credentials/secret_box.h), opens and migrates the
  // store, builds the routes and binds the listening socket; nothing is
  // served until Run(). `env` must outlive the App.
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

  // What the assistant's turn loop needs to call a model for an account:
  // run credentials().ResolveModelCredentials on a connection of
  // store_pool().
  const credentials::CredentialStore& credentials() const { return credentials_; }
  store::StorePool& store_pool() { return *pool_; }
  // Who a request acts as (local mode: the local person).
  services::AuthService& auth() { return auth_; }

 private:
  using CallerHandler = std::function<boost::asio::awaitable<http::Response>(
      const http::Request&, const http::Target&, const services::Caller&)>;

  App(core::platform::Env env, std::unique_ptr<store::StorePool> pool,
      std::unique_ptr<credentials::SecretBox> secret_box, const Config& config);
  // Gives the router, the store pool and the services the metrics registry.
  void WireMetrics();
  void AddRoutes();
  void AddAssistantRoutes();
  void AddSpaceRoutes();
  void AddPeopleRoutes();
  void AddConnectionRoutes();
  // A route handler that first authenticates the request (401 without a
  // session in accounts mode) and then runs `handler` as its caller.
  http::Router::AsyncHandler AsCaller(CallerHandler handler);
  // Serves `method` `path` with the JSON route `handler`, as the request's
  // caller (AsCaller); `route` names it in the log.
  void AddJson(boost::beast::http::verb method, std::string path, std::string route,
               services::JsonHandler handler);
  // As AddJson, for a route open to anyone (signing in): no authentication,
  // the caller is services::kNobody.
  void AddOpenJson(boost::beast::http::verb method, std::string path, std::string route,
                   services::JsonHandler handler);
  // Runs the JSON route `handler` for a caller and answers with its result.
  CallerHandler ServeJson(std::string route, services::JsonHandler handler);
  // `method` of `service`, as a JSON route's handler.
  template <typename Service>
  static services::JsonHandler Bind(Service& service,
                                    boost::asio::awaitable<core::Result<nlohmann::json>> (
                                        Service::*method)(services::RouteCall&)) {
    return [&service, method](services::RouteCall& call) { return (service.*method)(call); };
  }
  boost::asio::awaitable<http::Response> RunAsCaller(CallerHandler handler,
                                                     const http::Request& request,
                                                     const http::Target& target);
  // The caller of a streamed request; on failure the refusal has been
  // written, the connection shut and *refused set to the refusal's status.
  boost::asio::awaitable<core::Result<services::Caller>> AuthenticateStream(
      boost::beast::tcp_stream& stream, const http::Request& request, std::string_view route,
      unsigned* refused);
  // POST /api/assistant/conversations/:id/messages (a streamed turn), as
  // the session's account; gives the status answered.
  boost::asio::awaitable<unsigned> ServeTurn(boost::beast::tcp_stream& stream,
                                             const http::Request& request,
                                             const http::Target& target);
  // GET /api/events, behind a session in accounts mode; gives the status
  // answered.
  boost::asio::awaitable<unsigned> ServeEvents(boost::beast::tcp_stream& stream,
                                               const http::Request& request);
  // GET /metrics: the Prometheus text, for the configured bearer token or,
  // without one, for clients on this machine only.
  http::Response ServeMetrics(const http::Request& request, const http::Target& target) const;

  // First: everything below may hold its metrics.
  metrics::Registry metrics_;
  std::string metrics_token_;
  core::platform::Env env_;
  std::unique_ptr<store::StorePool> pool_;
  std::unique_ptr<credentials::SecretBox> secret_box_;
  credentials::CredentialStore credentials_;
  services::AuthService auth_;
  services::SettingsService settings_;
  services::SpacesService spaces_;
  // Before the io_context: SSE sessions unsubscribe as their frames go.
  events::PokeHub pokes_;
  std::chrono::milliseconds sse_heartbeat_;
  services::SyncService sync_;
  services::ApplyService apply_;
  services::PeopleService people_;
  services::ContextService context_;
  // Reads calendar links for the assistant's tools and for Apply.
  connectors::LinkReader link_reader_;
  services::ConnectionsService connections_;
  services::StaticFiles static_files_;
  // Before the io_context: running turns use it.
  std::unique_ptr<services::AssistantService> assistant_;
  http::Router router_;
  // Declared after what its pending sessions use, so it is destroyed (and
  // their coroutine frames with it) first.
  boost::asio::io_context ioc_{1};
  // After the io_context: its idle sockets are closed before it goes.
  std::unique_ptr<model::ModelConnectionPool> model_connections_;
  std::unique_ptr<http::Listener> listener_;
  uint16_t port_ = 0;
  std::unique_ptr<events::PgPokeListener> poke_listener_;  // PostgreSQL only.
  std::unique_ptr<services::RetentionJob> retention_;      // Trash retention.
};

}  // namespace ensemble::server

#endif  // ENSEMBLE_SERVER_APP_H_
