// ContextService: the shared retrieval routes of spec 004 §5, over
// core/context/search_tool_runs.h:
//   GET /api/context/search?spaceId=S&q=Q[&kinds=task,page][&limit=N]
//       [&near=ensemble://task/ID]
//       -> {results: [{kind, id, title, status?, due?, snippet?, ...}], total,
//          notKept?}, ranked as the assistant's hub_search_work ranks them
//          and as the app's search box does offline on its replica.
//   GET /api/context/item?spaceId=S&ref=ensemble://task/ID (or kind, id)
//       [&rel=R][&limit=N][&offset=M]
//       -> {record, relations: {rel: {items, total, offset, nextOffset?}}}:
//          the context graph (core/context/neighbors.h); a record in Trash
//          or another space is 404 NOT_FOUND.
// Read-only; a space the caller is not in answers 404 NOT_FOUND, as one that
// does not exist; bad parameters are 400 INVALID_ARGUMENT.
//
// Thread-safety: handlers may run concurrently.

#ifndef ENSEMBLE_SERVER_SERVICES_CONTEXT_SERVICE_H_
#define ENSEMBLE_SERVER_SERVICES_CONTEXT_SERVICE_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
#include <functional>

#include "core/platform/env.h"
#include "core/tools/tool_context.h"
#include "server/services/json_route.h"
#include "server/store/store_pool.h"

namespace ensemble::server::services {

class ContextService {
 public:
  // Everything given must outlive the service.
  ContextService(store::StorePool& pool, core::platform::Env env);

  boost::asio::awaitable<core::Result<nlohmann::json>> Search(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Item(RouteCall& call);

 private:
  // Runs `read` on a tool context of the call's space and caller.
  boost::asio::awaitable<core::Result<nlohmann::json>> Read(
      RouteCall& call, std::function<core::Result<nlohmann::json>(core::tools::ToolContext&)> read);

  store::StorePool& pool_;
  core::platform::Env env_;
};

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_CONTEXT_SERVICE_H_
