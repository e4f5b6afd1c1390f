#include "server/services/json_body.h"

#include "server/http/json_response.h"

namespace ensemble::server::services {

using core::Status;
using core::platform::LogLevel;
using nlohmann::json;
namespace codes = core::codes;

core::Result<json> ParseJsonBody(const std::string& body) {
  bool too_deep = false;
  json::parser_callback_t limit_depth = [&too_deep](int depth, json::parse_event_t event, json&) {
    if (depth > kMaxJsonDepth) too_deep = true;
    return !too_deep;  // Stop building values once too deep.
  };
  json parsed = json::parse(body, limit_depth, /*allow_exceptions=*/false);
  if (too_deep) {
    return Status(codes::kMalformedJson,
                  "the body nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  if (parsed.is_discarded()) return Status(codes::kMalformedJson, "the body is not valid JSON");
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
