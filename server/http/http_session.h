// One HTTP/1.1 connection: reads requests (keep-alive), hands each to the
// Router and writes its response, until the peer closes, a timeout fires or
// a request cannot be read. A stream route (Router::AddStream) takes the
// connection over and sets its own deadlines.
//
// Every read and write has a deadline (beast::tcp_stream::expires_after), so
// an idle or slow peer cannot hold a connection forever. A body over
// kMaxRequestBodyBytes gets 413 BODY_TOO_LARGE and the connection closes.
//
// Thread-safety: the session runs on its stream's executor; the Router must
// outlive it.

#ifndef ENSEMBLE_SERVER_HTTP_HTTP_SESSION_H_
#define ENSEMBLE_SERVER_HTTP_HTTP_SESSION_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "core/platform/env.h"
#include "server/http/router.h"

namespace ensemble::server::http {

// The largest request body accepted (a push of kMaxPushMutations mutations
// fits with room to spare).
inline constexpr uint64_t kMaxRequestBodyBytes = 8 * 1024 * 1024;
// With accounts, the largest body of a request that carries no session (a
// sign-in, a sign-up, or a stranger's): a password and a name are small, and
// a stranger may not make the server read megabytes (Router::SetBodyLimit).
inline constexpr uint64_t kMaxUnauthenticatedBodyBytes = 64 * 1024;
// The largest request line plus headers.
inline constexpr uint32_t kMaxRequestHeaderBytes = 16 * 1024;
// Time to receive one whole request, including the idle wait before it on a
// kept-alive connection.
inline constexpr std::chrono::seconds kRequestTimeout{30};
inline constexpr std::chrono::seconds kWriteTimeout{30};
// After refusing a request whose body is still arriving, how long and how much
// of it to read and discard, so the peer reads the refusal instead of a reset.
inline constexpr std::chrono::seconds kDrainTimeout{5};
inline constexpr size_t kMaxDrainBytes = 16 * 1024 * 1024;

// Serves `stream` until the connection ends; never throws.
boost::asio::awaitable<void> RunHttpSession(boost::beast::tcp_stream stream, const Router& router,
                                            core::platform::Logger& logger);

}  // namespace ensemble::server::http

#endif  // ENSEMBLE_SERVER_HTTP_HTTP_SESSION_H_
