#include "server/services/context_service.h"

#include <string>

#include "core/context/search_tool_runs.h"
#include "core/hub/hub_tools.h"
#include "core/store/database.h"

namespace ensemble::server::services {

namespace net = boost::asio;
using core::Result;
using nlohmann::json;

ContextService::ContextService(store::StorePool& pool, core::platform::Env env)
    : pool_(pool), env_(env) {}

net::awaitable<Result<json>> ContextService::Search(RouteCall& call) {
  const std::string space_id(call.target.Param("spaceId").value_or(""));
  if (space_id.empty()) co_return core::InvalidArgument("spaceId names the space to search");
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      core::context::SearchRequest request,
      core::context::ParseSearchRequest(call.target.Param("q").value_or(""),
                                        call.target.Param("kinds").value_or(""),
                                        call.target.Param("limit").value_or("")));
  const Caller& caller = call.caller;
  const int64_t now_ms = env_.clock->NowMillis();
  co_return co_await pool_.Run([&](core::store::Database& db) -> Result<json> {
    core::tools::ToolContext ctx = core::hub::NewToolContext();
    ctx.db = &db;
    ctx.space_id = space_id;
    ctx.account_id = caller.local ? std::string() : caller.account_id;
    ctx.now_ms = now_ms;
    ENSEMBLE_ASSIGN_OR_RETURN(json found, core::context::SearchWork(ctx, request));
    return std::move(found["data"]);
  });
}

}  // namespace ensemble::server::services
