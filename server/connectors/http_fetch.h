// HttpGetAsync: reads one document over HTTP(S) for a connector (a calendar
// link) on the calling coroutine's executor, so no thread waits on the
// network; HttpGet does the same on a private io_context for a caller that
// may block (tests, tools), never a store thread. The whole read, redirects
// included, is bounded by a deadline and a size limit. HTTPS verifies the
// peer against the system's certificates and the host name. Error messages
// name the host at most, never the path or query, where calendar links keep
// their secret.
//
// Thread-safety: HttpGet is safe to call from several threads at once;
// HttpGetAsync wants a single-threaded executor (the server's io_context).

#ifndef ENSEMBLE_SERVER_CONNECTORS_HTTP_FETCH_H_
#define ENSEMBLE_SERVER_CONNECTORS_HTTP_FETCH_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/base/status.h"

namespace ensemble::server::connectors {

// A calendar feed is a few hundred KB; a decade of a busy calendar stays
// under this.
inline constexpr size_t kMaxFetchBytes = 8 * 1024 * 1024;
inline constexpr std::chrono::milliseconds kFetchTimeout{15000};
// Published calendar links (Outlook, iCloud) may redirect once or twice.
inline constexpr int kMaxRedirects = 3;

struct FetchLimits {
  std::chrono::milliseconds timeout = kFetchTimeout;
  size_t max_bytes = kMaxFetchBytes;
  // False: a link whose host resolves to a loopback, private or link-local
  // address is refused, so a person on a shared server cannot make it read
  // the server's own network.
  bool allow_private_addresses = false;
};

// The address a redirect from `from` to `location` (a Location header) leads
// to: an http(s) address as it is; a scheme-relative one ("//host/path"), an
// absolute path, a query or a relative path resolved against `from` (RFC
// 3986 §5.2, without removing dot segments).
std::string ResolveRedirect(std::string_view from, std::string_view location);

// The body of a 200 answer to GET `url` (http:// or https://).
// APP_UNREACHABLE with a readable reason otherwise: not found, refused, too
// slow, too large, a bad certificate, another status, a private address.
boost::asio::awaitable<core::Result<std::string>> HttpGetAsync(std::string url, FetchLimits limits);
core::Result<std::string> HttpGet(std::string_view url, const FetchLimits& limits = {});

}  // namespace ensemble::server::connectors

#endif  // ENSEMBLE_SERVER_CONNECTORS_HTTP_FETCH_H_
