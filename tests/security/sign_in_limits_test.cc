// Sign-in under a flood (docs/SECURITY.md, "Hostile model answers and heavy
// requests"): failed sign-ins are limited per address with a wait, the
// password-checking queue is bounded and answers 503 with Retry-After when
// full, a request without a session brings at most 64 KiB, and through all
// of it the real person, from their own address, still signs in.

#include "core/accounts/sign_in_limits.h"

#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "server/http/http_session.h"
#include "server/services/auth_service.h"
#include "tests/server/accounts_fixture.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;
namespace bhttp = boost::beast::http;

constexpr char kRightPassword[] = "correct horse battery staple";
constexpr int kFloodThreads = 8;
constexpr int kFloodPerThread = 12;
constexpr int kBurst = 48;
constexpr int kMaxRealTries = 30;

class SignInFlood : public AccountsServerTest {
 protected:
  void Configure(server::Config& config) override {
    config.accounts = true;
    config.open_signup = true;
    config.private_links = false;
  }
  HttpReply LogIn(const std::string& from, const std::string& email, const std::string& password) {
    return SendFrom(from, bhttp::verb::post, "/api/auth/login",
                    json{{"email", email}, {"password", password}}.dump());
  }
  // Each of `count` clients sends one sign-in at the same moment, client i
  // from `address(i)`; the statuses seen, with how many of each.
  template <typename AddressFn>
  std::map<int, int> AllAtOnce(int threads, int per_thread, AddressFn address,
                               const std::string& email, std::vector<std::string>* retry_afters) {
    std::barrier start(threads);
    std::mutex mu;
    std::map<int, int> seen;
    std::vector<std::thread> clients;
    for (int t = 0; t < threads; ++t) {
      clients.emplace_back([&, t] {
        start.arrive_and_wait();
        for (int i = 0; i < per_thread; ++i) {
          HttpReply r = LogIn(address(t), email, "wrong password " + std::to_string(i));
          std::lock_guard<std::mutex> lock(mu);
          ++seen[r.status];
          if (retry_afters && (r.status == 429 || r.status == 503)) {
            retry_afters->push_back(r.header(bhttp::field::retry_after));
          }
        }
      });
    }
    for (std::thread& c : clients) c.join();
    return seen;
  }
};

TEST_P(SignInFlood, AFloodFromOneAddressLeavesTheRealSignInWorking) {
  ASSERT_EQ(Signup("ana@example.org", kRightPassword).status, 201);
  std::vector<std::string> waits;
  std::map<int, int> seen = AllAtOnce(
      kFloodThreads, kFloodPerThread, [](int) { return std::string("127.0.0.9"); },
      "ana@example.org", &waits);
  for (const auto& [status, n] : seen) {
    EXPECT_TRUE(status == 401 || status == 429 || status == 503) << status << " x" << n;
  }
  // Checked at most a queue's worth past the address's limit (the racers
  // that passed the check together), then told to wait.
  EXPECT_LE(seen[401], core::accounts::kMaxFailuresPerAddress +
                           static_cast<int>(server::services::kMaxQueuedPasswordHashes));
  EXPECT_GT(seen[429], 0);
  for (const std::string& w : waits) EXPECT_GT(std::atoi(w.c_str()), 0) << w;
  EXPECT_EQ(LogIn("127.0.0.9", "ana@example.org", kRightPassword).status, 429);

  // Ana, from her own address, gets in (told to wait a moment at most).
  HttpReply real;
  for (int i = 0; i < kMaxRealTries; ++i) {
    real = LogIn("127.0.0.2", "ana@example.org", kRightPassword);
    if (real.status != 503) break;
    std::this_thread::sleep_for(
        std::chrono::seconds(std::atoi(real.header(bhttp::field::retry_after).c_str())));
  }
  EXPECT_EQ(real.status, 200) << real.body();
  EXPECT_FALSE(SessionCookieOf(real).empty());
}

TEST_P(SignInFlood, APasswordQueuePastItsBoundAnswersBusy) {
  // Each client from its own address: no limit applies, only the queue.
  std::vector<std::string> waits;
  std::map<int, int> seen = AllAtOnce(
      kBurst, 1, [](int t) { return "127.0.1." + std::to_string(t + 1); }, "nobody@example.org",
      &waits);
  EXPECT_EQ(seen[401] + seen[503], kBurst) << seen.size();
  EXPECT_GT(seen[503], 0);
  for (const std::string& w : waits) {
    EXPECT_EQ(w, std::to_string(server::services::kBusyRetryAfterSeconds));
  }
  // Served, not stuck: once the queue drains the server answers at once.
  EXPECT_EQ(LogIn("127.0.2.1", "nobody@example.org", "x").status, 401);
}

TEST_P(SignInFlood, ARequestWithoutASessionBringsAtMost64KiB) {
  const std::string big(server::http::kMaxUnauthenticatedBodyBytes + 1, 'x');
  HttpReply refused = Send(bhttp::verb::post, "/api/auth/login",
                           json{{"email", "ana@example.org"}, {"password", big}}.dump());
  EXPECT_EQ(refused.status, 413) << refused.body();
  EXPECT_EQ(refused.error_code(), "BODY_TOO_LARGE");
  // Signed in, the same size is an ordinary body (refused for what it says).
  Member ana = SignedUp("ana@example.org");
  HttpReply pushed = Call(
      ana, bhttp::verb::post, "/api/sync/push",
      {{"clientGroupId", "g"}, {"clientId", "c"}, {"padding", big}, {"mutations", json::array()}});
  EXPECT_NE(pushed.status, 413) << pushed.body();
}

INSTANTIATE_TEST_SUITE_P(Stores, SignInFlood,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
