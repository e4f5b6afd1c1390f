#include "server/services/sync_service.h"

#include <charconv>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/hub/hub.h"
#include "core/sync/authorization.h"
#include "server/events/poke_channel.h"
#include "server/http/json_response.h"

namespace ensemble::server::services {

using core::Status;
using nlohmann::json;
namespace codes = core::codes;

SyncService::SyncService(store::StorePool& pool, core::platform::Env env, OnCommit on_commit)
    : pool_(pool),
      logger_(*env.logger),
      sync_(core::hub::Config(), env.clock),
      on_commit_(std::move(on_commit)) {}

http::StringResponse SyncService::Failure(const Status& status, std::string_view route) {
  return FailureResponse(status, route, logger_);
}

boost::asio::awaitable<http::Response> SyncService::Push(const http::Request& request,
                                                         const http::Target&,
                                                         const std::string* account_id) {
  auto body = ParseJsonBody(request.body());
  if (!body.ok()) co_return http::ErrorResponse(body.status());
  // The poke is NOTIFY'd in the push's own transaction: PostgreSQL delivers
  // it only if the writes commit, and in the same round trip as COMMIT.
  events::Poke poke;
  core::Result<core::sync::PushOutcome> outcome = co_await pool_.RunInTransaction(
      [this, &body, account_id,
       &poke](core::store::Database& db) -> core::Result<core::sync::PushOutcome> {
        ENSEMBLE_ASSIGN_OR_RETURN(core::sync::PushOutcome done, sync_.Apply(db, *body, account_id));
        if (done.version > 0) {
          poke.version = done.version;
          // An account's push pokes only who can read what it wrote; the
          // local person's (no accounts) pokes everyone, which is them.
          if (account_id) {
            ENSEMBLE_ASSIGN_OR_RETURN(
                std::vector<std::string> readers,
                core::sync::ReadersOfChanges(db, core::hub::Config(), done.first_version,
                                             done.version));
            poke.readers = std::make_shared<const std::vector<std::string>>(std::move(readers));
          }
          ENSEMBLE_RETURN_IF_ERROR(events::NotifyPoke(db, poke));
        }
        return done;
      });
  if (!outcome.ok()) co_return Failure(outcome.status(), "push");
  if (poke.version > 0 && on_commit_) on_commit_(poke);
  co_return http::JsonResponse(boost::beast::http::status::ok, outcome->response);
}

boost::asio::awaitable<http::Response> SyncService::Pull(const http::Request&,
                                                         const http::Target& target,
                                                         const std::string* account_id) {
  std::string client_id(target.Param("clientId").value_or(""));
  int64_t cursor = 0;
  if (auto text = target.Param("cursor")) {
    auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), cursor);
    if (ec != std::errc() || end != text->data() + text->size()) {
      co_return http::ErrorResponse(codes::kInvalidArgument, "cursor must be an integer");
    }
  }
  core::Result<json> result =
      co_await pool_.Run([this, &client_id, cursor, account_id](core::store::Database& db) {
        return account_id ? sync_.Pull(db, *account_id, client_id, cursor)
                          : sync_.Pull(db, client_id, cursor);
      });
  if (!result.ok()) co_return Failure(result.status(), "pull");
  co_return http::JsonResponse(boost::beast::http::status::ok, *result);
}

}  // namespace ensemble::server::services
