// JSON responses and the error body every failure uses:
//   {"error": {"code": "BODY_TOO_LARGE", "message": "..."}}
// Codes are stable (clients branch on them); messages are for people. Each
// code maps to one HTTP status.
//
// Thread-safety: stateless functions.

#ifndef ENSEMBLE_SERVER_HTTP_JSON_RESPONSE_H_
#define ENSEMBLE_SERVER_HTTP_JSON_RESPONSE_H_

#include <nlohmann/json.hpp>
#include <string_view>

#include "core/base/status.h"
#include "server/http/message.h"

namespace ensemble::server::http {

// Codes only the HTTP layer produces; the rest are in core/base/status.h.
namespace codes {
inline constexpr std::string_view kMethodNotAllowed = "METHOD_NOT_ALLOWED";
// The server has as many event subscribers as it keeps (503, Retry-After).
inline constexpr std::string_view kTooManySubscribers = "TOO_MANY_SUBSCRIBERS";
// The request's Host is not a name of this server (421 Misdirected Request).
inline constexpr std::string_view kHostNotAllowed = "HOST_NOT_ALLOWED";
// A request another site's page made, or one a browser could have sent
// cross-site without asking (a form's content type): 403, nothing changed.
inline constexpr std::string_view kCrossOrigin = "CROSS_ORIGIN";
// Too many failed sign-ins or sign-ups (429, Retry-After): see
// core/accounts/sign_in_limits.h.
inline constexpr std::string_view kTooManyAttempts = "TOO_MANY_ATTEMPTS";
// The work the request needs is queued as deep as it goes (503,
// Retry-After): try again shortly.
inline constexpr std::string_view kServerBusy = "SERVER_BUSY";
}  // namespace codes

// The HTTP status for an error code; 500 for codes it does not know.
beast::http::status HttpStatusFor(std::string_view code);

// A response with `body` serialized, Content-Type application/json and
// Cache-Control no-store (API answers are never reused).
StringResponse JsonResponse(beast::http::status status, const nlohmann::json& body);

// The error body for `code`, with the status HttpStatusFor(code).
StringResponse ErrorResponse(std::string_view code, std::string_view message);
StringResponse ErrorResponse(const core::Status& status);

}  // namespace ensemble::server::http

#endif  // ENSEMBLE_SERVER_HTTP_JSON_RESPONSE_H_
