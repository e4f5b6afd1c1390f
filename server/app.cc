#include "server/app.h"

#include <boost/asio/co_spawn.hpp>
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

App::App(core::platform::Env env, std::unique_ptr<store::StorePool> pool,
         std::unique_ptr<credentials::SecretBox> secret_box, const Config& config)
    : env_(env),
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
      link_reader_(*secret_box_,
                   connectors::FetchLimits{.allow_private_addresses = config.private_links}),
      connections_(*pool_, *secret_box_, env),
      static_files_(config.web_root, config.wasm_dir),
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

void App::AddRoutes() {
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
  // Local mode's caller is trusted with every space (no account); in
  // accounts mode the push is authorized and the pull filtered for it.
  router_.AddAsync(bhttp::verb::post, "/api/sync/push",
                   AsCaller([this](const http::Request& req, const http::Target& t,
                                   const services::Caller& caller) {
                     return sync_.Push(req, t, caller.local ? nullptr : &caller.account_id);
                   }));
  router_.AddAsync(bhttp::verb::get, "/api/sync/pull",
                   AsCaller([this](const http::Request& req, const http::Target& t,
                                   const services::Caller& caller) {
                     return sync_.Pull(req, t, caller.local ? nullptr : &caller.account_id);
                   }));

  router_.AddAsync(
      bhttp::verb::post, "/api/auth/signup",
      [this](const http::Request& req, const http::Target& t) { return auth_.Signup(req, t); });
  router_.AddAsync(
      bhttp::verb::post, "/api/auth/login",
      [this](const http::Request& req, const http::Target& t) { return auth_.Login(req, t); });
  router_.AddAsync(
      bhttp::verb::post, "/api/auth/logout",
      [this](const http::Request& req, const http::Target& t) { return auth_.Logout(req, t); });
  router_.AddAsync(
      bhttp::verb::get, "/api/auth/me",
      [this](const http::Request& req, const http::Target& t) { return auth_.Me(req, t); });

  router_.AddAsync(
      bhttp::verb::get, "/api/settings",
      AsCaller([this](const http::Request&, const http::Target&, const services::Caller& caller) {
        return settings_.GetSettings(caller);
      }));
  router_.AddAsync(bhttp::verb::patch, "/api/settings",
                   AsCaller([this](const http::Request& req, const http::Target&,
                                   const services::Caller& caller) {
                     return settings_.PatchSettings(req, caller);
                   }));
  router_.AddAsync(
      bhttp::verb::get, "/api/settings/model",
      AsCaller([this](const http::Request&, const http::Target&, const services::Caller& caller) {
        return settings_.GetModel(caller);
      }));
  router_.AddAsync(
      bhttp::verb::put, "/api/settings/model",
      AsCaller([this](const http::Request& req, const http::Target&,
                      const services::Caller& caller) { return settings_.PutModel(req, caller); }));
  router_.AddAsync(
      bhttp::verb::delete_, "/api/settings/model",
      AsCaller([this](const http::Request&, const http::Target&, const services::Caller& caller) {
        return settings_.DeleteModel(caller);
      }));
  AddAssistantRoutes();
  AddSpaceRoutes();
  AddPeopleRoutes();
  AddConnectionRoutes();
  router_.SetFallback([this](const http::Request& req, const http::Target& t) {
    return static_files_.Serve(req, t);
  });
}

