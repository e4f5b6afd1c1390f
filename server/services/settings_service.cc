#include "server/services/settings_service.h"

#include <optional>
#include <string>

#include "core/accounts/account_settings.h"
#include "core/assistant/hub_tools.h"
#include "core/hub/hub_tools.h"
#include "core/model/model_catalog.h"
#include "server/http/json_response.h"
#include "server/services/json_body.h"

namespace ensemble::server::services {
namespace {

namespace net = boost::asio;
namespace bhttp = boost::beast::http;
namespace codes = core::codes;
using core::Result;
using core::Status;
using credentials::KeyChange;
using credentials::ModelCredentialsView;
using nlohmann::json;

json ViewJson(const std::optional<ModelCredentialsView>& view) {
  if (!view) return {{"configured", false}, {"hasKey", false}};
  return {{"configured", true},
          {"source", credentials::CredentialSourceName(view->source)},
          {"provider", view->settings.provider},
          {"baseUrl", view->settings.base_url},
          {"model", view->settings.model},
          // What the effort setting may be for this model.
          {"efforts",
           core::model::DescribeModel(view->settings.provider, view->settings.model).efforts},
          {"hasKey", view->has_key}};
}

}  // namespace

SettingsService::SettingsService(store::StorePool& pool,
                                 const credentials::CredentialStore& credentials,
                                 core::platform::Env env)
    : pool_(pool), credentials_(credentials), env_(env) {}

net::awaitable<http::Response> SettingsService::GetSettings(const Caller& caller) {
  Result<core::accounts::AccountSettings> settings =
      co_await pool_.Run([&caller](core::store::Database& db) {
        return core::accounts::GetAccountSettings(db, caller.account_id);
      });
  if (!settings.ok()) co_return FailureResponse(settings.status(), "settings", *env_.logger);
  json out = core::accounts::AccountSettingsJson(*settings);
  // What the app offers beside the saved values: every write area the
  // assistant can act in (one turned off stays, so it can be turned on
  // again); an area it cannot write in yet is not a choice.
  json areas = json::array();
  for (std::string_view area : core::assistant::RunnableWriteAreas(core::hub::HubToolRegistry(),
                                                                   core::accounts::WriteAreas())) {
    areas.push_back(std::string(area));
  }
  out["choices"] = {{"writeAreas", std::move(areas)}};
  co_return http::JsonResponse(bhttp::status::ok, out);
}

net::awaitable<http::Response> SettingsService::PatchSettings(const http::Request& request,
                                                              const Caller& caller) {
  auto body = ParseJsonBody(request.body());
  if (!body.ok()) co_return http::ErrorResponse(body.status());
  const json* patch = &*body;
  const int64_t now = env_.clock->NowMillis();
  Result<core::accounts::AccountSettings> settings =
      co_await pool_.Run([&caller, patch, now](core::store::Database& db) {
        return core::accounts::PatchAccountSettings(db, caller.account_id, *patch, now);
      });
  if (!settings.ok()) co_return FailureResponse(settings.status(), "settings", *env_.logger);
  co_return http::JsonResponse(bhttp::status::ok, core::accounts::AccountSettingsJson(*settings));
}

net::awaitable<http::Response> SettingsService::GetModel(const Caller& caller) {
  Result<std::optional<ModelCredentialsView>> view =
      co_await pool_.Run([this, &caller](core::store::Database& db) {
        return credentials_.Describe(db, caller.account_id);
      });
  if (!view.ok()) co_return FailureResponse(view.status(), "settings", *env_.logger);
  co_return http::JsonResponse(bhttp::status::ok, ViewJson(*view));
}

net::awaitable<http::Response> SettingsService::PutModel(const http::Request& request,
                                                         const Caller& caller) {
  auto body = ParseJsonBody(request.body());
  if (!body.ok()) co_return http::ErrorResponse(body.status());
  if (!body->is_object()) {
    co_return http::ErrorResponse(codes::kInvalidArgument,
                                  "the body must be an object with provider, baseUrl and model");
  }
  core::accounts::ModelSettings settings;
  for (auto [key, out] :
       {std::pair{"provider", &settings.provider}, std::pair{"baseUrl", &settings.base_url},
        std::pair{"model", &settings.model}}) {
    auto it = body->find(key);
    if (it == body->end() || !it->is_string()) {
      co_return http::ErrorResponse(codes::kInvalidArgument,
                                    std::string(key) + " is required and must be a string");
    }
    *out = it->get<std::string>();
  }
  KeyChange change = KeyChange::kKeep;
  std::string new_key;
  if (auto it = body->find("apiKey"); it != body->end()) {
    if (it->is_null()) {
      change = KeyChange::kRemove;
    } else if (it->is_string()) {
      change = KeyChange::kReplace;
      new_key = it->get<std::string>();
    } else {
      co_return http::ErrorResponse(codes::kInvalidArgument,
                                    "apiKey must be a string (a new key) or null (no key)");
    }
  }
  const int64_t now = env_.clock->NowMillis();
  Result<std::optional<ModelCredentialsView>> view = co_await pool_.RunInTransaction(
      [&](core::store::Database& db) -> Result<std::optional<ModelCredentialsView>> {
        ENSEMBLE_RETURN_IF_ERROR(
            credentials_.Save(db, caller.account_id, settings, change, new_key, now));
        return credentials_.Describe(db, caller.account_id);
      });
  if (!view.ok()) co_return FailureResponse(view.status(), "settings", *env_.logger);
  co_return http::JsonResponse(bhttp::status::ok, ViewJson(*view));
}

net::awaitable<http::Response> SettingsService::DeleteModel(const Caller& caller) {
  Result<bool> deleted = co_await pool_.Run([this, &caller](core::store::Database& db) {
    return credentials_.Remove(db, caller.account_id);
  });
  if (!deleted.ok()) co_return FailureResponse(deleted.status(), "settings", *env_.logger);
  co_return http::JsonResponse(bhttp::status::ok, {{"deleted", *deleted}});
}

}  // namespace ensemble::server::services
