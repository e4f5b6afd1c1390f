// GET /api/events: a Server-Sent Events stream of pokes from a PokeHub.
//
//   event: poke
//   data: {"version": 42}
//
// is sent when a push that applied at least one mutation commits (the
// subscriber then pulls); ": ping" comment lines every heartbeat interval
// keep proxies from closing an idle stream. Past the hub's subscriber limit
// the answer is 503 TOO_MANY_SUBSCRIBERS (http::codes) with Retry-After.
//
// The stream has no request timeout (it is meant to stay open); each write
// still has a deadline, so a subscriber that stops reading is dropped instead
// of holding the server. A peer that closes is noticed at once (a read stays
// pending for that), and the subscription ends with the stream.
//
// Thread-safety: runs on the io thread that runs the hub.

#ifndef ENSEMBLE_SERVER_EVENTS_EVENT_STREAM_H_
#define ENSEMBLE_SERVER_EVENTS_EVENT_STREAM_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <chrono>
#include <string>
#include <string_view>

#include "core/platform/env.h"
#include "server/events/poke_hub.h"
#include "server/http/message.h"

namespace ensemble::server::events {

// Idle time after which a comment line is sent to keep the stream open.
inline constexpr std::chrono::milliseconds kSseHeartbeat{15'000};
// Time for one event to be written before the subscriber is dropped.
inline constexpr std::chrono::seconds kSseWriteTimeout{30};
// What a refused subscriber is told to wait before trying again.
inline constexpr std::chrono::seconds kSseRetryAfter{10};

// The text of one poke event.
std::string PokeEventText(int64_t version);

// Serves one subscriber on `stream` (whose request was `request`), poked for
// changes `account_id` can read (empty: every change), until the peer goes, a
// write times out or the io_context stops; never throws. Gives the status
// answered: 200 once the stream opened, else the refusal's.
boost::asio::awaitable<unsigned> ServeEventStream(boost::beast::tcp_stream& stream,
                                                  const http::Request& request, PokeHub& hub,
                                                  std::string account_id,
                                                  std::chrono::milliseconds heartbeat,
                                                  core::platform::Logger& logger);

}  // namespace ensemble::server::events

#endif  // ENSEMBLE_SERVER_EVENTS_EVENT_STREAM_H_