void App::AddSpaceRoutes() {
  router_.AddAsync(
      bhttp::verb::get, "/api/spaces",
      AsCaller([this](const http::Request&, const http::Target&, const services::Caller& caller) {
        return spaces_.List(caller);
      }));
  router_.AddAsync(
      bhttp::verb::post, "/api/spaces",
      AsCaller([this](const http::Request& req, const http::Target&,
                      const services::Caller& caller) { return spaces_.Create(req, caller); }));
  router_.AddAsync(
      bhttp::verb::patch, "/api/spaces/:id",
      AsCaller([this](const http::Request& req, const http::Target& t,
                      const services::Caller& caller) { return spaces_.Rename(req, t, caller); }));
  router_.AddAsync(
      bhttp::verb::get, "/api/spaces/:id/members",
      AsCaller([this](const http::Request&, const http::Target& t, const services::Caller& caller) {
        return spaces_.Members(t, caller);
      }));
  router_.AddAsync(bhttp::verb::put, "/api/spaces/:id/members",
                   AsCaller([this](const http::Request& req, const http::Target& t,
                                   const services::Caller& caller) {
                     return spaces_.PutMember(req, t, caller);
                   }));
  router_.AddAsync(
      bhttp::verb::delete_, "/api/spaces/:id/members/:account",
      AsCaller([this](const http::Request&, const http::Target& t, const services::Caller& caller) {
        return spaces_.RemoveMember(t, caller);
      }));
  router_.AddAsync(
      bhttp::verb::delete_, "/api/spaces/:id/invitations/:invitation",
      AsCaller([this](const http::Request&, const http::Target& t, const services::Caller& caller) {
        return spaces_.Withdraw(t, caller);
      }));
  router_.AddAsync(
      bhttp::verb::get, "/api/invitations",
      AsCaller([this](const http::Request&, const http::Target&, const services::Caller& caller) {
        return spaces_.Invitations(caller);
      }));
  router_.AddAsync(
      bhttp::verb::post, "/api/invitations/:id/accept",
      AsCaller([this](const http::Request&, const http::Target& t, const services::Caller& caller) {
        return spaces_.Accept(t, caller);
      }));
  router_.AddAsync(
      bhttp::verb::post, "/api/invitations/:id/decline",
      AsCaller([this](const http::Request&, const http::Target& t, const services::Caller& caller) {
        return spaces_.Decline(t, caller);
      }));
}

void App::AddPeopleRoutes() {
  router_.AddAsync(
      bhttp::verb::get, "/api/people/merge-suggestions",
      AsCaller([this](const http::Request&, const http::Target& t, const services::Caller& caller) {
        return people_.MergeSuggestions(t, caller);
      }));
  router_.AddAsync(
      bhttp::verb::post, "/api/people/:id/merge",
      AsCaller([this](const http::Request& req, const http::Target& t,
                      const services::Caller& caller) { return people_.Merge(req, t, caller); }));
}

void App::AddConnectionRoutes() {
  router_.AddAsync(
      bhttp::verb::get, "/api/connections",
      AsCaller([this](const http::Request&, const http::Target& t, const services::Caller& caller) {
        return connections_.List(t, caller);
      }));
  router_.AddAsync(
      bhttp::verb::post, "/api/connections",
      AsCaller([this](const http::Request& req, const http::Target&,
                      const services::Caller& caller) { return connections_.Add(req, caller); }));
  router_.AddAsync(
      bhttp::verb::delete_, "/api/connections/:id",
      AsCaller([this](const http::Request&, const http::Target& t, const services::Caller& caller) {
        return connections_.Remove(t, caller);
      }));
}

