// RequestGuard: what every request must show before any route sees it, so
// that a web page on another site cannot drive this server through the
// person's browser (cross-site request forgery, DNS rebinding).
//
//   Host     names this server: a loopback name or address ("localhost",
//            "*.localhost", 127.0.0.0/8, ::1), the address the server is
//            bound to when that is a specific IP, or a name in
//            ENSEMBLE_ALLOWED_HOSTS. Anything else: 421 HOST_NOT_ALLOWED.
//            A page that rebinds its own name to 127.0.0.1 still sends its
//            own name here, so it reaches nothing.
//   Origin   when sent, the server's own (scheme://Host of this request);
//            "null" and every other origin are refused, and so is
//            Sec-Fetch-Site: cross-site. Browsers send Origin on every
//            request that is not a GET or HEAD, and on every cross-origin
//            fetch; clients that are not browsers send none and pass.
//   Content-Type  a request that is not GET, HEAD or OPTIONS sends JSON
//            (application/json, any parameters) or nothing at all with an
//            empty body: a form post (urlencoded, multipart, text/plain) is
//            the one write a browser sends to another site without asking.
//   Both refusals: 403 CROSS_ORIGIN, and the route never runs (the codes
//   are in server/http/json_response.h).
//
// GETs of the app's own files (not under /api/) skip the Origin and
// Sec-Fetch-Site checks, so a link from another site still opens the app.
//
// Thread-safety: immutable once built; Check may run on any thread.

#ifndef ENSEMBLE_SERVER_HTTP_REQUEST_GUARD_H_
#define ENSEMBLE_SERVER_HTTP_REQUEST_GUARD_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/http/message.h"

namespace ensemble::server::http {

// The Content-Security-Policy of every response. The app loads nothing from
// elsewhere and runs no inline script but the import map the server writes
// into index.html (allowed by its hash alone: ContentSecurityPolicyAllowing);
// 'wasm-unsafe-eval' lets the worker compile the core; frame-ancestors keeps
// it out of other sites' frames.
inline constexpr char kContentSecurityPolicy[] =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; worker-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

// kContentSecurityPolicy with one inline script allowed by its SHA-256 hash
// (the text between <script> and </script>, exactly).
std::string ContentSecurityPolicyAllowing(std::string_view inline_script);

class RequestGuard {
 public:
  // `bind_address` is the address the server listens on (a specific IP is
  // also a name of the server); `allowed_hosts` the operator's extra names
  // (ENSEMBLE_ALLOWED_HOSTS), compared without case and without a port.
  RequestGuard(std::string_view bind_address, const std::vector<std::string>& allowed_hosts);

  // The refusal for `request`, or nullopt when it may be routed.
  std::optional<StringResponse> Check(const Request& request) const;

  // True when `host` (a Host header's value, with or without a port) names
  // this server.
  bool HostAllowed(std::string_view host) const;

 private:
  std::vector<std::string> names_;  // Lower case, without ports or brackets.
};

// Adds the headers every response carries: the policy above (unless the
// response set its own), nosniff, no referrer.
void AddSecurityHeaders(beast::http::fields& fields);

}  // namespace ensemble::server::http

#endif  // ENSEMBLE_SERVER_HTTP_REQUEST_GUARD_H_
