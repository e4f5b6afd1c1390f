// Sign-in limits (core/accounts/sign_in_limits.h): failures counted per
// address and per account over a sliding window, sign-ups per address, and
// the wait until the oldest counted attempt leaves the window.

#include "core/accounts/sign_in_limits.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::accounts {
namespace {

constexpr int64_t kNow = 1'764'000'000'000;
constexpr char kAna[] = "ana@example.org";

class SignInLimitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
  }
  int64_t Wait(Attempt kind, const std::string& email, const std::string& address, int64_t now) {
    auto wait = WaitBeforeAttempt(*db_, kind, email, address, now);
    EXPECT_TRUE(wait.ok()) << wait.status().ToString();
    return wait.ok() ? *wait : -1;
  }
  void Fail(const std::string& email, const std::string& address, int64_t at) {
    ASSERT_TRUE(RecordAttempt(*db_, Attempt::kFailedSignIn, email, address, at).ok());
  }

  std::unique_ptr<store::SqliteDatabase> db_;
};

TEST_F(SignInLimitsTest, AnAddressWaitsOutTheWindowAfterItsFailures) {
  for (int64_t i = 0; i < kMaxFailuresPerAddress; ++i) {
    EXPECT_EQ(Wait(Attempt::kFailedSignIn, kAna, "10.0.0.1", kNow + i), 0);
    Fail(kAna, "10.0.0.1", kNow + i);
  }
  // The oldest failure leaves the window a whole window after it.
  EXPECT_EQ(Wait(Attempt::kFailedSignIn, kAna, "10.0.0.1", kNow + 100), kSignInWindowMs - 100);
  EXPECT_EQ(Wait(Attempt::kFailedSignIn, "bo@example.org", "10.0.0.1", kNow + 100),
            kSignInWindowMs - 100);  // Any account, from there.
  // Another address is not held up by this one's failures.
  EXPECT_EQ(Wait(Attempt::kFailedSignIn, kAna, "10.0.0.2", kNow + 100), 0);
  EXPECT_EQ(Wait(Attempt::kFailedSignIn, kAna, "10.0.0.1", kNow + kSignInWindowMs + 1), 0);
}

TEST_F(SignInLimitsTest, AnAccountFailedFromManyAddressesWaitsForEveryone) {
  for (int64_t i = 0; i < kMaxFailuresPerAccount; ++i) {
    Fail(kAna, "10.1.0." + std::to_string(i), kNow);
  }
  EXPECT_EQ(Wait(Attempt::kFailedSignIn, kAna, "10.9.9.9", kNow + 1), kSignInWindowMs - 1);
  EXPECT_EQ(Wait(Attempt::kFailedSignIn, "bo@example.org", "10.9.9.9", kNow + 1), 0);
}

TEST_F(SignInLimitsTest, SignUpsCountPerAddressAndOldAttemptsAreForgotten) {
  for (int64_t i = 0; i < kMaxSignUpsPerAddress; ++i) {
    ASSERT_TRUE(RecordAttempt(*db_, Attempt::kSignUp, "", "10.0.0.1", kNow).ok());
  }
  EXPECT_GT(Wait(Attempt::kSignUp, "", "10.0.0.1", kNow + 1), 0);
  EXPECT_EQ(Wait(Attempt::kFailedSignIn, kAna, "10.0.0.1", kNow + 1), 0);  // Not failures.
  // A later attempt drops what left the window.
  Fail(kAna, "10.0.0.3", kNow + kSignInWindowMs + 5);
  auto left = db_->Query("SELECT COUNT(*) FROM sign_in_attempts");
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(store::AsInt(left->rows[0][0]), 1);
}

}  // namespace
}  // namespace ensemble::core::accounts