void App::AddAssistantRoutes() {
  router_.AddAsync(bhttp::verb::post, "/api/assistant/conversations",
                   AsCaller([&a = *assistant_](const http::Request& req, const http::Target&,
                                               const services::Caller& caller) {
                     return a.CreateConversation(req, caller);
                   }));
  router_.AddAsync(bhttp::verb::get, "/api/assistant/conversations",
                   AsCaller([&a = *assistant_](const http::Request&, const http::Target& t,
                                               const services::Caller& caller) {
                     return a.ListConversations(t, caller);
                   }));
  router_.AddAsync(bhttp::verb::delete_, "/api/assistant/conversations/:id",
                   AsCaller([&a = *assistant_](const http::Request&, const http::Target& t,
                                               const services::Caller& caller) {
                     return a.DeleteConversation(t, caller);
                   }));
  router_.AddAsync(bhttp::verb::get, "/api/assistant/conversations/:id/messages",
                   AsCaller([&a = *assistant_](const http::Request&, const http::Target& t,
                                               const services::Caller& caller) {
                     return a.ListMessages(t, caller);
                   }));
  router_.AddAsync(bhttp::verb::post, "/api/assistant/conversations/:id/exchanges",
                   AsCaller([&a = *assistant_](const http::Request& req, const http::Target& t,
                                               const services::Caller& caller) {
                     return a.SaveOfflineExchanges(req, t, caller);
                   }));
  router_.AddStream(bhttp::verb::post, "/api/assistant/conversations/:id/messages",
                    [this](boost::beast::tcp_stream& stream, const http::Request& req,
                           const http::Target& t) { return ServeTurn(stream, req, t); });
  router_.AddAsync(bhttp::verb::post, "/api/assistant/turns/:id/stop",
                   AsCaller([&a = *assistant_](const http::Request&, const http::Target& t,
                                               const services::Caller& caller) {
                     return a.StopTurn(t, caller);
                   }));
  router_.AddAsync(
      bhttp::verb::get, "/api/assistant/activity",
      AsCaller([&a = *assistant_](const http::Request&, const http::Target&,
                                  const services::Caller& caller) { return a.Activity(caller); }));
  router_.AddAsync(
      bhttp::verb::post, "/api/assistant/pause",
      AsCaller([&a = *assistant_](const http::Request&, const http::Target&,
                                  const services::Caller& caller) { return a.Pause(caller); }));
  router_.AddAsync(
      bhttp::verb::post, "/api/assistant/resume",
      AsCaller([&a = *assistant_](const http::Request&, const http::Target&,
                                  const services::Caller& caller) { return a.Resume(caller); }));
  router_.AddAsync(bhttp::verb::get, "/api/assistant/approvals",
                   AsCaller([&a = *assistant_](const http::Request&, const http::Target&,
                                               const services::Caller& caller) {
                     return a.ListApprovals(caller);
                   }));
  router_.AddAsync(
      bhttp::verb::post, "/api/assistant/apply",
      AsCaller([this](const http::Request& req, const http::Target&,
                      const services::Caller& caller) { return apply_.Apply(req, caller); }));
  router_.AddAsync(
      bhttp::verb::post, "/api/assistant/undo",
      AsCaller([this](const http::Request& req, const http::Target&,
                      const services::Caller& caller) { return apply_.Undo(req, caller); }));
  router_.AddAsync(
      bhttp::verb::post, "/api/assistant/redo",
      AsCaller([this](const http::Request& req, const http::Target&,
                      const services::Caller& caller) { return apply_.Redo(req, caller); }));
  router_.AddAsync(
      bhttp::verb::post, "/api/assistant/discard",
      AsCaller([this](const http::Request& req, const http::Target&,
                      const services::Caller& caller) { return apply_.Discard(req, caller); }));
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
    boost::beast::tcp_stream& stream, const http::Request& request, std::string_view route) {
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
  co_return caller;
}

boost::asio::awaitable<void> App::ServeTurn(boost::beast::tcp_stream& stream,
                                            const http::Request& request,
                                            const http::Target& target) {
  Result<services::Caller> caller = co_await AuthenticateStream(stream, request, "assistant");
  if (!caller.ok()) co_return;
  co_await assistant_->PostMessage(stream, request, target, *caller);
}

boost::asio::awaitable<void> App::ServeEvents(boost::beast::tcp_stream& stream,
                                              const http::Request& request) {
  std::string account_id;  // Empty in local mode: the one person hears every poke.
  if (auth_.accounts_enabled()) {
    Result<services::Caller> caller = co_await AuthenticateStream(stream, request, "events");
    if (!caller.ok()) co_return;
    account_id = caller->account_id;
  }
  co_await events::ServeEventStream(stream, request, pokes_, std::move(account_id), sse_heartbeat_,
                                    *env_.logger);
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
