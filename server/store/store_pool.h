// StorePool: the server's store connections, each used by one worker thread
// at a time, so a request waiting on the store holds up neither the io thread
// (which keeps reading, parsing and writing other requests) nor, on
// PostgreSQL, other requests' statements: they run side by side on their own
// connections. Row locks in the store (the client row, the version counter)
// keep concurrent pushes correct; see core/sync/server_sync.h.
//
// The embedded SQLite store gets one connection (SQLite runs one writer at a
// time anyway); PostgreSQL gets Config::store_connections.
//
// Thread-safety: Run may be called from any coroutine; each Database is used
// by one worker at a time. Destroying the pool waits for running work.

#ifndef ENSEMBLE_SERVER_STORE_STORE_POOL_H_
#define ENSEMBLE_SERVER_STORE_STORE_POOL_H_

// clang-format off
#include <utility>  // Before Asio: Boost 1.74's awaitable.hpp misses it under GCC 12.
// clang-format on
#include <boost/asio/async_result.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"
#include "server/config.h"

namespace ensemble::server::store {

class StorePool {
 public:
  // Opens and migrates the configured store (see OpenStore), with as many
  // connections as its kind allows.
  static core::Result<std::unique_ptr<StorePool>> Open(const Config& config);
  ~StorePool();

  core::store::Dialect dialect() const { return dialect_; }
  size_t size() const { return size_; }

  // Runs fn(Database&) on a worker thread with a connection of its own and
  // resumes the calling coroutine, on its executor, with what fn returned.
  // fn must finish its transactions before returning. If it throws (a bug),
  // the exception is rethrown in the caller, as if fn had run there (the
  // router answers 500), and the connection goes back to the pool.
  template <typename Fn>
  boost::asio::awaitable<std::invoke_result_t<Fn&, core::store::Database&>> Run(Fn fn) {
    using R = std::invoke_result_t<Fn&, core::store::Database&>;
    auto caller = co_await boost::asio::this_coro::executor;
    std::optional<R> result =
        co_await boost::asio::async_initiate<decltype(boost::asio::use_awaitable),
                                             void(std::exception_ptr, std::optional<R>)>(
            [this, caller](auto handler, Fn fn) {
              boost::asio::post(workers_, [this, caller, fn = std::move(fn),
                                           handler = std::move(handler)]() mutable {
                std::exception_ptr error;
                std::optional<R> result;
                try {
                  Lease lease(*this);
                  result.emplace(fn(lease.db()));
                } catch (...) {
                  error = std::current_exception();
                }
                boost::asio::post(caller, [handler = std::move(handler), error,
                                           result = std::move(result)]() mutable {
                  std::move(handler)(error, std::move(result));
                });
              });
            },
            boost::asio::use_awaitable, std::move(fn));
    co_return std::move(*result);
  }

  // Waits for the work in flight and accepts no more. Results are posted to
  // each caller's executor, so the owner calls this before destroying an
  // io_context that callers ran on.
  void WaitForJobs() { workers_.join(); }

 private:
  StorePool(core::store::Dialect dialect, std::vector<std::unique_ptr<core::store::Database>> dbs);

  // A connection taken from the pool for one piece of work, given back
  // however the work ends.
  class Lease {
   public:
    explicit Lease(StorePool& pool) : pool_(pool), db_(pool.Take()) {}
    ~Lease() { pool_.Give(std::move(db_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    core::store::Database& db() { return *db_; }

   private:
    StorePool& pool_;
    std::unique_ptr<core::store::Database> db_;
  };

  // There are as many workers as connections, so a worker always finds one.
  std::unique_ptr<core::store::Database> Take();
  void Give(std::unique_ptr<core::store::Database> db);

  const core::store::Dialect dialect_;
  const size_t size_;
  std::mutex mu_;
  std::vector<std::unique_ptr<core::store::Database>> idle_;  // Guarded by mu_.
  boost::asio::thread_pool workers_;  // Last: joined before the connections close.
};

}  // namespace ensemble::server::store

#endif  // ENSEMBLE_SERVER_STORE_STORE_POOL_H_
