// ContextService: the shared retrieval routes of spec 004 §5, over
// core/context/search_tool_runs.h:
//   GET /api/context/search?spaceId=S&q=Q[&kinds=task,page][&limit=N]
//       -> {results: [{kind, id, title, status?, due?, snippet?, ...}], total,
//          notKept?}, ranked as the assistant's hub_search_work ranks them
//          and as the app's search box does offline on its replica.
// Read-only; a space the caller is not in answers 404 NOT_FOUND, as one that
// does not exist; bad parameters are 400 INVALID_ARGUMENT.
//
// Thread-safety: handlers may run concurrently.

#ifndef ENSEMBLE_SERVER_SERVICES_CONTEXT_SERVICE_H_
#define ENSEMBLE_SERVER_SERVICES_CONTEXT_SERVICE_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>

#include "core/platform/env.h"
#include "server/services/json_route.h"
#include "server/store/store_pool.h"

namespace ensemble::server::services {

class ContextService {
 public:
  // Everything given must outlive the service.
  ContextService(store::StorePool& pool, core::platform::Env env);

  boost::asio::awaitable<core::Result<nlohmann::json>> Search(RouteCall& call);

 private:
  store::StorePool& pool_;
  core::platform::Env env_;
};

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_CONTEXT_SERVICE_H_
