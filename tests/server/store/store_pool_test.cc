// StorePool: work runs on a worker with a connection of its own; what it
// returns, or throws, reaches the awaiting coroutine; the connection always
// goes back to the pool. Short work on the embedded store runs on the
// calling thread when the connection is idle, and leaves its checkpoints to
// a worker.

#include "server/store/store_pool.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <filesystem>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/store/database.h"
#include "server/store/open_store.h"

namespace ensemble::testing {
namespace {

namespace net = boost::asio;

class StorePoolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The process id too: ctest runs each test in a process of its own, two
    // at a time, and under ASan two of them can put the fixture at one
    // address, so they shared a store and failed with "database is locked".
    dir_ = std::filesystem::temp_directory_path() /
           ("ensemble-pool-" + std::to_string(::getpid()) + "-" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            std::to_string(reinterpret_cast<uintptr_t>(this)));
    std::filesystem::create_directories(dir_);
    server::Config config;
    config.data_dir = dir_.string();
    auto pool = server::store::StorePool::Open(config);
    ASSERT_TRUE(pool.ok()) << pool.status().ToString();
    pool_ = std::move(*pool);
  }
  void TearDown() override {
    pool_.reset();
    std::filesystem::remove_all(dir_);
  }
  // Runs `body` as a coroutine on an io_context until it finishes.
  template <typename Body>
  void RunCoroutine(Body body) {
    net::io_context ioc;
    net::co_spawn(ioc, std::move(body), net::detached);
    ioc.run();
  }

  std::filesystem::path dir_;
  std::unique_ptr<server::store::StorePool> pool_;
};

TEST_F(StorePoolTest, WorkRunsOffTheCallingThreadAndItsResultComesBack) {
  const auto caller = std::this_thread::get_id();
  std::thread::id worker, resumed;
  int64_t answer = 0;
  RunCoroutine([&]() -> net::awaitable<void> {
    answer = co_await pool_->Run([&](core::store::Database& db) {
      worker = std::this_thread::get_id();
      return core::store::AsInt(db.Query("SELECT 6 * 7")->rows[0][0]);
    });
    resumed = std::this_thread::get_id();
  });
  EXPECT_EQ(answer, 42);
  EXPECT_NE(worker, caller);
  EXPECT_EQ(resumed, caller);
}

TEST_F(StorePoolTest, AThrowingJobRethrowsInTheCallerAndFreesItsConnection) {
  std::string caught;
  int64_t after = 0;
  RunCoroutine([&]() -> net::awaitable<void> {
    for (size_t i = 0; i < pool_->size() + 2; ++i) {
      try {
        co_await pool_->Run([](core::store::Database& db) -> int {
          core::store::Transaction txn(db);
          (void)db.Exec("CREATE TABLE t (x INTEGER)");
          throw std::runtime_error("a bug");
        });
      } catch (const std::runtime_error& e) {
        caught = e.what();
      }
    }
    // Every connection came back, and the thrown transaction rolled back.
    after = co_await pool_->Run([](core::store::Database& db) {
      return core::store::AsInt(
          db.Query("SELECT COUNT(*) FROM sqlite_master WHERE name = 't'")->rows[0][0]);
    });
  });
  EXPECT_EQ(caught, "a bug");
  EXPECT_EQ(after, 0);
}

TEST_F(StorePoolTest, ShortWorkRunsOnTheCallingThreadWhenTheConnectionIsIdle) {
  const auto caller = std::this_thread::get_id();
  std::thread::id ran;
  int64_t answer = 0;
  RunCoroutine([&]() -> net::awaitable<void> {
    answer = co_await pool_->RunShort([&](core::store::Database& db) {
      ran = std::this_thread::get_id();
      return core::store::AsInt(db.Query("SELECT 6 * 7")->rows[0][0]);
    });
  });
  EXPECT_EQ(answer, 42);
  EXPECT_EQ(ran, caller);
}

