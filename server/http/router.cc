#include "server/http/router.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "server/http/compression.h"
#include "server/http/json_response.h"

namespace ensemble::server::http {
namespace {

namespace net = boost::asio;
using beast::http::verb;

// The same headers with no body; Content-Length still tells the size of the
// body a GET would have sent, as HEAD requires.
Response ToHead(Response response) {
  return std::visit(
      [](auto& r) -> Response {
        auto size = r.payload_size();
        EmptyResponse head(std::move(r.base()));
        if (size) head.content_length(*size);
        return head;
      },
      response);
}

// The longest path an access log line names: enough for any route's.
constexpr size_t kLoggedPathChars = 200;

bool IsRequestIdChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == ':' ||
         c == '-';
}

unsigned StatusOf(const Response& response) {
  return std::visit([](const auto& r) { return r.result_int(); }, response);
}

}  // namespace

std::string Router::RequestIdFor(const Request& request) const {
  std::string_view given = request[kRequestIdHeader];
  if (!given.empty() && given.size() <= kMaxRequestIdChars &&
      std::all_of(given.begin(), given.end(), IsRequestIdChar)) {
    return std::string(given);
  }
  char n[24];
  std::snprintf(n, sizeof(n), "%llx",
                static_cast<unsigned long long>(next_id_.fetch_add(1, std::memory_order_relaxed)));
  return id_prefix_ + "-" + n;
}

void Router::Record(const Request& request, std::string_view route, unsigned status,
                    std::string_view request_id, std::chrono::steady_clock::duration took) const {
  Note(request, route, status, request_id, took, /*observe_latency=*/true);
}

void Router::RecordStream(const Request& request, std::string_view route, unsigned status,
                          std::string_view request_id,
                          std::chrono::steady_clock::duration lived) const {
  Note(request, route, status, request_id, lived, /*observe_latency=*/false);
}

void Router::Note(const Request& request, std::string_view route, unsigned status,
                  std::string_view request_id, std::chrono::steady_clock::duration took,
                  bool observe_latency) const {
  const double seconds = std::chrono::duration<double>(took).count();
  const std::string method(request.method_string());
  if (metrics_) {
    // Beast knows a fixed list of methods; any other is the client's own
    // word, one label for all of them.
    const std::string method_label =
        request.method() == verb::unknown ? std::string(kOtherMethod) : method;
    metrics_
        ->GetCounter("ensemble_http_requests_total", "HTTP requests answered, by route pattern",
                     {{"method", method_label},
                      {"route", std::string(route)},
                      {"status", std::to_string(status)}})
        .Add();
    if (observe_latency) {
      metrics_
          ->GetHistogram("ensemble_http_request_duration_seconds",
                         "Time from a request read to its response ready, by route pattern",
                         {{"method", method_label}, {"route", std::string(route)}})
          .Observe(seconds);
    }
  }
  // The path only: a query string may carry what must not be logged.
  std::string_view path = request.target();
  path = path.substr(0, std::min(path.find('?'), kLoggedPathChars));
  const core::platform::LogField fields[] = {
      core::platform::LogField::Text("request_id", std::string(request_id)),
      core::platform::LogField::Text("method", method),
      core::platform::LogField::Text("route", std::string(route)),
      core::platform::LogField::Text("path", std::string(path)),
      core::platform::LogField::Number("status", status),
      core::platform::LogField::Number("ms", seconds * 1000),
  };
  logger_.LogFields(core::platform::LogLevel::kInfo, "request", fields);
}

void Router::Add(verb method, std::string path, Handler handler) {
  routes_.push_back({method, std::move(path), std::move(handler), nullptr, nullptr});
}

void Router::AddAsync(verb method, std::string path, AsyncHandler handler) {
  routes_.push_back({method, std::move(path), nullptr, std::move(handler), nullptr});
}

void Router::AddStream(std::string path, StreamHandler handler) {
  AddStream(verb::get, std::move(path), std::move(handler));
}

void Router::AddStream(verb method, std::string path, StreamHandler handler) {
  routes_.push_back({method, std::move(path), nullptr, nullptr, std::move(handler)});
}

