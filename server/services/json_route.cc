#include "server/services/json_route.h"

#include "server/http/json_response.h"
#include "server/services/json_body.h"

namespace ensemble::server::services {

using core::Result;
using core::Status;
using nlohmann::json;

Result<json> RouteCall::Body() const { return ParseJsonBody(request.body()); }

Result<json> RouteCall::ObjectBody(std::initializer_list<std::string_view> known) const {
  ENSEMBLE_ASSIGN_OR_RETURN(json body, Body());
  ENSEMBLE_RETURN_IF_ERROR(kBodyFields.CheckKnownKeys(body, "the body", known));
  return body;
}

Result<std::string> RouteCall::Param(std::string_view name, std::string_view missing) const {
  std::optional<std::string> value = target.PathParam(name);
  if (!value || value->empty()) return Status(core::codes::kNotFound, std::string(missing));
  return *value;
}

http::Response JsonRouteResponse(const RouteCall& call, const Result<json>& result,
                                 std::string_view route, core::platform::Logger& logger) {
  http::StringResponse response = result.ok() ? http::JsonResponse(call.status, *result)
                                              : FailureResponse(result.status(), route, logger);
  for (const auto& [field, value] : call.headers) response.set(field, value);
  return response;
}

}  // namespace ensemble::server::services
