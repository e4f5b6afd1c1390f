// JSON routes, the shape of most of the API: a handler is a service method
// that takes one RouteCall (the request, its target with the path's named
// parameters, and the signed-in caller) and returns Result<json>. One
// adapter, JsonRouteResponse, turns every such result into the response: the
// body with the call's status (200 unless the handler set another), or the
// error body of its Status, store and internal failures logged in full and
// answered without their details (FailureResponse). App::AddJson binds a route to a
// service method, so no route reads segments by position or builds its own
// error body.
//
// Routes whose answer is not one JSON body (a stream, a file) keep the
// router's own handlers.
//
// Thread-safety: RouteCall refers to the request being served; the rest is
// stateless.

#ifndef ENSEMBLE_SERVER_SERVICES_JSON_ROUTE_H_
#define ENSEMBLE_SERVER_SERVICES_JSON_ROUTE_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/status.h"
#include "core/platform/env.h"
#include "core/text/json_fields.h"
#include "server/http/message.h"
#include "server/http/url.h"
#include "server/services/auth_service.h"

namespace ensemble::server::services {

// The reader of request bodies' fields, so every route words a refusal alike:
// "the body has an unknown key "x"", "name is required", "name must be a
// string".
inline constexpr core::text::JsonFields kBodyFields;

// One request to a JSON route, as its handler sees it.
struct RouteCall {
  const http::Request& request;
  const http::Target& target;
  const Caller& caller;
  // The status of a success: a handler that made something sets 201, one
  // that only queued it 202.
  boost::beast::http::status status = boost::beast::http::status::ok;
  // Headers the response carries, a success or a refusal: the session cookie
  // of a sign-in, the Retry-After of "try again later".
  std::vector<std::pair<boost::beast::http::field, std::string>> headers = {};

  // The body parsed (ParseJsonBody: MALFORMED_JSON when it is not JSON).
  core::Result<nlohmann::json> Body() const;
  // The body parsed as an object whose keys are all in `known`: as Body(),
  // then INVALID_ARGUMENT when it is not an object or names another key.
  core::Result<nlohmann::json> ObjectBody(std::initializer_list<std::string_view> known) const;
  // The path's parameter `name` (":name" in the route), or NOT_FOUND with
  // `missing` when the path has none.
  core::Result<std::string> Param(std::string_view name, std::string_view missing) const;
};

// A JSON route's handler: a service method bound to its service.
using JsonHandler =
    std::function<boost::asio::awaitable<core::Result<nlohmann::json>>(RouteCall& call)>;

// The response for `result`, the outcome of `call`; `route` names it in the
// log.
http::Response JsonRouteResponse(const RouteCall& call, const core::Result<nlohmann::json>& result,
                                 std::string_view route, core::platform::Logger& logger);

}  // namespace ensemble::server::services

// In a coroutine returning Result<...>: co_returns the Status of `expr` (a
// Status or Result) when it is not OK.
#define ENSEMBLE_CO_RETURN_IF_ERROR(expr)    \
  do {                                       \
    ::ensemble::core::Status st_ = (expr);   \
    if (!st_.ok()) co_return std::move(st_); \
  } while (0)

// In a coroutine returning Result<...>: declares `lhs` from the Result
// `expr`, or co_returns its Status.
#define ENSEMBLE_CO_ASSIGN_OR_RETURN(lhs, expr) \
  ENSEMBLE_CO_ASSIGN_OR_RETURN_IMPL_(ENSEMBLE_CONCAT_(co_result_, __LINE__), lhs, expr)
#define ENSEMBLE_CO_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                       \
  if (!tmp.ok()) co_return tmp.status();                   \
  lhs = std::move(tmp).value()

#endif  // ENSEMBLE_SERVER_SERVICES_JSON_ROUTE_H_
