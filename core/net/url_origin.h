// The origin of an http(s) URL (RFC 6454): scheme, host and port, the unit a
// secret is given to. A saved model key follows its base URL only while the
// origin stays the same (server/credentials/credential_store.h).
//
// Thread-safety: a pure function.

#ifndef ENSEMBLE_CORE_NET_URL_ORIGIN_H_
#define ENSEMBLE_CORE_NET_URL_ORIGIN_H_

#include <optional>
#include <string>
#include <string_view>

namespace ensemble::core::net {

// "https://api.example.com:443" for "HTTPS://API.Example.com/v1": the scheme
// and host lower-cased, the port always written (the scheme's own when
// none is), the path, query and fragment dropped; nullopt when `url` is not
// http(s) with a host.
std::optional<std::string> UrlOrigin(std::string_view url);

}  // namespace ensemble::core::net

#endif  // ENSEMBLE_CORE_NET_URL_ORIGIN_H_
