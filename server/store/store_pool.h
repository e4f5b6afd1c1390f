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
// Short work on the embedded store (RunShort) runs on the calling thread when
// the connection is idle: its statements take tens of microseconds, and the
// two thread hops of Run (there and back) cost more than that, and far more
// when the cores are busy, since each is a wake-up that waits for a core.
// That time is taken from the calling thread's other requests, so it is
// capped (kShortWorkBudget); past the cap the work hops as Run's does.
//
// Thread-safety: Run and RunShort may be called from any coroutine; each
// Database is used by one thread at a time. Destroying the pool waits for
// running work.

#ifndef ENSEMBLE_SERVER_STORE_STORE_POOL_H_
#define ENSEMBLE_SERVER_STORE_STORE_POOL_H_

#include "server/boost_prelude.h"

#include <boost/asio/async_result.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/store/sqlite_database.h"
#include "server/config.h"
#include "server/metrics/metrics.h"

namespace ensemble::server::store {

// RunShort's work runs on the calling thread for at most kShortWorkBudget of
// every kShortWorkWindow; past it (many turns starting at once, say) it
// hops to a worker, so that the calling thread goes on serving the other
// requests (their streamed frames) at least half the time.
inline constexpr std::chrono::microseconds kShortWorkWindow{10'000};
inline constexpr std::chrono::microseconds kShortWorkBudget{5'000};

class StorePool {
 public:
  // Opens and migrates the configured store (see OpenStore), with as many
  // connections as its kind allows.
  static core::Result<std::unique_ptr<StorePool>> Open(const Config& config);
  ~StorePool();

  core::store::Dialect dialect() const { return dialect_; }
  size_t size() const { return size_; }

  // Observes how long Run's work waits for a worker and a connection
  // (ensemble_store_wait_seconds) and counts the work queued or running
  // (ensemble_store_jobs); `registry` must outlive the pool. Call before
  // any work.
  void SetMetrics(metrics::Registry& registry);

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
              if (jobs_) jobs_->Add(1);
              boost::asio::post(workers_, [this, caller, fn = std::move(fn),
                                           queued = std::chrono::steady_clock::now(),
                                           handler = std::move(handler)]() mutable {
                std::exception_ptr error;
                std::optional<R> result;
                try {
                  Lease lease(*this);
                  if (wait_) {
                    wait_->Observe(
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - queued)
                            .count());
                  }
                  result.emplace(fn(lease.db()));
                } catch (...) {
                  error = std::current_exception();
                }
                if (jobs_) jobs_->Add(-1);
                boost::asio::post(caller, [handler = std::move(handler), error,
                                           result = std::move(result)]() mutable {
                  std::move(handler)(error, std::move(result));
                });
              });
            },
            boost::asio::use_awaitable, std::move(fn));
    co_return std::move(*result);
  }

  // Runs fn(Database&) as Run does, but on the calling thread when the store
  // is embedded, its connection idle and kShortWorkBudget not spent, so that
  // short work costs no thread hop; otherwise (PostgreSQL, whose statements
  // wait on the network; a connection in use; the budget spent) it is Run.
  // fn must be short and wait on no disk: a few indexed statements and at
  // most a relaxed commit (Durability), never an outside call, since the
  // calling thread serves every other request.
  template <typename Fn>
  boost::asio::awaitable<std::invoke_result_t<Fn&, core::store::Database&>> RunShort(Fn fn) {
    if (dialect_ == core::store::Dialect::kSqlite) {
      if (std::unique_ptr<core::store::Database> db = TryTakeForShortWork()) {
        Lease lease(*this, std::move(db));
        ShortWork short_work(*this, lease.db());
        co_return fn(lease.db());
      }
    }
    co_return co_await Run(std::move(fn));
  }

  // Runs fn(Database&) as Run does, in one transaction that commits when fn
  // succeeds and rolls back when it fails (core::store::RunInTransaction).
  template <typename Fn>
  boost::asio::awaitable<std::invoke_result_t<Fn&, core::store::Database&>> RunInTransaction(
      Fn fn, core::store::Durability durability = core::store::Durability::kFull) {
    co_return co_await Run([fn = std::move(fn), durability](core::store::Database& db) mutable {
      return core::store::RunInTransaction(db, fn, durability);
    });
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
    Lease(StorePool& pool, std::unique_ptr<core::store::Database> db)
        : pool_(pool), db_(std::move(db)) {}
    ~Lease() { pool_.Give(std::move(db_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    core::store::Database& db() { return *db_; }

   private:
    StorePool& pool_;
    std::unique_ptr<core::store::Database> db_;
  };

  // RunShort's work on the calling thread, while alive: a commit on `db`
  // (the embedded store's connection) leaves its checkpoint, a wait for the
  // disk, to a worker, and the time taken is charged to the budget.
  class ShortWork {
   public:
    ShortWork(StorePool& pool, core::store::Database& db);
    ~ShortWork();
    ShortWork(const ShortWork&) = delete;
    ShortWork& operator=(const ShortWork&) = delete;

   private:
    StorePool& pool_;
    core::store::SqliteDatabase* sqlite_;
    const std::chrono::steady_clock::time_point started_;
  };

  // Posts a checkpoint of the embedded store to a worker.
  void CheckpointOnWorker();
  // A connection, waiting while RunShort holds one (there are as many
  // workers as connections, so only RunShort's can be missing, and briefly).
  std::unique_ptr<core::store::Database> Take();
  // A connection for ShortWork if one is idle and the budget not spent in
  // this window, else null.
  std::unique_ptr<core::store::Database> TryTakeForShortWork();
  void Give(std::unique_ptr<core::store::Database> db);

  const core::store::Dialect dialect_;
  const size_t size_;
  std::mutex mu_;
  std::condition_variable given_;
  std::vector<std::unique_ptr<core::store::Database>> idle_;  // Guarded by mu_.
  std::chrono::steady_clock::time_point window_start_;        // Guarded by mu_.
  std::chrono::steady_clock::duration short_work_spent_{};    // Guarded by mu_.
  metrics::Histogram* wait_ = nullptr;                        // Set before any work.
  metrics::Gauge* jobs_ = nullptr;                            // Set before any work.
  boost::asio::thread_pool workers_;  // Last: joined before the connections close.
};

}  // namespace ensemble::server::store

#endif  // ENSEMBLE_SERVER_STORE_STORE_POOL_H_