TEST_F(StorePoolTest, ShortWorkWaitsOnAWorkerWhileTheConnectionIsBusy) {
  const auto caller = std::this_thread::get_id();
  std::promise<void> held;
  std::thread::id ran;
  std::vector<std::string> order;
  net::io_context ioc;
  net::co_spawn(
      ioc,
      [&]() -> net::awaitable<void> {
        co_await pool_->Run([&](core::store::Database&) {
          held.set_value();
          // Long enough for the short work below to find the connection taken.
          std::this_thread::sleep_for(std::chrono::milliseconds(200));
          order.push_back("long");
          return 0;
        });
      },
      net::detached);
  net::co_spawn(
      ioc,
      [&]() -> net::awaitable<void> {
        held.get_future().wait();
        co_await pool_->RunShort([&](core::store::Database&) {
          ran = std::this_thread::get_id();
          order.push_back("short");
          return 0;
        });
      },
      net::detached);
  ioc.run();
  EXPECT_NE(ran, caller);
  EXPECT_EQ(order, (std::vector<std::string>{"long", "short"}));
}

TEST_F(StorePoolTest, ShortWorkPastItsBudgetHopsUntilTheNextWindow) {
  const auto caller = std::this_thread::get_id();
  bool hopped = false, inline_again = false;
  RunCoroutine([&]() -> net::awaitable<void> {
    // Work that spends the window's budget, then work right after it: that
    // one hops. Tried a few times, since a stall of the test between the two
    // (longer than the rest of the window) starts a new window.
    for (int attempt = 0; attempt < 5 && !hopped; ++attempt) {
      co_await pool_->RunShort([](core::store::Database&) {
        std::this_thread::sleep_for(server::store::kShortWorkBudget + std::chrono::milliseconds(1));
        return 0;
      });
      hopped = co_await pool_->RunShort(
          [&](core::store::Database&) { return std::this_thread::get_id() != caller; });
    }
    std::this_thread::sleep_for(server::store::kShortWorkWindow);
    inline_again = co_await pool_->RunShort(
        [&](core::store::Database&) { return std::this_thread::get_id() == caller; });
  });
  EXPECT_TRUE(hopped);
  EXPECT_TRUE(inline_again);
}

TEST_F(StorePoolTest, ShortWorkLeavesItsCheckpointToAWorker) {
  const auto caller = std::this_thread::get_id();
  const auto file = dir_ / server::store::kSqliteFileName;
  uintmax_t after_short = 0, after_worker = 0;
  bool due = false;
  RunCoroutine([&]() -> net::awaitable<void> {
    co_await pool_->RunShort([&](core::store::Database& db) {
      EXPECT_EQ(std::this_thread::get_id(), caller);
      core::store::Transaction txn(db);
      EXPECT_TRUE(db.ExecScript("CREATE TABLE pool_test_filler (b BLOB)").ok());
      const core::Status wrote = db.Exec(
          "INSERT INTO pool_test_filler SELECT randomblob(3900) FROM (WITH RECURSIVE c(x) AS "
          "(SELECT 1 "
          "UNION ALL SELECT x + 1 FROM c WHERE x < $1) SELECT x FROM c)",
          {core::store::Value(int64_t{core::store::kSqliteCheckpointFrames + 10})});
      EXPECT_TRUE(wrote.ok()) << wrote.ToString();
      EXPECT_TRUE(txn.Commit().ok());
      due = dynamic_cast<core::store::SqliteDatabase&>(db).checkpoint_due();
      after_short = std::filesystem::file_size(file);
      return 0;
    });
    // The one worker runs jobs in order: the checkpoint, then this.
    after_worker = co_await pool_->Run(
        [&](core::store::Database&) { return std::filesystem::file_size(file); });
  });
  EXPECT_TRUE(due);
  EXPECT_LT(after_short, uintmax_t{core::store::kSqliteCheckpointFrames} * 3900);
  EXPECT_GT(after_worker, uintmax_t{core::store::kSqliteCheckpointFrames} * 3900);
}

}  // namespace
}  // namespace ensemble::testing
