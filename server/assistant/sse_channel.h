// SseChannel: the frames of one assistant turn, written to its connection as
// Server-Sent Events (`event: NAME` / `data: JSON`) in the order they were
// pushed. Push never waits, so the model client's synchronous stream callback
// can forward a text delta the moment it is decoded; writes go out one at a
// time behind it. A write that fails or times out (the person went away)
// marks the channel broken and calls on_broken once, which stops the turn.
//
// Thread-safety: none; everything runs on the connection's io thread. Keep the
// channel (a shared_ptr) alive until Drain() has returned.

#ifndef ENSEMBLE_SERVER_ASSISTANT_SSE_CHANNEL_H_
#define ENSEMBLE_SERVER_ASSISTANT_SSE_CHANNEL_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "server/http/message.h"

namespace ensemble::server::assistant {

// Time for one frame to be written before the person counts as gone.
inline constexpr std::chrono::seconds kFrameWriteTimeout{30};

// "event: <event>\ndata: <data as one line of JSON>\n\n".
std::string SseFrame(std::string_view event, const nlohmann::json& data);

// Writes `response` (an error before any frame) on `stream` and closes it;
// gives its status.
boost::asio::awaitable<unsigned> WriteAndClose(boost::beast::tcp_stream& stream,
                                               const http::Request& request,
                                               http::StringResponse response);

class SseChannel : public std::enable_shared_from_this<SseChannel> {
 public:
  // `stream` must outlive the channel's writes (until Drain returns).
  SseChannel(boost::beast::tcp_stream& stream, const http::Request& request);

  // Writes the 200 text/event-stream head; false when the write failed.
  boost::asio::awaitable<bool> Open();
  // Queues one frame (dropped once broken).
  void Push(std::string_view event, const nlohmann::json& data);
  // Waits until every queued frame is written (or the channel broke), then
  // ends the body and shuts the connection down.
  boost::asio::awaitable<void> Drain();

  bool broken() const { return broken_; }
  void set_on_broken(std::function<void()> fn) { on_broken_ = std::move(fn); }

 private:
  void Pump();
  void Break();

  boost::beast::tcp_stream& stream_;
  const bool chunked_;
  const unsigned version_;
  const std::string request_id_;  // Echoed in the stream's answer.
  std::deque<std::string> queue_;
  bool writing_ = false;
  bool broken_ = false;
  std::function<void()> on_broken_;
  boost::asio::steady_timer idle_;  // Cancelled when the queue empties.
};

}  // namespace ensemble::server::assistant

#endif  // ENSEMBLE_SERVER_ASSISTANT_SSE_CHANNEL_H_
