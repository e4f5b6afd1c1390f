#include "server/services/json_body.h"

#include "core/text/bounded_json.h"
#include "server/http/json_response.h"

namespace ensemble::server::services {

using core::Status;
using core::platform::LogLevel;
using nlohmann::json;
namespace codes = core::codes;

core::Result<json> ParseJsonBody(const std::string& body) {
  core::Result<json> parsed = core::text::ParseBoundedJson(body, kMaxJsonDepth);
  if (!parsed.ok()) return Status(parsed.status().code(), "the body " + parsed.status().message());
  return parsed;
}

http::StringResponse FailureResponse(const Status& status, std::string_view route,
                                     core::platform::Logger& logger) {
  if (status.code() == codes::kStorage) {
    logger.Log(LogLevel::kError, std::string(route) + ": " + status.ToString());
    return http::ErrorResponse(codes::kStorage, "the store is unavailable; try again later");
  }
  if (http::HttpStatusFor(status.code()) == boost::beast::http::status::internal_server_error) {
    logger.Log(LogLevel::kError, std::string(route) + ": " + status.ToString());
    return http::ErrorResponse(codes::kInternal, "the server failed to handle this request");
  }
  return http::ErrorResponse(status);
}

}  // namespace ensemble::server::services
