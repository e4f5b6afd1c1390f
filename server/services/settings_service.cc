#include "server/services/settings_service.h"

#include <optional>
#include <string>

#include "core/accounts/account_settings.h"
#include "core/assistant/hub_tools.h"
#include "core/hub/hub_tools.h"
#include "core/model/model_catalog.h"

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

net::awaitable<Result<json>> SettingsService::GetSettings(RouteCall& call) {
  ENSEMBLE_CO_ASSIGN_OR_RETURN(core::accounts::AccountSettings settings,
                               co_await pool_.Run([&call](core::store::Database& db) {
                                 return core::accounts::GetAccountSettings(db,
                                                                           call.caller.account_id);
                               }));
  json out = core::accounts::AccountSettingsJson(settings);
  // What the app offers beside the saved values: every write area the
  // assistant can act in (one turned off stays, so it can be turned on
  // again); an area it cannot write in yet is not a choice.
  json areas = json::array();
  for (std::string_view area : core::assistant::RunnableWriteAreas(core::hub::HubToolRegistry(),
                                                                   core::accounts::WriteAreas())) {
    areas.push_back(std::string(area));
  }
  out["choices"] = {{"writeAreas", std::move(areas)}};
  co_return out;
}

net::awaitable<Result<json>> SettingsService::PatchSettings(RouteCall& call) {
  ENSEMBLE_CO_ASSIGN_OR_RETURN(json patch, call.Body());
  const int64_t now = env_.clock->NowMillis();
  ENSEMBLE_CO_ASSIGN_OR_RETURN(core::accounts::AccountSettings settings,
                               co_await pool_.Run([&call, &patch, now](core::store::Database& db) {
                                 return core::accounts::PatchAccountSettings(
                                     db, call.caller.account_id, patch, now);
                               }));
  co_return core::accounts::AccountSettingsJson(settings);
}

net::awaitable<Result<json>> SettingsService::GetModel(RouteCall& call) {
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::optional<ModelCredentialsView> view,
                               co_await pool_.Run([this, &call](core::store::Database& db) {
                                 return credentials_.Describe(db, call.caller.account_id);
                               }));
  co_return ViewJson(view);
}

net::awaitable<Result<json>> SettingsService::PutModel(RouteCall& call) {
  ENSEMBLE_CO_ASSIGN_OR_RETURN(json body,
                               call.ObjectBody({"provider", "baseUrl", "model", "apiKey"}));
  core::accounts::ModelSettings settings;
  for (auto [key, out] :
       {std::pair{"provider", &settings.provider}, std::pair{"baseUrl", &settings.base_url},
        std::pair{"model", &settings.model}}) {
    ENSEMBLE_CO_RETURN_IF_ERROR(kBodyFields.ReadText(body, key, "", {}, out));
  }
  // apiKey: absent keeps the key, null removes it, a string replaces it.
  KeyChange change = KeyChange::kKeep;
  std::string new_key;
  if (body.contains("apiKey")) {
    change = body["apiKey"].is_null() ? KeyChange::kRemove : KeyChange::kReplace;
    ENSEMBLE_CO_RETURN_IF_ERROR(kBodyFields.ReadText(
        body, "apiKey", "", {.required = false, .allow_null = true}, &new_key));
  }
  const int64_t now = env_.clock->NowMillis();
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      std::optional<ModelCredentialsView> view,
      co_await pool_.RunInTransaction(
          [&](core::store::Database& db) -> Result<std::optional<ModelCredentialsView>> {
            ENSEMBLE_RETURN_IF_ERROR(
                credentials_.Save(db, call.caller.account_id, settings, change, new_key, now));
            return credentials_.Describe(db, call.caller.account_id);
          }));
  co_return ViewJson(view);
}

net::awaitable<Result<json>> SettingsService::DeleteModel(RouteCall& call) {
  ENSEMBLE_CO_ASSIGN_OR_RETURN(bool deleted,
                               co_await pool_.Run([this, &call](core::store::Database& db) {
                                 return credentials_.Remove(db, call.caller.account_id);
                               }));
  co_return json{{"deleted", deleted}};
}

}  // namespace ensemble::server::services
