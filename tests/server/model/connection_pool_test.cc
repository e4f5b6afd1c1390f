// ModelConnectionPool on its own: which idle connection comes back, the cap
// per provider, and the idle limit. (Reuse over real sockets is tested with
// the client, in openai_client_test.cc.)

#include "server/model/connection_pool.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <thread>

namespace ensemble::server::model {
namespace {

class ModelConnectionPoolTest : public ::testing::Test {
 protected:
  // An unconnected plain connection, told apart by its address.
  std::unique_ptr<ModelConnection> Connection() {
    auto c = std::make_unique<ModelConnection>();
    c->plain = std::make_unique<boost::beast::tcp_stream>(ioc_);
    return c;
  }

  boost::asio::io_context ioc_;
};

TEST_F(ModelConnectionPoolTest, GivesBackTheMostRecentConnectionOfThatProvider) {
  ModelConnectionPool pool(ioc_.get_executor());
  auto first = Connection(), second = Connection();
  ModelConnection* second_at = second.get();
  pool.Put("http a 80 ", std::move(first));
  pool.Put("http a 80 ", std::move(second));
  EXPECT_EQ(pool.Take("http b 80 "), nullptr);
  EXPECT_EQ(pool.Take("http a 80 ").get(), second_at);
  EXPECT_EQ(pool.idle(), 1u);
  EXPECT_NE(pool.Take("http a 80 "), nullptr);
  EXPECT_EQ(pool.Take("http a 80 "), nullptr);
}

TEST_F(ModelConnectionPoolTest, KeepsAtMostTheCapPerProvider) {
  ModelConnectionPool pool(ioc_.get_executor());
  for (size_t i = 0; i < kMaxIdleModelConnectionsPerKey + 3; ++i) pool.Put("k", Connection());
  pool.Put("other", Connection());
  EXPECT_EQ(pool.idle(), kMaxIdleModelConnectionsPerKey + 1);
}

TEST_F(ModelConnectionPoolTest, NeverGivesOutAConnectionIdlePastTheLimit) {
  ModelConnectionPool pool(ioc_.get_executor(), std::chrono::milliseconds(30));
  pool.Put("k", Connection());
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  EXPECT_EQ(pool.Take("k"), nullptr);
  EXPECT_EQ(pool.idle(), 0u);
}

}  // namespace
}  // namespace ensemble::server::model
