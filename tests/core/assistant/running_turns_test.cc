#include "core/assistant/running_turns.h"

#include <gtest/gtest.h>

#include <memory>

#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::assistant {
namespace {

constexpr int64_t kNow = 1'800'000'000'000;

class RunningTurnsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
  }
  void Record(const std::string& id, const std::string& account, const std::string& owner,
              int64_t now = kNow) {
    ASSERT_TRUE(RecordRunningTurn(*db_, {id, account, "c-" + id, "", now, owner}, now).ok());
  }
  std::vector<std::string> Ids(const std::string& account, int64_t now = kNow) {
    auto turns = ListRunningTurns(*db_, account, now);
    EXPECT_TRUE(turns.ok()) << turns.status().ToString();
    std::vector<std::string> out;
    for (const auto& t : *turns) out.push_back(t.id);
    return out;
  }

  std::unique_ptr<store::Database> db_;
};

TEST_F(RunningTurnsTest, ListsTheAccountsTurnsFromEveryProcessOldestFirst) {
  Record("t2", "ana", "process-b", kNow + 5);
  Record("t1", "ana", "process-a");
  Record("t3", "ben", "process-a");
  EXPECT_EQ(Ids("ana", kNow + 5), (std::vector<std::string>{"t1", "t2"}));
  auto turns = ListRunningTurns(*db_, "ana", kNow + 5);
  ASSERT_TRUE(turns.ok());
  EXPECT_EQ((*turns)[0].state, "working");
  EXPECT_EQ((*turns)[0].conversation_id, "c-t1");
  EXPECT_EQ((*turns)[1].owner, "process-b");
  ASSERT_TRUE(ForgetRunningTurn(*db_, "t1").ok());
  EXPECT_EQ(Ids("ana", kNow + 5), (std::vector<std::string>{"t2"}));
}

TEST_F(RunningTurnsTest, ATurnWhoseProcessStoppedBeatingIsNoLongerRunning) {
  Record("alive", "ana", "process-a");
  Record("orphan", "ana", "process-dead");
  const int64_t later = kNow + kRunningTurnStaleMs + 1;
  ASSERT_TRUE(BeatRunningTurns(*db_, "process-a", {"alive"}, later).ok());
  EXPECT_EQ(Ids("ana", later), (std::vector<std::string>{"alive"}));
  // Purged, not just hidden: the beat deleted it.
  auto all = db_->Query("SELECT id FROM assistant_running_turns");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 1u);
  // A process beats only its own turns.
  const int64_t much_later = later + kRunningTurnStaleMs + 1;
  ASSERT_TRUE(BeatRunningTurns(*db_, "process-b", {"alive"}, much_later).ok());
  EXPECT_TRUE(Ids("ana", much_later).empty());
}

TEST_F(RunningTurnsTest, StoppingMarksTheAccountsOwnRunningTurnOnly) {
  Record("t1", "ana", "process-b");
  auto other = MarkTurnStopping(*db_, "ben", "t1", kNow);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().code(), codes::kNotFound);
  auto missing = MarkTurnStopping(*db_, "ana", "t9", kNow);
  EXPECT_EQ(missing.status().code(), codes::kNotFound);
  auto stale = MarkTurnStopping(*db_, "ana", "t1", kNow + kRunningTurnStaleMs + 1);
  EXPECT_EQ(stale.status().code(), codes::kNotFound);

  auto stopping = MarkTurnStopping(*db_, "ana", "t1", kNow);
  ASSERT_TRUE(stopping.ok()) << stopping.status().ToString();
  EXPECT_EQ(stopping->owner, "process-b");
  EXPECT_EQ(stopping->state, "stopping");
  auto turns = ListRunningTurns(*db_, "ana", kNow);
  ASSERT_TRUE(turns.ok());
  ASSERT_EQ(turns->size(), 1u);
  EXPECT_EQ((*turns)[0].state, "stopping");
}

TEST_F(RunningTurnsTest, AnAccountRunsAtMostThreeTurnsAtOnce) {
  for (size_t i = 0; i < kMaxConcurrentTurnsPerAccount; ++i) {
    Record("t" + std::to_string(i), "ana", "process-a");
  }
  Status more = RecordRunningTurn(*db_, {"t9", "ana", "c-t9", "", kNow, "process-b"}, kNow);
  EXPECT_EQ(more.code(), codes::kLimitReached) << more.ToString();
  EXPECT_EQ(Ids("ana").size(), kMaxConcurrentTurnsPerAccount);
  Record("t10", "ben", "process-a");  // Another account is not held up.
  // One ends (or its process stops beating): there is room again.
  ASSERT_TRUE(ForgetRunningTurn(*db_, "t0").ok());
  Record("t9", "ana", "process-b");
}

TEST_F(RunningTurnsTest, AnOperatorsLimitHoldsPastWhatAListShows) {
  constexpr size_t kLimit = kMaxRunningTurnsListed + 5;
  for (size_t i = 0; i < kLimit; ++i) {
    const std::string id = "t" + std::to_string(i);
    ASSERT_TRUE(RecordRunningTurn(*db_, {id, "ana", "c-" + id, "", kNow, "p"}, kNow, kLimit).ok())
        << i;
  }
  Status more = RecordRunningTurn(*db_, {"tx", "ana", "c-tx", "", kNow, "p"}, kNow, kLimit);
  EXPECT_EQ(more.code(), codes::kLimitReached) << more.ToString();
  EXPECT_NE(more.message().find(std::to_string(kLimit) + " assistant turns"), std::string::npos);
}

}  // namespace
}  // namespace ensemble::core::assistant