bool PathMatches(std::string_view pattern, std::string_view path,
                 std::map<std::string, std::string, std::less<>>* params) {
  if (pattern.find(':') == std::string_view::npos) return pattern == path;
  std::map<std::string, std::string, std::less<>> found;
  while (!pattern.empty() && !path.empty()) {
    size_t pe = pattern.find('/', 1);
    size_t te = path.find('/', 1);
    std::string_view p = pattern.substr(0, pe);
    std::string_view t = path.substr(0, te);
    if (p.size() > 1 && p[1] == ':') {
      if (t.size() < 2) return false;  // "/" alone: an empty segment.
      if (params) {
        if (auto value = PercentDecode(t.substr(1), /*plus_is_space=*/false)) {
          found.insert_or_assign(std::string(p.substr(2)), *std::move(value));
        }
      }
    } else if (p != t) {
      return false;
    }
    pattern = pe == std::string_view::npos ? std::string_view() : pattern.substr(pe);
    path = te == std::string_view::npos ? std::string_view() : path.substr(te);
  }
  if (!pattern.empty() || !path.empty()) return false;
  if (params) *params = std::move(found);
  return true;
}

const Router::StreamHandler* Router::FindStream(const Request& request, Target* target,
                                                std::string_view* route) const {
  auto parsed = ParseTarget(request.target());
  if (!parsed.ok()) return nullptr;
  for (const Entry& e : routes_) {
    if (e.stream && e.method == request.method() &&
        PathMatches(e.path, parsed->path, &parsed->path_params)) {
      *target = *std::move(parsed);
      *route = e.path;
      return &e.stream;
    }
  }
  return nullptr;
}

net::awaitable<Response> Router::Route(const Request& request, std::string peer) const {
  const auto started = std::chrono::steady_clock::now();
  const std::string request_id = RequestIdFor(request);
  std::string_view route = kUnmatchedRoute;
  Response res = co_await Answer(request, std::move(peer), &route);
  if (auto* answer = std::get_if<StringResponse>(&res)) CompressAnswer(request, *answer);
  std::visit([&](auto& r) { r.set(kRequestIdHeader, request_id); }, res);
  Record(request, route, StatusOf(res), request_id, std::chrono::steady_clock::now() - started);
  co_return res;
}

net::awaitable<Response> Router::Answer(const Request& request, std::string peer,
                                        std::string_view* route) const {
  auto target = ParseTarget(request.target());
  if (!target.ok()) co_return ErrorResponse(target.status());
  target->peer = std::move(peer);
  try {
    if (request.method() != verb::head) co_return co_await Dispatch(request, *target, route);
    Request as_get = request;
    as_get.method(verb::get);
    Response res = co_await Dispatch(as_get, *target, route);
    // Errors keep their body size too; HEAD never sends a body.
    co_return ToHead(std::move(res));
  } catch (const std::exception& e) {
    logger_.Log(core::platform::LogLevel::kError,
                std::string("handler for ") + target->path + " threw: " + e.what());
  } catch (...) {
    logger_.Log(core::platform::LogLevel::kError, "handler for " + target->path + " threw");
  }
  co_return ErrorResponse(core::codes::kInternal, "the server failed to handle this request");
}

net::awaitable<Response> Router::Dispatch(const Request& request, Target target,
                                          std::string_view* route) const {
  std::string allow;
  for (const Entry& e : routes_) {
    if (!PathMatches(e.path, target.path)) continue;
    // A stream route reaches here only as HEAD (run as GET): it has no
    // headers to send without its stream, so HEAD is not allowed.
    *route = e.path;  // A 405 is counted under the path's route too.
    if (e.method == request.method() && !e.stream) {
      PathMatches(e.path, target.path, &target.path_params);
      if (e.async) co_return co_await e.async(request, target);
      co_return e.handler(request, target);
    }
    if (!allow.empty()) allow += ", ";
    allow += beast::http::to_string(e.method);
    if (e.method == verb::get && !e.stream) allow += ", HEAD";
  }
  if (!allow.empty()) {
    StringResponse res = ErrorResponse(
        codes::kMethodNotAllowed, std::string(request.method_string()) + " is not allowed on " +
                                      target.path + " (allowed: " + allow + ")");
    res.set(beast::http::field::allow, allow);
    co_return res;
  }
  if (fallback_ && request.method() == verb::get) {
    *route = kStaticRoute;
    co_return fallback_(request, target);
  }
  co_return ErrorResponse(core::codes::kNotFound, "no route for " + target.path);
}

}  // namespace ensemble::server::http
