#include "server/services/context_service.h"

#include <functional>
#include <string>

#include "core/context/neighbors.h"
#include "core/context/search_tool_runs.h"
#include "core/hub/hub_tools.h"
#include "core/store/database.h"

namespace ensemble::server::services {

namespace net = boost::asio;
using core::Result;
using nlohmann::json;

ContextService::ContextService(store::StorePool& pool, core::platform::Env env)
    : pool_(pool), env_(env) {}

// A read of the caller's view of `space_id`: the route's tool context.
net::awaitable<Result<json>> ContextService::Read(
    RouteCall& call, std::function<Result<json>(core::tools::ToolContext&)> read) {
  const std::string space_id(call.target.Param("spaceId").value_or(""));
  if (space_id.empty()) co_return core::InvalidArgument("spaceId names the space to read");
  const Caller& caller = call.caller;
  const int64_t now_ms = env_.clock->NowMillis();
  co_return co_await pool_.Run([&](core::store::Database& db) -> Result<json> {
    core::tools::ToolContext ctx = core::hub::NewToolContext();
    ctx.db = &db;
    ctx.space_id = space_id;
    ctx.account_id = caller.local ? std::string() : caller.account_id;
    ctx.now_ms = now_ms;
    return read(ctx);
  });
}

net::awaitable<Result<json>> ContextService::Search(RouteCall& call) {
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      core::context::SearchRequest request,
      core::context::ParseSearchRequest(
          call.target.Param("q").value_or(""), call.target.Param("kinds").value_or(""),
          call.target.Param("limit").value_or(""), call.target.Param("near").value_or("")));
  co_return co_await Read(call, [&](core::tools::ToolContext& ctx) -> Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(json found, core::context::SearchWork(ctx, request));
    return std::move(found["data"]);
  });
}

net::awaitable<Result<json>> ContextService::Item(RouteCall& call) {
  auto param = [&](const char* name) { return call.target.Param(name).value_or(""); };
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      core::context::NeighborsRequest request,
      core::context::ParseNeighborsRequest(param("ref"), param("kind"), param("id"), param("rel"),
                                           param("limit"), param("offset")));
  co_return co_await Read(call, [&](core::tools::ToolContext& ctx) {
    return core::context::ItemNeighbors(ctx, request);
  });
}

}  // namespace ensemble::server::services
