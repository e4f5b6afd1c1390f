#include "server/events/pg_poke_listener.h"

#include <libpq-fe.h>

#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <exception>
#include <string_view>

#include "server/await_token.h"
#include "server/events/poke_channel.h"

namespace ensemble::server::events {
namespace {

namespace net = boost::asio;
using boost::system::error_code;
using core::Status;
using core::codes::kStorage;
using core::platform::LogLevel;

std::string Trimmed(const char* message) {
  std::string s = message ? message : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

void IgnoreNotice(void*, const char*) {}

}  // namespace

void PgPokeListener::ResultDeleter::operator()(pg_result* r) const { PQclear(r); }

PgPokeListener::PgPokeListener(net::io_context& ioc, std::string url, OnPoke on_poke,
                               core::platform::Logger& logger, OnTurnStop on_turn_stop)
    : ioc_(ioc),
      url_(std::move(url)),
      on_poke_(std::move(on_poke)),
      on_turn_stop_(std::move(on_turn_stop)),
      logger_(logger),
      socket_(ioc),
      deadline_(ioc) {}

PgPokeListener::~PgPokeListener() { Disconnect(); }

void PgPokeListener::Start() {
  // Run catches its own errors; this sees only the unexpected (out of memory).
  net::co_spawn(ioc_, Run(), [this](std::exception_ptr e) {
    if (e) logger_.Log(LogLevel::kError, "poke listener stopped unexpectedly");
  });
}

Status PgPokeListener::ConnectionError(const std::string& what) const {
  return Status(kStorage, what + ": " + Trimmed(conn_ ? PQerrorMessage(conn_) : "out of memory"));
}

void PgPokeListener::Disconnect() {
  listening_ = false;
  // The descriptor is libpq's: stop watching it without closing it.
  if (socket_.is_open()) socket_.release();
  if (conn_) PQfinish(conn_);
  conn_ = nullptr;
}

net::awaitable<void> PgPokeListener::Run() {
  auto backoff = kListenRetryFirst;
  net::steady_timer pause(ioc_);
  for (;;) {
    bool listened = false;
    Status st = co_await ListenOnce(listened);
    Disconnect();
    if (listened) backoff = kListenRetryFirst;  // It worked for a while: retry soon.
    logger_.Log(LogLevel::kWarning, "poke listener: " + st.ToString() + "; reconnecting in " +
                                        std::to_string(backoff.count()) + " ms");
    pause.expires_after(backoff);
    error_code ec;
    co_await pause.async_wait(AwaitToken(ec));
    backoff = std::min(backoff * 2, kListenRetryMax);
  }
}

net::awaitable<Status> PgPokeListener::ListenOnce(bool& listened) {
  if (Status st = co_await Connect(); !st.ok()) co_return st;
  const std::string listen = std::string("LISTEN ") + kPokeChannel + "; LISTEN " + kTurnStopChannel;
  auto listen_result = co_await Exec(listen.c_str());
  if (!listen_result.ok()) co_return listen_result.status();
  listened = true;
  listening_ = true;
  // Pokes sent while nobody listened are lost; the current version stands in
  // for them (the hub drops it when it is not news).
  auto version = co_await Exec("SELECT int_value FROM sync_state WHERE key = 'server_version'");
  if (!version.ok()) co_return version.status();
  if (PQntuples(version->get()) == 1) {
    if (auto v = ParsePokePayload(PQgetvalue(version->get(), 0, 0))) on_poke_(*v);
  }
  for (;;) {
    DeliverNotifications();
    if (Status st = co_await Wait(WaitFor::kRead, std::nullopt, false); !st.ok()) co_return st;
    if (!PQconsumeInput(conn_)) co_return ConnectionError("the listening connection failed");
  }
}

net::awaitable<Status> PgPokeListener::Connect() {
  const std::string idle = std::to_string(kListenKeepaliveIdleSeconds);
  const std::string interval = std::to_string(kListenKeepaliveIntervalSeconds);
  const std::string count = std::to_string(kListenKeepaliveCount);
  // The URL is expanded in place of dbname and may override the rest.
  const char* keys[] = {"client_encoding",     "application_name", "keepalives", "keepalives_idle",
                        "keepalives_interval", "keepalives_count", "dbname",     nullptr};
  const char* values[] = {"UTF8",           kListenApplicationName, "1",          idle.c_str(),
                          interval.c_str(), count.c_str(),          url_.c_str(), nullptr};
  conn_ = PQconnectStartParams(keys, values, /*expand_dbname=*/1);
  if (!conn_ || PQstatus(conn_) == CONNECTION_BAD) {
    co_return ConnectionError("cannot connect to PostgreSQL");
  }
  PQsetNoticeProcessor(conn_, IgnoreNotice, nullptr);
  const auto give_up = std::chrono::steady_clock::now() + kListenConnectTimeout;
  // libpq's protocol: start as if PQconnectPoll had asked to write.
  PostgresPollingStatusType poll = PGRES_POLLING_WRITING;
  while (poll != PGRES_POLLING_OK) {
    if (poll == PGRES_POLLING_FAILED) co_return ConnectionError("cannot connect to PostgreSQL");
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        give_up - std::chrono::steady_clock::now());
    if (left.count() <= 0) co_return Status(kStorage, "connecting to PostgreSQL timed out");
    // The socket can change between polls (another address is tried).
    Status st = co_await Wait(poll == PGRES_POLLING_READING ? WaitFor::kRead : WaitFor::kWrite,
                              left, /*reattach=*/true);
    if (!st.ok()) co_return st;
    poll = PQconnectPoll(conn_);
  }
  if (PQsetnonblocking(conn_, 1) != 0)
    co_return ConnectionError("cannot make the connection non-blocking");
  co_return Status::Ok();
}

net::awaitable<core::Result<PgPokeListener::ResultPtr>> PgPokeListener::Exec(const char* sql) {
  if (!PQsendQuery(conn_, sql)) co_return ConnectionError("cannot send a statement");
  for (;;) {
    int flushed = PQflush(conn_);
    if (flushed == 0) break;
    if (flushed < 0) co_return ConnectionError("cannot send a statement");
    if (Status st = co_await Wait(WaitFor::kWrite, kListenStatementTimeout, false); !st.ok()) {
      co_return st;
    }
  }
  ResultPtr last;
  for (;;) {
    if (!PQconsumeInput(conn_)) co_return ConnectionError("the listening connection failed");
    while (!PQisBusy(conn_)) {
      ResultPtr result(PQgetResult(conn_));
      if (!result) {
        if (!last) co_return Status(kStorage, "no result for a statement");
        ExecStatusType status = PQresultStatus(last.get());
        if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
          co_return Status(kStorage,
                           "statement failed: " + Trimmed(PQresultErrorMessage(last.get())));
        }
        co_return std::move(last);
      }
      last = std::move(result);
    }
    if (Status st = co_await Wait(WaitFor::kRead, kListenStatementTimeout, false); !st.ok()) {
      co_return st;
    }
  }
}

