// The app's search (spec 004 §5 "Ranked search"): the search box asks the
// device's replica, so it answers offline, ranked exactly as the server's
// GET /api/context/search (core/context/search_tool_runs.h).

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/context/search_tool_runs.h"
#include "wasm/bindings/json_edge.h"
#include "wasm/bindings/session.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;

// searchWork(spaceId, q, kinds, limit) -> {results, total, notKept?}: kinds
// comma-separated ("" for every kind), limit as text ("" for the default);
// INVALID_ARGUMENT as the route gives it for the same parameters.
std::string SearchWorkJs(val space_arg, val q_arg, val kinds_arg, val limit_arg) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string space_id, StringArg(space_arg, "spaceId"));
    ENSEMBLE_ASSIGN_OR_RETURN(std::string q, StringArg(q_arg, "q"));
    ENSEMBLE_ASSIGN_OR_RETURN(std::string kinds, StringArg(kinds_arg, "kinds"));
    ENSEMBLE_ASSIGN_OR_RETURN(std::string limit, StringArg(limit_arg, "limit"));
    ENSEMBLE_ASSIGN_OR_RETURN(core::context::SearchRequest request,
                              core::context::ParseSearchRequest(q, kinds, limit));
    Session& s = Session::Get();
    ENSEMBLE_RETURN_IF_ERROR(s.CheckOpen());
    core::tools::ToolContext ctx = s.ToolContext();
    ctx.space_id = space_id;
    ENSEMBLE_ASSIGN_OR_RETURN(json found, core::context::SearchWork(ctx, request));
    return std::move(found["data"]);
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_context) { emscripten::function("searchWork", &SearchWorkJs); }

}  // namespace ensemble::wasm
