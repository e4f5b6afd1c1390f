#include "server/http/json_response.h"

#include <string>

#include "core/sync/server_sync.h"

namespace ensemble::server::http {

namespace core_codes = core::codes;
using beast::http::status;

status HttpStatusFor(std::string_view code) {
  struct Entry {
    std::string_view code;
    status http;
  };
  static constexpr Entry kTable[] = {
      {core_codes::kMalformedJson, status::bad_request},
      {core_codes::kInvalidArgument, status::bad_request},
      {core_codes::kUnknownMutation, status::bad_request},
      {core_codes::kNotFound, status::not_found},
      {core_codes::kForbidden, status::forbidden},
      {core_codes::kUnauthenticated, status::unauthorized},
      {core_codes::kBadCredentials, status::unauthorized},
      {codes::kMethodNotAllowed, status::method_not_allowed},
      {codes::kHostNotAllowed, status::misdirected_request},
      {codes::kCrossOrigin, status::forbidden},
      {core_codes::kAlreadyExists, status::conflict},
      {core_codes::kSaveConflict, status::conflict},
      {core_codes::kVersionConflict, status::conflict},
      {core_codes::kRecordDeleted, status::conflict},
      {core_codes::kMutationFromFuture, status::conflict},
      {core_codes::kClientClockAhead, status::bad_request},
      {core_codes::kBodyTooLarge, status::payload_too_large},
      {core_codes::kUnsupportedOption, status::bad_request},
      {core_codes::kFailedPrecondition, status::conflict},
      {core_codes::kProposalTampered, status::conflict},
      {core_codes::kAssistantPaused, status::conflict},
      {core_codes::kLimitReached, status::too_many_requests},
      // The model provider's failures (spec 000 §5: a timeout is a 504).
      {core_codes::kModelError, status::bad_gateway},
      {core_codes::kMalformedToolCall, status::bad_gateway},
      {core_codes::kModelTimeout, status::gateway_timeout},
      {core_codes::kAppUnreachable, status::bad_gateway},
      {core_codes::kStorage, status::service_unavailable},
      {codes::kTooManySubscribers, status::service_unavailable},
      {codes::kTooManyAttempts, status::too_many_requests},
      {codes::kServerBusy, status::service_unavailable},
      {core_codes::kInternal, status::internal_server_error},
  };
  for (const Entry& e : kTable) {
    if (e.code == code) return e.http;
  }
  return status::internal_server_error;
}

StringResponse JsonResponse(status code, const nlohmann::json& body) {
  StringResponse res(code, 11);
  res.set(beast::http::field::content_type, "application/json");
  res.set(beast::http::field::cache_control, "no-store");
  // Replace rather than throw on invalid UTF-8 that slipped into a message.
  res.body() = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  res.prepare_payload();
  return res;
}

StringResponse ErrorResponse(std::string_view code, std::string_view message) {
  return JsonResponse(HttpStatusFor(code), {{"error", {{"code", code}, {"message", message}}}});
}

StringResponse ErrorResponse(const core::Status& st) {
  return ErrorResponse(st.code(), st.message());
}

}  // namespace ensemble::server::http
