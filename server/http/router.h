// Router: dispatches a request by method and path to a handler, with a
// fallback for GET paths no route names (static files). A route's path is
// exact, except that a segment written ":name" matches any one non-empty
// segment, which the handler reads as target.PathParam("name").
//
// A path that a route names with another method gets 405 METHOD_NOT_ALLOWED
// (with Allow); an unknown path 404 NOT_FOUND. HEAD runs the GET handler and
// sends only its headers. A handler that throws gets 500 INTERNAL: exceptions
// stop here.
//
// An async route (AddAsync) answers from a coroutine: a handler that waits on
// the store (StorePool) lets the io thread serve other connections meanwhile.
//
// A stream route (AddStream, GET unless another method is given) takes over
// the connection instead of returning a response: the HTTP session finds it
// with FindStream and runs it to the end of the connection (Server-Sent
// Events; an assistant turn's POST).
//
// The guard (SetGuard) is asked about every request before any route, stream
// routes included: its refusal is the answer (server/http/request_guard.h).
//
// Every routed request gets a request id: the client's X-Request-Id when it
// is a plain token of at most kMaxRequestIdChars, else "<prefix>-<n>". The
// response carries it back, the access log line (info) names it with the
// method, the route's pattern, the status and the time taken, and, with a
// metrics registry (SetMetrics), the request is counted by method, route
// pattern and status and its time observed by method and route pattern.
//
// Thread-safety: build with Add/SetFallback/SetGuard first; Route is then const and may
// run on any thread (the handlers decide their own thread-safety).

#ifndef ENSEMBLE_SERVER_HTTP_ROUTER_H_
#define ENSEMBLE_SERVER_HTTP_ROUTER_H_

#include "server/boost_prelude.h"

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/platform/env.h"
#include "server/http/message.h"
#include "server/http/request_guard.h"
#include "server/http/url.h"
#include "server/metrics/metrics.h"

namespace ensemble::server::http {

// The longest client-chosen request id kept; a longer one is replaced.
inline constexpr size_t kMaxRequestIdChars = 64;
// The route label of requests served by the fallback (static files), of
// requests no route serves, and of refusals before routing.
inline constexpr std::string_view kStaticRoute = "static";
inline constexpr std::string_view kUnmatchedRoute = "unmatched";
inline constexpr std::string_view kRefusedRoute = "refused";
// The method label of a request whose method Beast does not know.
inline constexpr std::string_view kOtherMethod = "OTHER";

class Router {
 public:
  using Handler = std::function<Response(const Request&, const Target&)>;
  using AsyncHandler =
      std::function<boost::asio::awaitable<Response>(const Request&, const Target&)>;
  // Owns the connection until it returns, with the status it answered
  // (200 once the stream opened); must not throw.
  using StreamHandler = std::function<boost::asio::awaitable<unsigned>(
      beast::tcp_stream&, const Request&, const Target&)>;

  explicit Router(core::platform::Logger& logger) : logger_(logger) {}

  void Add(beast::http::verb method, std::string path, Handler handler);
  void AddAsync(beast::http::verb method, std::string path, AsyncHandler handler);
  // Serves GET `path` with `handler`; other methods get 405.
  void AddStream(std::string path, StreamHandler handler);
  // Serves `method` `path` with `handler`.
  void AddStream(beast::http::verb method, std::string path, StreamHandler handler);
  // Serves GET and HEAD requests for paths no route names.
  void SetFallback(Handler handler) { fallback_ = std::move(handler); }
  // Checks every request with `guard` before routing it.
  void SetGuard(RequestGuard guard) { guard_ = std::move(guard); }
  // Counts and times every routed request in `registry` (which must outlive
  // the router).
  void SetMetrics(metrics::Registry* registry) { metrics_ = registry; }
  // What generated request ids start with (a process's own, so ids from
  // several servers behind one proxy do not collide).
  void SetRequestIdPrefix(std::string prefix) { id_prefix_ = std::move(prefix); }

  // The id of `request`: its X-Request-Id when that is 1 to
  // kMaxRequestIdChars of [A-Za-z0-9._:-], else a new one.
  std::string RequestIdFor(const Request& request) const;
  // Records a request answered outside Route (the request guard's
  // refusal): the access log line and, with metrics, its count and time.
  void Record(const Request& request, std::string_view route, unsigned status,
              std::string_view request_id, std::chrono::steady_clock::duration took) const;
  // Records a stream once it has ended: counted with the other requests, its
  // lifetime logged, but no latency observed (it lasts as long as the peer
  // stays, which says nothing of how fast the server answered).
  void RecordStream(const Request& request, std::string_view route, unsigned status,
                    std::string_view request_id, std::chrono::steady_clock::duration lived) const;

  // The guard's refusal of `request`, or nullopt when it may be routed.
  std::optional<StringResponse> Refuse(const Request& request) const {
    return guard_ ? guard_->Check(request) : std::nullopt;
  }

  // The response for `request` from the client at address `peer`, with its
  // payload prepared; the caller sets the version and keep-alive.
  boost::asio::awaitable<Response> Route(const Request& request, std::string peer = {}) const;

  // How large a body `header` (a request not yet read past its headers) may
  // bring; SetBodyLimit sets the rule, `fallback` otherwise.
  uint64_t BodyLimitFor(const Request& header, uint64_t fallback) const {
    return body_limit_ ? body_limit_(header) : fallback;
  }
  void SetBodyLimit(std::function<uint64_t(const Request&)> rule) { body_limit_ = std::move(rule); }
  // The stream handler for `request`, or nullptr when it is an ordinary one;
  // fills `target` (path parameters included) for the handler and `route`
  // with the route's pattern.
  const StreamHandler* FindStream(const Request& request, Target* target,
                                  std::string_view* route) const;

 private:
  struct Entry {
    beast::http::verb method;
    std::string path;
    Handler handler;
    AsyncHandler async;    // Set for async routes (then handler is empty).
    StreamHandler stream;  // Set for stream routes (then handler is empty).
  };

  // Counts (and with `took`, times) one answered request, and logs it.
  void Note(const Request& request, std::string_view route, unsigned status,
            std::string_view request_id, std::chrono::steady_clock::duration took,
            bool observe_latency) const;
  // Route without the id, the log line and the metrics.
  boost::asio::awaitable<Response> Answer(const Request& request, std::string peer,
                                          std::string_view* route) const;
  // Sets *route to the pattern of the route that answered (or kStaticRoute,
  // kUnmatchedRoute).
  boost::asio::awaitable<Response> Dispatch(const Request& request, Target target,
                                            std::string_view* route) const;

  core::platform::Logger& logger_;
  std::vector<Entry> routes_;  // Few routes: a linear scan is fastest.
  Handler fallback_;
  std::optional<RequestGuard> guard_;
  std::function<uint64_t(const Request&)> body_limit_;
  metrics::Registry* metrics_ = nullptr;
  std::string id_prefix_ = "req";
  mutable std::atomic<uint64_t> next_id_{0};
};

// True when `path` matches the route path `pattern` (":name" segments match
// any one non-empty segment). When it does and `params` is not null, sets
// (*params)[name] to each such segment, percent-decoded, leaving out one whose
// escape is malformed.
bool PathMatches(std::string_view pattern, std::string_view path,
                 std::map<std::string, std::string, std::less<>>* params = nullptr);

}  // namespace ensemble::server::http

#endif  // ENSEMBLE_SERVER_HTTP_ROUTER_H_
