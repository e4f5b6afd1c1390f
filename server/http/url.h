// Request targets: splitting "/api/sync/pull?clientId=a&cursor=3" into its
// path and decoded query parameters, and percent-decoding.
//
// Thread-safety: stateless functions.

#ifndef ENSEMBLE_SERVER_HTTP_URL_H_
#define ENSEMBLE_SERVER_HTTP_URL_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/status.h"

namespace ensemble::server::http {

struct Target {
  std::string path;                                       // As sent: still percent-encoded.
  std::map<std::string, std::string, std::less<>> query;  // Decoded; the last value wins.
  std::string peer;  // The client's address, without a port; empty when unknown.
  // The matched route's ":name" segments, by name, percent-decoded; the
  // router fills them (a segment whose escape is malformed is left out).
  std::map<std::string, std::string, std::less<>> path_params;

  // The query parameter's value, or nullopt when absent.
  std::optional<std::string_view> Param(std::string_view name) const;
  // The path parameter ":name" of the matched route, or nullopt when absent.
  std::optional<std::string> PathParam(std::string_view name) const;
};

// Decodes %XX escapes (and '+' as a space when `plus_is_space`, as in query
// strings); nullopt when an escape is malformed.
std::optional<std::string> PercentDecode(std::string_view text, bool plus_is_space);

// INVALID_ARGUMENT when a query parameter has a malformed escape.
core::Result<Target> ParseTarget(std::string_view target);

}  // namespace ensemble::server::http

#endif  // ENSEMBLE_SERVER_HTTP_URL_H_
