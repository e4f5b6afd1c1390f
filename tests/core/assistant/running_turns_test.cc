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

TEST_F(RunningTurnsTest, PausingStopsTheAccountsTurnsAndRefusesNewOnesUntilResumed) {
  Record("t1", "ana", "process-a");
  Record("t2", "ana", "process-b");
  Record("t3", "ben", "process-a");
  auto paused = PauseAssistant(*db_, "ana", kNow + 10);
  ASSERT_TRUE(paused.ok()) << paused.status().ToString();
  ASSERT_EQ(paused->size(), 2u);
  for (const RunningTurnRow& turn : *paused) EXPECT_EQ(turn.state, "stopping");
  EXPECT_EQ((*paused)[0].owner == "process-b" ? (*paused)[1].owner : (*paused)[0].owner,
            "process-a");
  auto ben = ListRunningTurns(*db_, "ben", kNow);
  ASSERT_TRUE(ben.ok());
  EXPECT_EQ((*ben)[0].state, "working") << "another account's turn runs on";

  Status refused = RecordRunningTurn(*db_, {"t4", "ana", "c-t4", "", kNow, "p"}, kNow);
  EXPECT_EQ(refused.code(), codes::kAssistantPaused) << refused.ToString();
  Record("t5", "ben", "process-a");  // Ben's assistant is not paused.

  // Pausing again keeps the first pause's time.
  ASSERT_TRUE(PauseAssistant(*db_, "ana", kNow + 99).ok());
  auto since = AssistantPausedAt(*db_, "ana");
  ASSERT_TRUE(since.ok());
  EXPECT_EQ(*since, std::optional<int64_t>(kNow + 10));
  EXPECT_EQ(*AssistantPausedAt(*db_, "ben"), std::nullopt);

  ASSERT_TRUE(ResumeAssistant(*db_, "ana").ok());
  EXPECT_EQ(*AssistantPausedAt(*db_, "ana"), std::nullopt);
  Record("t4", "ana", "process-a");
  ASSERT_TRUE(ResumeAssistant(*db_, "ana").ok()) << "resuming twice is not an error";
}

}  // namespace
}  // namespace ensemble::core::assistant
