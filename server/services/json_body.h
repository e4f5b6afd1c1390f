// Reading JSON request bodies and answering failures, shared by the services.
//
// Thread-safety: stateless functions (the logger decides its own).

#ifndef ENSEMBLE_SERVER_SERVICES_JSON_BODY_H_
#define ENSEMBLE_SERVER_SERVICES_JSON_BODY_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/platform/env.h"
#include "core/text/bounded_json.h"
#include "server/http/message.h"

namespace ensemble::server::services {

// Deeper JSON than this is refused before anything looks at it; the sync
// protocol nests a few levels (request, mutation, args, fields).
inline constexpr int kMaxJsonDepth = core::text::kMaxJsonDepth;

// `body` parsed; MALFORMED_JSON when it is not JSON or nests too deeply. The
// message never quotes the body (it may hold a password or a key).
core::Result<nlohmann::json> ParseJsonBody(const std::string& body);

// The error response for `status`: store and internal failures are logged in
// full (with `route`) and answered without their details; the rest keep their
// code and message.
http::StringResponse FailureResponse(const core::Status& status, std::string_view route,
                                     core::platform::Logger& logger);

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_JSON_BODY_H_
