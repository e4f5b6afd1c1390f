// SettingsService: the caller's own settings and model settings.
//   GET    /api/settings -> {"assistant": {"writePolicy", "allowedWriteAreas"}}
//          with defaults filled in (core/accounts/account_settings.h)
//   PATCH  /api/settings {partial object of allowlisted keys} -> as GET
//          merged; an unknown key, a key given twice or a bad value is 400
//          INVALID_ARGUMENT naming the key, and nothing changes
//   GET    /api/settings/model -> {configured, source, provider, baseUrl, model, hasKey}
//   PUT    /api/settings/model {provider, baseUrl, model, apiKey?}
//   DELETE /api/settings/model -> {deleted}
// In PUT, apiKey absent keeps the saved key, a string replaces it (sealed
// before it reaches the store), null removes it. No answer ever holds a key
// or any part of one, and none is logged; errors about a key say what is
// wrong without quoting it. source is "saved", or "environment" for the
// operator's model in local mode.
//
// Thread-safety: handlers may run concurrently.

#ifndef ENSEMBLE_SERVER_SERVICES_SETTINGS_SERVICE_H_
#define ENSEMBLE_SERVER_SERVICES_SETTINGS_SERVICE_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>

#include "core/platform/env.h"
#include "server/credentials/credential_store.h"
#include "server/services/json_route.h"
#include "server/store/store_pool.h"

namespace ensemble::server::services {

class SettingsService {
 public:
  // Everything given must outlive the service.
  SettingsService(store::StorePool& pool, const credentials::CredentialStore& credentials,
                  core::platform::Env env);

  boost::asio::awaitable<core::Result<nlohmann::json>> GetSettings(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> PatchSettings(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> GetModel(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> PutModel(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> DeleteModel(RouteCall& call);

 private:
  store::StorePool& pool_;
  const credentials::CredentialStore& credentials_;
  core::platform::Env env_;
};

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_SETTINGS_SERVICE_H_
