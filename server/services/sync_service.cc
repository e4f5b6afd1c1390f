#include "server/services/sync_service.h"

#include <charconv>
#include <optional>
#include <string>

#include "core/hub/hub.h"
#include "server/events/poke_channel.h"
#include "server/http/json_response.h"

namespace ensemble::server::services {
namespace {

using core::Status;
using core::platform::LogLevel;
using nlohmann::json;
namespace codes = core::codes;

// Parses `body`; MALFORMED_JSON when it is not JSON or nests too deeply.
core::Result<json> ParseBody(const std::string& body) {
  bool too_deep = false;
  json::parser_callback_t limit_depth = [&too_deep](int depth, json::parse_event_t event, json&) {
    if (depth > kMaxJsonDepth) too_deep = true;
    return !too_deep;  // Stop building values once too deep.
  };
  json parsed = json::parse(body, limit_depth, /*allow_exceptions=*/false);
  if (too_deep) {
    return Status(codes::kMalformedJson,
                  "the body nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  if (parsed.is_discarded()) return Status(codes::kMalformedJson, "the body is not valid JSON");
  return parsed;
}

}  // namespace

SyncService::SyncService(store::StorePool& pool, core::platform::Logger& logger,
                         OnCommit on_commit)
    : pool_(pool), logger_(logger), sync_(core::hub::Config()), on_commit_(std::move(on_commit)) {}

http::StringResponse SyncService::Failure(const Status& status, std::string_view route) {
  if (status.code() == codes::kStorage) {
    logger_.Log(LogLevel::kError, std::string(route) + ": " + status.ToString());
    return http::ErrorResponse(codes::kStorage, "the store is unavailable; try again later");
  }
  if (http::HttpStatusFor(status.code()) == boost::beast::http::status::internal_server_error) {
    logger_.Log(LogLevel::kError, std::string(route) + ": " + status.ToString());
    return http::ErrorResponse(codes::kInternal, "the server failed to handle this request");
  }
  return http::ErrorResponse(status);
}

boost::asio::awaitable<http::Response> SyncService::Push(const http::Request& request,
                                                        const http::Target&) {
  auto body = ParseBody(request.body());
  if (!body.ok()) co_return http::ErrorResponse(body.status());
  // The poke is NOTIFY'd in the push's own transaction: PostgreSQL delivers
  // it only if the writes commit, and in the same round trip as COMMIT.
  core::Result<core::sync::PushOutcome> outcome =
      co_await pool_.Run([this, &body](core::store::Database& db) -> core::Result<core::sync::PushOutcome> {
        core::store::Transaction txn(db);
        ENSEMBLE_RETURN_IF_ERROR(txn.status());
        ENSEMBLE_ASSIGN_OR_RETURN(core::sync::PushOutcome done, sync_.Apply(db, *body, nullptr));
        if (done.version > 0) ENSEMBLE_RETURN_IF_ERROR(events::NotifyPoke(db, done.version));
        ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
        return done;
      });
  if (!outcome.ok()) co_return Failure(outcome.status(), "push");
  if (outcome->version > 0 && on_commit_) on_commit_(outcome->version);
  co_return http::JsonResponse(boost::beast::http::status::ok, outcome->response);
}

boost::asio::awaitable<http::Response> SyncService::Pull(const http::Request&,
                                                        const http::Target& target) {
  std::string client_id(target.Param("clientId").value_or(""));
  int64_t cursor = 0;
  if (auto text = target.Param("cursor")) {
    auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), cursor);
    if (ec != std::errc() || end != text->data() + text->size()) {
      co_return http::ErrorResponse(codes::kInvalidArgument, "cursor must be an integer");
    }
  }
  core::Result<json> result = co_await pool_.Run(
      [this, &client_id, cursor](core::store::Database& db) { return sync_.Pull(db, client_id, cursor); });
  if (!result.ok()) co_return Failure(result.status(), "pull");
  co_return http::JsonResponse(boost::beast::http::status::ok, *result);
}

}  // namespace ensemble::server::services
