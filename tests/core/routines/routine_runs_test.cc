// Routine runs (core/routines/routine_runs.h): which routines are due, each
// scheduled time claimed once, and as whom they run.

#include "core/routines/routine_runs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "core/calendar/civil_time.h"
#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::routines {
namespace {

int64_t Utc(int d, int h, int mi) { return calendar::LocalSeconds(2026, 12, d, h, mi, 0) * 1000; }

class RoutineRunsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
    ASSERT_TRUE(db_->Exec("INSERT INTO spaces (id) VALUES ('s1')").ok());
    ASSERT_TRUE(db_->Exec("INSERT INTO space_members (space_id, account_id, role)"
                          " VALUES ('s1', 'ana', 'owner'), ('s1', 'ben', 'editor')")
                    .ok());
  }
  // A routine created at 07:00 UTC on 1 December.
  void AddRoutine(const std::string& id, const std::string& space,
                  const std::string& schedule = R"({"frequency":"daily","time":"08:00"})",
                  int paused = 0, int deleted = 0, const std::string& author = "ana") {
    ASSERT_TRUE(
        db_->Exec("INSERT INTO routines (id, space_id, title, instruction, schedule,"
                  " paused, version, deleted, created_at, updated_at, author)"
                  " VALUES ($1, $2, 'Brief', 'Sum up my day', $3, $4, 1, $5, $6, $6, $7)",
                  {id, space, schedule, int64_t{paused}, int64_t{deleted}, Utc(1, 7, 0), author})
            .ok());
  }
  std::vector<RoutineRun> Claim(int64_t now, std::string_view local = "") {
    auto runs = ClaimDueRoutines(*db_, now, local, &stalled_);
    EXPECT_TRUE(runs.ok()) << runs.status().ToString();
    return runs.ok() ? *runs : std::vector<RoutineRun>{};
  }

  std::unique_ptr<store::Database> db_;
  std::vector<std::string> stalled_;
};

TEST_F(RoutineRunsTest, ADueRoutineIsClaimedOncePerScheduledTime) {
  AddRoutine("r1", "s1");
  EXPECT_TRUE(Claim(Utc(1, 7, 59)).empty());
  std::vector<RoutineRun> runs = Claim(Utc(1, 8, 1));
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].routine_id, "r1");
  EXPECT_EQ(runs[0].account_id, "ana");  // Its author.
  EXPECT_EQ(runs[0].instruction, "Sum up my day");
  EXPECT_EQ(runs[0].due_at, Utc(1, 8, 0));
  EXPECT_EQ(runs[0].conversation_id, "");
  // Claimed: a second check (or another process) finds nothing until tomorrow.
  EXPECT_TRUE(Claim(Utc(1, 8, 1)).empty());
  EXPECT_TRUE(Claim(Utc(2, 7, 59)).empty());
  ASSERT_TRUE(SetRoutineConversation(*db_, "r1", "conv-r1").ok());
  runs = Claim(Utc(2, 8, 0));
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].conversation_id, "conv-r1");
}

TEST_F(RoutineRunsTest, MissedRunsHappenOnceNotOncePerMissedTime) {
  AddRoutine("r1", "s1");
  ASSERT_EQ(Claim(Utc(1, 8, 0)).size(), 1u);
  // Down for three days: one run when a server checks again, then tomorrow.
  ASSERT_EQ(Claim(Utc(4, 12, 0)).size(), 1u);
  EXPECT_TRUE(Claim(Utc(4, 12, 1)).empty());
  EXPECT_EQ(Claim(Utc(5, 8, 0)).size(), 1u);
}

TEST_F(RoutineRunsTest, PausedAndDeletedRoutinesNeverRun) {
  AddRoutine("paused", "s1", R"({"frequency":"daily","time":"08:00"})", /*paused=*/1);
  AddRoutine("deleted", "s1", R"({"frequency":"daily","time":"08:00"})", 0, /*deleted=*/1);
  EXPECT_TRUE(Claim(Utc(3, 9, 0)).empty());
}

TEST_F(RoutineRunsTest, AResumedRoutineWaitsForItsNextTime) {
  AddRoutine("r1", "s1", R"({"frequency":"daily","time":"08:00"})", /*paused=*/1);
  // Resumed at 09:00 on the 3rd: the 08:00 runs it slept through stay missed.
  ASSERT_TRUE(
      db_->Exec("UPDATE routines SET paused = 0, updated_at = $1 WHERE id = 'r1'", {Utc(3, 9, 0)})
          .ok());
  EXPECT_TRUE(Claim(Utc(3, 9, 1)).empty());
  EXPECT_TRUE(Claim(Utc(4, 7, 59)).empty());
  std::vector<RoutineRun> runs = Claim(Utc(4, 8, 0));
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].due_at, Utc(4, 8, 0));
}

TEST_F(RoutineRunsTest, ItRunsOnlyAsItsAuthorWhileTheyOwnTheSpace) {
  ASSERT_TRUE(db_->Exec("INSERT INTO space_members (space_id, account_id, role)"
                        " VALUES ('s1', 'cy', 'owner')")
                  .ok());
  AddRoutine("by-cy", "s1", R"({"frequency":"daily","time":"08:00"})", 0, 0, "cy");
  AddRoutine("by-ben", "s1", R"({"frequency":"daily","time":"08:00"})", 0, 0, "ben");
  AddRoutine("by-nobody", "s1", R"({"frequency":"daily","time":"08:00"})", 0, 0, "");
  std::vector<RoutineRun> runs = Claim(Utc(1, 9, 0));
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].routine_id, "by-cy");
  EXPECT_EQ(runs[0].account_id, "cy");  // Not Ana, though she owns it too.
  // Ben is an editor, and the other has no author: neither runs as anyone.
  std::sort(stalled_.begin(), stalled_.end());
  EXPECT_EQ(stalled_, (std::vector<std::string>{"by-ben", "by-nobody"}));

  // Cy leaves: her routine stalls at its next time instead of running.
  ASSERT_TRUE(db_->Exec("DELETE FROM space_members WHERE account_id = 'cy'").ok());
  stalled_.clear();
  EXPECT_TRUE(Claim(Utc(2, 9, 0)).empty());
  EXPECT_EQ(stalled_.size(), 3u);
}

TEST_F(RoutineRunsTest, InLocalModeEveryRoutineRunsAsTheLocalPerson) {
  AddRoutine("r2", "s-local", R"({"frequency":"daily","time":"08:00"})", 0, 0, "");
  std::vector<RoutineRun> runs = Claim(Utc(1, 9, 0), "local");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].account_id, "local");
  EXPECT_TRUE(stalled_.empty());
}

TEST_F(RoutineRunsTest, ABacklogIsClaimedAFewAtATimeOldestFirst) {
  for (size_t i = 0; i < kMaxRoutineRunsPerCheck + 2; ++i) {
    AddRoutine("r" + std::to_string(100 + i), "s1");
  }
  AddRoutine("early", "s1", R"({"frequency":"daily","time":"07:30"})");
  std::vector<RoutineRun> runs = Claim(Utc(1, 9, 0));
  ASSERT_EQ(runs.size(), kMaxRoutineRunsPerCheck);
  EXPECT_EQ(runs[0].routine_id, "early");
  EXPECT_EQ(Claim(Utc(1, 9, 1)).size(), 3u);  // The rest, at the next check.
}

}  // namespace
}  // namespace ensemble::core::routines
