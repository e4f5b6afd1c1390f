// ConnectionsService: Settings → Connections (spec 000 §3 "Connected apps"),
// over core/connections/connection.h:
//   GET    /api/connections?spaceId=S
//          -> {connections: [{id, app, appName, name, status, lastError,
//              createdAt, checkedAt}], apps: [{id, name, category}]}
//   POST   /api/connections {spaceId, app: "calendar-link", name, url}
//          -> 201 {connection}
//   DELETE /api/connections/:id -> {deleted: bool}
// The link is sealed with the SecretBox before it is stored and is never
// returned, logged or put in a message. Connections are their owner's own:
// only a space's owner connects apps to it (403 FORBIDDEN for the other
// roles, 404 NOT_FOUND for a space the caller is not in), and each account
// lists and removes only what it added.
//
// Thread-safety: handlers may run concurrently.

#ifndef ENSEMBLE_SERVER_SERVICES_CONNECTIONS_SERVICE_H_
#define ENSEMBLE_SERVER_SERVICES_CONNECTIONS_SERVICE_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>

#include "core/platform/env.h"
#include "server/credentials/secret_box.h"
#include "server/services/json_route.h"
#include "server/store/store_pool.h"

namespace ensemble::server::services {

class ConnectionsService {
 public:
  // Everything given must outlive the service.
  ConnectionsService(store::StorePool& pool, const credentials::SecretBox& box,
                     core::platform::Env env)
      : pool_(pool), box_(box), env_(env) {}

  boost::asio::awaitable<core::Result<nlohmann::json>> List(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Add(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Remove(RouteCall& call);

 private:
  store::StorePool& pool_;
  const credentials::SecretBox& box_;
  core::platform::Env env_;
};

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_CONNECTIONS_SERVICE_H_
