#include "server/http/request_guard.h"

#include "server/boost_prelude.h"

#include <sodium.h>

#include <boost/asio/ip/address.hpp>

#include "core/base/sha256.h"
#include "core/text/ascii.h"
#include "core/text/utf8.h"
#include "server/http/json_response.h"

namespace ensemble::server::http {
namespace {

namespace bhttp = beast::http;
namespace text = core::text;

constexpr std::string_view kApiPrefix = "/api/";

struct Authority {
  std::string host;  // Lower case, without brackets or a trailing dot.
  std::string port;  // Empty when none was written.
};

// "name", "name:port", "[v6]" or "[v6]:port"; nullopt when malformed.
std::optional<Authority> ParseAuthority(std::string_view s) {
  Authority out;
  std::string_view host = s;
  std::string_view port;
  if (!s.empty() && s.front() == '[') {
    const size_t close = s.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = s.substr(1, close - 1);
    std::string_view after = s.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return std::nullopt;
      port = after.substr(1);
    }
  } else if (const size_t colon = s.rfind(':'); colon != std::string_view::npos) {
    host = s.substr(0, colon);
    port = s.substr(colon + 1);
    if (host.find(':') != std::string_view::npos) return std::nullopt;  // Unbracketed IPv6.
  }
  for (char c : port) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  if (port.size() > 5) return std::nullopt;
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  if (host.empty()) return std::nullopt;
  for (char c : host) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= ' ' || u >= 0x7f || c == '/' || c == '@' || c == '\\') return std::nullopt;
  }
  out.host = text::AsciiLowered(host);
  out.port = std::string(port);
  return out;
}

bool IsLoopbackName(const std::string& host) {
  if (host == "localhost" || host.ends_with(".localhost")) return true;
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(host, ec);
  return !ec && address.is_loopback();
}

bool IsSafeMethod(bhttp::verb method) {
  return method == bhttp::verb::get || method == bhttp::verb::head ||
         method == bhttp::verb::options;
}

bool IsJson(std::string_view content_type) {
  return text::AsciiLowered(text::Trim(content_type.substr(0, content_type.find(';')))) ==
         "application/json";
}

// True when `origin` (an Origin header) is this request's own: the same
// host and port as `host` (the Host header), over http or https.
bool IsOwnOrigin(std::string_view origin, std::string_view host) {
  std::string_view scheme;
  std::string_view default_port;
  if (origin.starts_with("http://")) {
    scheme = "http";
    default_port = "80";
  } else if (origin.starts_with("https://")) {
    scheme = "https";
    default_port = "443";
  } else {
    return false;  // "null", file:, extensions and every other scheme.
  }
  std::optional<Authority> from = ParseAuthority(origin.substr(scheme.size() + 3));
  std::optional<Authority> to = ParseAuthority(host);
  if (!from || !to) return false;
  const std::string_view from_port = from->port.empty() ? default_port : from->port;
  const std::string_view to_port = to->port.empty() ? default_port : to->port;
  return from->host == to->host && from_port == to_port;
}

StringResponse CrossOrigin(std::string message) {
  return ErrorResponse(codes::kCrossOrigin, message);
}

}  // namespace

RequestGuard::RequestGuard(std::string_view bind_address,
                           const std::vector<std::string>& allowed_hosts) {
  for (const std::string& name : allowed_hosts) {
    if (std::optional<Authority> a = ParseAuthority(name)) names_.push_back(a->host);
  }
  boost::system::error_code ec;
  const auto bound = boost::asio::ip::make_address(std::string(bind_address), ec);
  if (!ec && !bound.is_unspecified()) names_.push_back(text::AsciiLowered(bound.to_string()));
}

bool RequestGuard::HostAllowed(std::string_view host) const {
  std::optional<Authority> a = ParseAuthority(host);
  if (!a) return false;
  if (IsLoopbackName(a->host)) return true;
  for (const std::string& name : names_) {
    if (name == a->host) return true;
  }
  return false;
}

std::optional<StringResponse> RequestGuard::Check(const Request& request) const {
  const std::string_view host = request[bhttp::field::host];
  if (!HostAllowed(host)) {
    // The name is not echoed: it is whatever the other site chose.
    return ErrorResponse(codes::kHostNotAllowed,
                         "this server does not answer for that host name (the operator can add "
                         "it to ENSEMBLE_ALLOWED_HOSTS)");
  }
  const bool safe = IsSafeMethod(request.method());
  const std::string_view target = request.target();
  const bool guarded = !safe || target.starts_with(kApiPrefix) || target == "/api";
  if (guarded) {
    const auto origin = request.find(bhttp::field::origin);
    if (origin != request.end() && !IsOwnOrigin(origin->value(), host)) {
      return CrossOrigin("requests from another site's page are refused");
    }
    if (text::AsciiLowered(request["Sec-Fetch-Site"]) == "cross-site") {
      return CrossOrigin("requests from another site's page are refused");
    }
  }
  if (!safe) {
    const auto type = request.find(bhttp::field::content_type);
    const bool ok = type == request.end() ? request.body().empty() : IsJson(type->value());
    if (!ok) {
      return CrossOrigin(
          "a request that changes something must send Content-Type: "
          "application/json");
    }
  }
  return std::nullopt;
}

std::string ContentSecurityPolicyAllowing(std::string_view inline_script) {
  core::Sha256 sha;
  sha.Update(inline_script);
  const core::Sha256Digest digest = sha.Finish();
  char base64[sodium_base64_ENCODED_LEN(sizeof(digest), sodium_base64_VARIANT_ORIGINAL)];
  sodium_bin2base64(base64, sizeof(base64), digest.data(), digest.size(),
                    sodium_base64_VARIANT_ORIGINAL);
  std::string policy = kContentSecurityPolicy;
  constexpr std::string_view kScriptSrc = "script-src 'self' 'wasm-unsafe-eval'";
  policy.insert(policy.find(kScriptSrc) + kScriptSrc.size(),
                std::string(" 'sha256-") + base64 + "'");
  return policy;
}

void AddSecurityHeaders(bhttp::fields& fields) {
  // A page that allows its own inline script set its own policy.
  if (fields.find("Content-Security-Policy") == fields.end()) {
    fields.set("Content-Security-Policy", kContentSecurityPolicy);
  }
  fields.set("X-Content-Type-Options", "nosniff");
  fields.set("Referrer-Policy", "no-referrer");
}

}  // namespace ensemble::server::http
