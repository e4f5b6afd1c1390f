#include "core/net/url_origin.h"

#include "core/text/ascii.h"

namespace ensemble::core::net {

std::optional<std::string> UrlOrigin(std::string_view url) {
  std::string scheme;
  for (size_t i = 0; i < url.size() && url[i] != ':'; ++i) scheme += text::AsciiLower(url[i]);
  std::string_view default_port;
  if (scheme == "https") {
    default_port = "443";
  } else if (scheme == "http") {
    default_port = "80";
  } else {
    return std::nullopt;
  }
  std::string_view rest = url.substr(scheme.size());
  if (!rest.starts_with("://")) return std::nullopt;
  rest.remove_prefix(3);
  std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  // Credentials in the authority are not part of the origin.
  if (size_t at = authority.rfind('@'); at != std::string_view::npos) {
    authority.remove_prefix(at + 1);
  }
  std::string_view host = authority;
  std::string_view port;
  const size_t close = authority.rfind(']');
  const size_t colon = authority.rfind(':');
  if (colon != std::string_view::npos && (close == std::string_view::npos || colon > close)) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty()) return std::nullopt;
  for (char c : port) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  while (port.size() > 1 && port.front() == '0') port.remove_prefix(1);
  std::string out = scheme + "://";
  for (char c : host) out += text::AsciiLower(c);
  out += ':';
  out += port.empty() ? default_port : port;
  return out;
}

}  // namespace ensemble::core::net