net::awaitable<Status> PgPokeListener::Wait(WaitFor what,
                                            std::optional<std::chrono::milliseconds> timeout,
                                            bool reattach) {
  const int fd = PQsocket(conn_);
  if (fd < 0) co_return Status(kStorage, "the connection to PostgreSQL has no socket");
  error_code ec;
  if (reattach && socket_.is_open()) socket_.release();
  if (!socket_.is_open()) {
    socket_.assign(fd, ec);
    if (ec) co_return Status(kStorage, "cannot watch the PostgreSQL socket: " + ec.message());
  }
  const uint64_t generation = ++wait_generation_;
  timed_out_ = false;
  if (timeout) {
    deadline_.expires_after(*timeout);
    deadline_.async_wait([this, generation](error_code timer_ec) {
      if (timer_ec || generation != wait_generation_) return;
      timed_out_ = true;
      error_code ignored;
      socket_.cancel(ignored);
    });
  }
  co_await socket_.async_wait(what == WaitFor::kRead ? net::posix::stream_descriptor::wait_read
                                                     : net::posix::stream_descriptor::wait_write,
                              AwaitToken(ec));
  ++wait_generation_;  // A deadline firing from now on is stale.
  if (timeout) deadline_.cancel();
  if (timed_out_) co_return Status(kStorage, "PostgreSQL did not answer in time");
  if (ec) co_return Status(kStorage, "waiting on the PostgreSQL socket failed: " + ec.message());
  co_return Status::Ok();
}

void PgPokeListener::DeliverNotifications() {
  while (PGnotify* n = PQnotifies(conn_)) {
    const std::string channel = n->relname;
    const std::string payload = n->extra ? n->extra : "";
    PQfreemem(n);
    if (channel == kPokeChannel) {
      if (std::optional<Poke> poke = ParsePokePayload(payload)) on_poke_(*poke);
    } else if (channel == kTurnStopChannel && on_turn_stop_ && !payload.empty()) {
      on_turn_stop_(payload);
    }
  }
}

}  // namespace ensemble::server::events
