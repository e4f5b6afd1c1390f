#include "server/app.h"

#include <sodium.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/write.hpp>
#include <exception>
#include <string>

#include "server/accounts/session_token.h"
#include "server/await_token.h"
#include "server/events/event_stream.h"
#include "server/http/http_session.h"
#include "server/http/json_response.h"
#include "server/store/open_store.h"

namespace ensemble::server {

using core::Result;
using core::Status;
namespace bhttp = boost::beast::http;

namespace {

constexpr std::string_view kOpenStreamsMetric = "ensemble_event_streams_open";
constexpr std::string_view kOpenStreamsHelp = "GET /api/events streams open now";

}  // namespace

App::App(core::platform::Env env, std::unique_ptr<store::StorePool> pool,
         std::unique_ptr<credentials::SecretBox> secret_box, const Config& config)
    : metrics_token_(config.metrics_token),
      env_(env),
      pool_(std::move(pool)),
      secret_box_(std::move(secret_box)),
      credentials_(*secret_box_, config.operator_model, config.accounts, config.private_links),
      auth_(*pool_, env, config),
      settings_(*pool_, credentials_, env),
      spaces_(*pool_, env, [this](const events::Poke& poke) { pokes_.Publish(poke); }),
      pokes_(config.max_event_subscribers),
      sse_heartbeat_(config.sse_heartbeat),
      sync_(*pool_, env, [this](const events::Poke& poke) { pokes_.Publish(poke); }),
      apply_(
          *pool_, credentials_, env, [this](const events::Poke& poke) { pokes_.Publish(poke); },
          &link_reader_),
      people_(*pool_, env, [this](const events::Poke& poke) { pokes_.Publish(poke); }),
      context_(*pool_, env),
      link_reader_(*secret_box_,
                   connectors::FetchLimits{.allow_private_addresses = config.private_links}),
      connections_(*pool_, *secret_box_, env),
      static_files_(config.web_root, config.wasm_dir, config.web_compressed_dir),
      router_(*env.logger) {}

App::~App() {
  // Work on the hash and store pools ends by posting its result to the
  // io_context, which is destroyed before them (app.h): let that work finish
  // while the io_context exists; the results it queues are dropped with it.
  auth_.WaitForHashes();
  pool_->WaitForJobs();
}

Result<std::unique_ptr<App>> App::Create(const Config& config, core::platform::Env env) {
  if (!env.clock || !env.random || !env.logger) {
    return Status(core::codes::kInternal, "the App needs a clock, a random source and a logger");
  }
  // The key first: a server that could not read its secrets must not start.
  ENSEMBLE_ASSIGN_OR_RETURN(auto secret_box,
                            credentials::SecretBox::Load(config.secret_key, config.data_dir));
  ENSEMBLE_ASSIGN_OR_RETURN(auto pool, store::StorePool::Open(config));
  std::unique_ptr<App> app(new App(env, std::move(pool), std::move(secret_box), config));
  app->model_connections_ = std::make_unique<model::ModelConnectionPool>(app->ioc_.get_executor());
  ENSEMBLE_ASSIGN_OR_RETURN(
      app->assistant_,
      services::AssistantService::Create(
          *app->pool_, app->credentials_, env, config.model_call_timeout,
          [self = app.get()](const events::Poke& poke) { self->pokes_.Publish(poke); },
          app->model_connections_.get()));
  app->assistant_->set_app_reader(&app->link_reader_);
  app->assistant_->set_max_turns_per_account(config.max_turns_per_account);
  app->WireMetrics();
  app->AddRoutes();
  app->router_.SetGuard(http::RequestGuard(config.http_addr, config.allowed_hosts));
  if (config.accounts) {
    // Only a signed-in person may send a large body; a session that turns
    // out not to exist is refused after (401), with at most the usual limit.
    app->router_.SetBodyLimit([secure = config.secure_cookies](const http::Request& header) {
      return accounts::SessionTokenFrom(header[boost::beast::http::field::cookie], secure)
                 ? http::kMaxRequestBodyBytes
                 : http::kMaxUnauthenticatedBodyBytes;
    });
  }
  ENSEMBLE_ASSIGN_OR_RETURN(
      app->listener_, http::Listener::Bind(app->ioc_, config.http_addr, config.port, app->router_,
                                           *env.logger, config.max_connections));
  app->port_ = app->listener_->endpoint().port();
  if (!config.accounts && !app->listener_->endpoint().address().is_loopback()) {
    if (!config.local_on_network) {
      return Status(core::codes::kFailedPrecondition,
                    "local mode trusts everyone who connects, and " + config.http_addr +
                        " is reachable from other machines: listen on 127.0.0.1, turn accounts "
                        "on (ENSEMBLE_ACCOUNTS=on), or set ENSEMBLE_LOCAL_ON_NETWORK=on to "
                        "accept the risk");
    }
    env.logger->Log(core::platform::LogLevel::kWarning,
                    "local mode on " + config.http_addr +
                        " (ENSEMBLE_LOCAL_ON_NETWORK=on): anyone who reaches this address can "
                        "read and change everything, with no sign-in");
  }
  app->listener_->Start();
  if (app->pool_->dialect() == core::store::Dialect::kPostgres) {
    App* self = app.get();
    app->poke_listener_ = std::make_unique<events::PgPokeListener>(
        app->ioc_, config.database_url,
        [self](const events::Poke& poke) { self->pokes_.Publish(poke); }, *env.logger,
        [self](const std::string& turn_id) { self->assistant_->StopLocalTurn(turn_id); });
    app->poke_listener_->Start();
  }
  app->retention_ = std::make_unique<services::RetentionJob>(app->ioc_, *app->pool_, env);
  app->retention_->Start();
  boost::asio::co_spawn(app->ioc_, app->assistant_->BeatRunningTurns(),
                        [logger = env.logger](std::exception_ptr e) {
                          if (e)
                            logger->Log(core::platform::LogLevel::kError,
                                        "running turns heartbeat stopped unexpectedly");
                        });
  boost::asio::co_spawn(
      app->ioc_,
      app->assistant_->RunRoutines(config.accounts ? "" : services::kLocalAccountId,
                                   config.routine_check_interval),
      [logger = env.logger](std::exception_ptr e) {
        if (e) logger->Log(core::platform::LogLevel::kError, "routines stopped unexpectedly");
      });
  return app;
}

void App::WireMetrics() {
  router_.SetMetrics(&metrics_);
  // Generated request ids start with 8 hex digits of this process's own, so
  // the ids of servers behind one proxy do not collide.
  uint8_t prefix[4];
  env_.random->Fill(prefix, sizeof(prefix));
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (uint8_t b : prefix) {
    hex += kHex[b >> 4];
    hex += kHex[b & 15];
  }
  router_.SetRequestIdPrefix(std::move(hex));
  pool_->SetMetrics(metrics_);
  sync_.set_metrics(metrics_);
  assistant_->set_metrics(metrics_);
  metrics_.GetGauge("ensemble_server_start_time_seconds", "When this server process started (Unix)")
      .Set(env_.clock->NowMillis() / 1000);
  // At 0 from the start, so a scrape shows it before the first stream.
  metrics_.GetGauge(kOpenStreamsMetric, kOpenStreamsHelp);
}

http::Response App::ServeMetrics(const http::Request& request, const http::Target& target) const {
  if (!metrics_token_.empty()) {
    const std::string expected = "Bearer " + metrics_token_;
    const std::string_view given = request[bhttp::field::authorization];
    if (given.size() != expected.size() ||
        sodium_memcmp(given.data(), expected.data(), expected.size()) != 0) {
      return http::ErrorResponse(core::codes::kUnauthenticated,
                                 "GET /metrics needs the metrics token (ENSEMBLE_METRICS_TOKEN)");
    }
  } else {
    boost::system::error_code ec;
    auto peer = boost::asio::ip::make_address(target.peer, ec);
    // A dual-stack listener sees IPv4 clients as ::ffff:a.b.c.d.
    if (!ec && peer.is_v6() && peer.to_v6().is_v4_mapped()) {
      peer = boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, peer.to_v6());
    }
    if (ec || !peer.is_loopback()) {
      return http::ErrorResponse(core::codes::kForbidden,
                                 "GET /metrics answers this machine only; set "
                                 "ENSEMBLE_METRICS_TOKEN to scrape it from another");
    }
  }
  http::StringResponse res(bhttp::status::ok, request.version());
  res.set(bhttp::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
  res.set(bhttp::field::cache_control, "no-store");
  res.body() = metrics_.Render();
  res.prepare_payload();
  return res;
}

void App::AddRoutes() {
  router_.Add(
      bhttp::verb::get, "/metrics",
      [this](const http::Request& req, const http::Target& t) { return ServeMetrics(req, t); });
  router_.AddAsync(
      bhttp::verb::get, "/healthz",
      [this](const http::Request&, const http::Target&) -> boost::asio::awaitable<http::Response> {
        // A health check that cannot reach the store is not healthy.
        Status st =
            co_await pool_->Run([](core::store::Database& db) { return db.Exec("SELECT 1"); });
        if (!st.ok()) {
          env_.logger->Log(core::platform::LogLevel::kError, "healthz: " + st.ToString());
          co_return http::ErrorResponse(core::codes::kStorage, "the store is unavailable");
        }
        co_return http::JsonResponse(
            bhttp::status::ok, {{"ok", true}, {"store", store_kind()}, {"pokes", pokes_state()}});
      });
  router_.AddStream("/api/events",
                    [this](boost::beast::tcp_stream& stream, const http::Request& req,
                           const http::Target&) { return ServeEvents(stream, req); });
  AddJson(bhttp::verb::post, "/api/sync/push", "push", Bind(sync_, &services::SyncService::Push));
  AddJson(bhttp::verb::get, "/api/sync/pull", "pull", Bind(sync_, &services::SyncService::Pull));

  AddOpenJson(bhttp::verb::post, "/api/auth/signup", "signup",
              Bind(auth_, &services::AuthService::Signup));
  AddOpenJson(bhttp::verb::post, "/api/auth/login", "login",
              Bind(auth_, &services::AuthService::Login));
  AddOpenJson(bhttp::verb::post, "/api/auth/logout", "logout",
              Bind(auth_, &services::AuthService::Logout));
  AddOpenJson(bhttp::verb::get, "/api/auth/me", "me", Bind(auth_, &services::AuthService::Me));

  AddJson(bhttp::verb::get, "/api/settings", "settings",
          Bind(settings_, &services::SettingsService::GetSettings));
  AddJson(bhttp::verb::patch, "/api/settings", "settings",
          Bind(settings_, &services::SettingsService::PatchSettings));
  AddJson(bhttp::verb::get, "/api/settings/model", "settings",
          Bind(settings_, &services::SettingsService::GetModel));
  AddJson(bhttp::verb::put, "/api/settings/model", "settings",
          Bind(settings_, &services::SettingsService::PutModel));
  AddJson(bhttp::verb::delete_, "/api/settings/model", "settings",
          Bind(settings_, &services::SettingsService::DeleteModel));
  AddAssistantRoutes();
  AddSpaceRoutes();
  AddPeopleRoutes();
  AddConnectionRoutes();
  router_.SetFallback([this](const http::Request& req, const http::Target& t) {
    return static_files_.Serve(req, t);
  });
}

void App::AddSpaceRoutes() {
  using services::SpacesService;
  AddJson(bhttp::verb::get, "/api/spaces", "spaces", Bind(spaces_, &SpacesService::List));
  AddJson(bhttp::verb::post, "/api/spaces", "spaces", Bind(spaces_, &SpacesService::Create));
  AddJson(bhttp::verb::patch, "/api/spaces/:id", "spaces", Bind(spaces_, &SpacesService::Rename));
  AddJson(bhttp::verb::get, "/api/spaces/:id/members", "spaces",
          Bind(spaces_, &SpacesService::Members));
  AddJson(bhttp::verb::put, "/api/spaces/:id/members", "spaces",
          Bind(spaces_, &SpacesService::PutMember));
  AddJson(bhttp::verb::delete_, "/api/spaces/:id/members/:account", "spaces",
          Bind(spaces_, &SpacesService::RemoveMember));
  AddJson(bhttp::verb::delete_, "/api/spaces/:id/invitations/:invitation", "spaces",
          Bind(spaces_, &SpacesService::Withdraw));
  AddJson(bhttp::verb::get, "/api/invitations", "spaces",
          Bind(spaces_, &SpacesService::Invitations));
  AddJson(bhttp::verb::post, "/api/invitations/:id/accept", "spaces",
          Bind(spaces_, &SpacesService::Accept));
  AddJson(bhttp::verb::post, "/api/invitations/:id/decline", "spaces",
          Bind(spaces_, &SpacesService::Decline));
}

void App::AddPeopleRoutes() {
  AddJson(bhttp::verb::get, "/api/people/merge-suggestions", "people",
          Bind(people_, &services::PeopleService::MergeSuggestions));
  AddJson(bhttp::verb::post, "/api/people/:id/merge", "people merge",
          Bind(people_, &services::PeopleService::Merge));
  // Shared retrieval (spec 004 §5): read-only, the caller's spaces only.
  AddJson(bhttp::verb::get, "/api/context/search", "context",
          Bind(context_, &services::ContextService::Search));
  AddJson(bhttp::verb::get, "/api/context/item", "context",
          Bind(context_, &services::ContextService::Item));
}

void App::AddConnectionRoutes() {
  using services::ConnectionsService;
  AddJson(bhttp::verb::get, "/api/connections", "connections",
          Bind(connections_, &ConnectionsService::List));
  AddJson(bhttp::verb::post, "/api/connections", "connections",
          Bind(connections_, &ConnectionsService::Add));
  AddJson(bhttp::verb::delete_, "/api/connections/:id", "connections",
          Bind(connections_, &ConnectionsService::Remove));
}

void App::AddAssistantRoutes() {
  using services::AssistantService;
  AssistantService& a = *assistant_;
  AddJson(bhttp::verb::post, "/api/assistant/conversations", "assistant",
          Bind(a, &AssistantService::CreateConversation));
  AddJson(bhttp::verb::get, "/api/assistant/conversations", "assistant",
          Bind(a, &AssistantService::ListConversations));
  AddJson(bhttp::verb::delete_, "/api/assistant/conversations/:id", "assistant",
          Bind(a, &AssistantService::DeleteConversation));
  AddJson(bhttp::verb::get, "/api/assistant/conversations/:id/messages", "assistant",
          Bind(a, &AssistantService::ListMessages));
  AddJson(bhttp::verb::post, "/api/assistant/conversations/:id/exchanges", "assistant",
          Bind(a, &AssistantService::SaveOfflineExchanges));
  router_.AddStream(bhttp::verb::post, "/api/assistant/conversations/:id/messages",
                    [this](boost::beast::tcp_stream& stream, const http::Request& req,
                           const http::Target& t) { return ServeTurn(stream, req, t); });
  AddJson(bhttp::verb::post, "/api/assistant/turns/:id/stop", "assistant",
          Bind(a, &AssistantService::StopTurn));
  AddJson(bhttp::verb::get, "/api/assistant/activity", "assistant",
          Bind(a, &AssistantService::Activity));
  AddJson(bhttp::verb::post, "/api/assistant/pause", "assistant",
          Bind(a, &AssistantService::Pause));
  AddJson(bhttp::verb::post, "/api/assistant/resume", "assistant",
          Bind(a, &AssistantService::Resume));
  AddJson(bhttp::verb::get, "/api/assistant/approvals", "assistant",
          Bind(a, &AssistantService::ListApprovals));
  using services::ApplyService;
  AddJson(bhttp::verb::post, "/api/assistant/apply", "assistant apply",
          Bind(apply_, &ApplyService::Apply));
  AddJson(bhttp::verb::post, "/api/assistant/undo", "assistant apply",
          Bind(apply_, &ApplyService::Undo));
  AddJson(bhttp::verb::post, "/api/assistant/redo", "assistant apply",
          Bind(apply_, &ApplyService::Redo));
  AddJson(bhttp::verb::post, "/api/assistant/discard", "assistant apply",
          Bind(apply_, &ApplyService::Discard));
}

App::CallerHandler App::ServeJson(std::string route, services::JsonHandler handler) {
  return [this, route = std::move(route), handler = std::move(handler)](
             const http::Request& request, const http::Target& target,
             const services::Caller& caller) -> boost::asio::awaitable<http::Response> {
    services::RouteCall call{request, target, caller};
    core::Result<nlohmann::json> result = co_await handler(call);
    co_return services::JsonRouteResponse(call, result, route, *env_.logger);
  };
}

void App::AddJson(bhttp::verb method, std::string path, std::string route,
                  services::JsonHandler handler) {
  router_.AddAsync(method, std::move(path),
                   AsCaller(ServeJson(std::move(route), std::move(handler))));
}

void App::AddOpenJson(bhttp::verb method, std::string path, std::string route,
                      services::JsonHandler handler) {
  router_.AddAsync(method, std::move(path),
                   [serve = ServeJson(std::move(route), std::move(handler))](
                       const http::Request& request, const http::Target& target) {
                     return serve(request, target, services::kNobody);
                   });
}

http::Router::AsyncHandler App::AsCaller(CallerHandler handler) {
  return [this, handler = std::move(handler)](const http::Request& req, const http::Target& t) {
    return RunAsCaller(handler, req, t);
  };
}

boost::asio::awaitable<http::Response> App::RunAsCaller(CallerHandler handler,
                                                        const http::Request& request,
                                                        const http::Target& target) {
  Result<services::Caller> caller = co_await auth_.Authenticate(request);
  if (!caller.ok()) co_return auth_.Failure(caller.status(), "auth");
  co_return co_await handler(request, target, *caller);
}

boost::asio::awaitable<Result<services::Caller>> App::AuthenticateStream(
    boost::beast::tcp_stream& stream, const http::Request& request, std::string_view route,
    unsigned* refused) {
  // A stream handler must not throw: a failure here is a refusal.
  Result<services::Caller> caller = Status(core::codes::kInternal, "authentication failed");
  try {
    caller = co_await auth_.Authenticate(request);
  } catch (const std::exception& e) {
    env_.logger->Log(core::platform::LogLevel::kError,
                     std::string(route) + " auth threw: " + e.what());
  }
  if (caller.ok()) co_return caller;
  http::StringResponse refusal = auth_.Failure(caller.status(), route);
  refusal.version(request.version());
  refusal.keep_alive(false);
  boost::beast::error_code ec;
  stream.expires_after(events::kSseWriteTimeout);
  co_await bhttp::async_write(stream, refusal, AwaitToken(ec));
  stream.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
  *refused = refusal.result_int();
  co_return caller;
}

boost::asio::awaitable<unsigned> App::ServeTurn(boost::beast::tcp_stream& stream,
                                                const http::Request& request,
                                                const http::Target& target) {
  unsigned refused = 0;
  Result<services::Caller> caller =
      co_await AuthenticateStream(stream, request, "assistant", &refused);
  if (!caller.ok()) co_return refused;
  co_return co_await assistant_->PostMessage(stream, request, target, *caller);
}

boost::asio::awaitable<unsigned> App::ServeEvents(boost::beast::tcp_stream& stream,
                                                  const http::Request& request) {
  std::string account_id;  // Empty in local mode: the one person hears every poke.
  if (auth_.accounts_enabled()) {
    unsigned refused = 0;
    Result<services::Caller> caller =
        co_await AuthenticateStream(stream, request, "events", &refused);
    if (!caller.ok()) co_return refused;
    account_id = caller->account_id;
  }
  metrics::GaugeHold open(&metrics_.GetGauge(kOpenStreamsMetric, kOpenStreamsHelp));
  co_return co_await events::ServeEventStream(stream, request, pokes_, std::move(account_id),
                                              sse_heartbeat_, *env_.logger);
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
