// StorePool: work runs on a worker with a connection of its own; what it
// returns, or throws, reaches the awaiting coroutine; the connection always
// goes back to the pool.

#include "server/store/store_pool.h"

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/store/database.h"

namespace ensemble::testing {
namespace {

namespace net = boost::asio;

class StorePoolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ensemble-pool-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + std::to_string(reinterpret_cast<uintptr_t>(this)));
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

}  // namespace
}  // namespace ensemble::testing
