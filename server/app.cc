#include "server/app.h"

#include <string>

#include "server/events/event_stream.h"
#include "server/http/json_response.h"
#include "server/store/open_store.h"

namespace ensemble::server {

using core::Result;
using core::Status;
namespace bhttp = boost::beast::http;

App::App(core::platform::Env env, std::unique_ptr<store::StorePool> pool, const Config& config)
    : env_(env),
      pool_(std::move(pool)),
      pokes_(config.max_event_subscribers),
      sse_heartbeat_(config.sse_heartbeat),
      sync_(*pool_, *env.logger, [this](int64_t version) { pokes_.Publish(events::Poke{version}); }),
      static_files_(config.web_root, config.wasm_dir),
      router_(*env.logger) {}

App::~App() = default;

Result<std::unique_ptr<App>> App::Create(const Config& config, core::platform::Env env) {
  if (!env.clock || !env.random || !env.logger) {
    return Status(core::codes::kInternal, "the App needs a clock, a random source and a logger");
  }
  ENSEMBLE_ASSIGN_OR_RETURN(auto pool, store::StorePool::Open(config));
  std::unique_ptr<App> app(new App(env, std::move(pool), config));
  app->AddRoutes();
  ENSEMBLE_ASSIGN_OR_RETURN(
      app->listener_,
      http::Listener::Bind(app->ioc_, config.http_addr, config.port, app->router_, *env.logger));
  app->port_ = app->listener_->endpoint().port();
  app->listener_->Start();
  if (app->pool_->dialect() == core::store::Dialect::kPostgres) {
    App* self = app.get();
    app->poke_listener_ = std::make_unique<events::PgPokeListener>(
        app->ioc_, config.database_url,
        [self](int64_t version) { self->pokes_.Publish(events::Poke{version}); }, *env.logger);
    app->poke_listener_->Start();
  }
  return app;
}

void App::AddRoutes() {
  router_.AddAsync(
      bhttp::verb::get, "/healthz",
      [this](const http::Request&, const http::Target&) -> boost::asio::awaitable<http::Response> {
        // A health check that cannot reach the store is not healthy.
        Status st = co_await pool_->Run([](core::store::Database& db) { return db.Exec("SELECT 1"); });
        if (!st.ok()) {
          env_.logger->Log(core::platform::LogLevel::kError, "healthz: " + st.ToString());
          co_return http::ErrorResponse(core::codes::kStorage, "the store is unavailable");
        }
        co_return http::JsonResponse(
            bhttp::status::ok, {{"ok", true}, {"store", store_kind()}, {"pokes", pokes_state()}});
      });
  router_.AddStream(
      "/api/events", [this](boost::beast::tcp_stream& stream, const http::Request& req) {
        return events::ServeEventStream(stream, req, pokes_, sse_heartbeat_, *env_.logger);
      });
  router_.AddAsync(
      bhttp::verb::post, "/api/sync/push",
      [this](const http::Request& req, const http::Target& t) { return sync_.Push(req, t); });
  router_.AddAsync(
      bhttp::verb::get, "/api/sync/pull",
      [this](const http::Request& req, const http::Target& t) { return sync_.Pull(req, t); });
  router_.SetFallback([this](const http::Request& req, const http::Target& t) {
    return static_files_.Serve(req, t);
  });
}

std::string_view App::pokes_state() const {
  if (!poke_listener_) return "in-process";
  return poke_listener_->listening() ? "listening" : "connecting";
}

std::string_view App::store_kind() const { return store::StoreKindName(pool_->dialect()); }

void App::Run() { ioc_.run(); }

void App::Stop() {
  // stop() is thread-safe and also ends a Run() that has not started yet; the
  // acceptor closes with the App.
  ioc_.stop();
}

}  // namespace ensemble::server
