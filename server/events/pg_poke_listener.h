// PgPokeListener: one extra libpq connection per server process that LISTENs
// on the poke channel and hands every notification (from this process or
// another sharing the database) to a callback, usually PokeHub::Publish; and
// on the turn-stop channel, whose notifications go to a second callback.
//
// It lives on the io_context like the sockets: connecting, querying and
// waiting for notifications are non-blocking libpq calls driven by a
// posix::stream_descriptor on PQsocket, so no thread waits. When the
// connection fails or drops it reconnects with exponential backoff, and after
// each (re)connect it reports the store's current version, so subscribers
// catch up on pokes sent while nobody listened.
//
// Thread-safety: Start and listening() on the io thread (listening() also
// from any thread). Destroy it only when the io_context no longer runs.

#ifndef ENSEMBLE_SERVER_EVENTS_PG_POKE_LISTENER_H_
#define ENSEMBLE_SERVER_EVENTS_PG_POKE_LISTENER_H_

#include "server/boost_prelude.h"

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/base/status.h"
#include "core/platform/env.h"
#include "server/events/poke_hub.h"

struct pg_conn;
struct pg_result;

namespace ensemble::server::events {

// Waits between reconnect attempts: doubling from the first to the cap.
inline constexpr std::chrono::milliseconds kListenRetryFirst{250};
inline constexpr std::chrono::milliseconds kListenRetryMax{10'000};
// Time to connect, or to answer one statement, before giving up on the
// connection and starting over.
inline constexpr std::chrono::seconds kListenConnectTimeout{10};
inline constexpr std::chrono::seconds kListenStatementTimeout{10};
// TCP keepalive, so a server that vanished without closing is noticed
// (idle seconds, probe interval, probes) even though the socket only reads.
inline constexpr int kListenKeepaliveIdleSeconds = 30;
inline constexpr int kListenKeepaliveIntervalSeconds = 10;
inline constexpr int kListenKeepaliveCount = 3;
// Shown in pg_stat_activity, so an operator (or a test) can find it.
inline constexpr char kListenApplicationName[] = "ensemble_poke_listener";

class PgPokeListener {
 public:
  using OnPoke = std::function<void(const Poke& poke)>;
  using OnTurnStop = std::function<void(const std::string& turn_id)>;

  // `url` as for PgDatabase (never logged); `on_poke` and `on_turn_stop`
  // (may be empty) run on the io thread. `logger` must outlive the listener.
  PgPokeListener(boost::asio::io_context& ioc, std::string url, OnPoke on_poke,
                 core::platform::Logger& logger, OnTurnStop on_turn_stop = {});
  ~PgPokeListener();
  PgPokeListener(const PgPokeListener&) = delete;
  PgPokeListener& operator=(const PgPokeListener&) = delete;

  // Starts connecting and listening on the io_context; runs until it stops.
  void Start();
  // Whether LISTEN is in effect right now.
  bool listening() const { return listening_.load(std::memory_order_relaxed); }

 private:
  struct ResultDeleter {
    void operator()(pg_result* r) const;
  };
  using ResultPtr = std::unique_ptr<pg_result, ResultDeleter>;
  enum class WaitFor { kRead, kWrite };

  boost::asio::awaitable<void> Run();
  // Connects, listens and delivers notifications until the connection fails.
  boost::asio::awaitable<core::Status> ListenOnce(bool& listened);
  boost::asio::awaitable<core::Status> Connect();
  // Runs one statement; its last result.
  boost::asio::awaitable<core::Result<ResultPtr>> Exec(const char* sql);
  // Waits until the socket is ready (or `timeout`, when given, passes).
  boost::asio::awaitable<core::Status> Wait(WaitFor what,
                                            std::optional<std::chrono::milliseconds> timeout,
                                            bool reattach);
  void DeliverNotifications();
  void Disconnect();
  core::Status ConnectionError(const std::string& what) const;

  boost::asio::io_context& ioc_;
  const std::string url_;
  const OnPoke on_poke_;
  const OnTurnStop on_turn_stop_;
  core::platform::Logger& logger_;
  pg_conn* conn_ = nullptr;
  boost::asio::posix::stream_descriptor socket_;  // libpq owns the descriptor.
  boost::asio::steady_timer deadline_;
  uint64_t wait_generation_ = 0;  // Tells a stale deadline from the current one.
  bool timed_out_ = false;
  std::atomic<bool> listening_{false};
};

}  // namespace ensemble::server::events

#endif  // ENSEMBLE_SERVER_EVENTS_PG_POKE_LISTENER_H_
