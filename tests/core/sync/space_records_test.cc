// Records per space (core/sync/space_records.h): every create counts one up,
// a space past kMaxRecordsPerSpace refuses the next create with a readable
// LIMIT_REACHED and keeps nothing of it, a space counted for the first time
// counts its tables, and the purge of Trash counts down.

#include "core/sync/space_records.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"
#include "core/sync/server_sync.h"

namespace ensemble::core::sync {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

constexpr int64_t kCreatedAt = 1'796'000'000'000;

class SpaceRecordsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
  }
  Status Create(const std::string& id, const std::string& space, const char* kind = "task") {
    json args = {{"id", id}, {"spaceId", space}};
    args[std::string(kind) == "task" ? "title" : "name"] = id;
    return server_
        .ApplyServerWrites(*db_, {{{"name", std::string(kind) + ".create"}, {"args", args}}},
                           nullptr, kCreatedAt)
        .status();
  }
  int64_t Count(const std::string& sql) {
    auto rows = db_->Query(sql);
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    return rows.ok() && !rows->empty() ? store::AsInt(rows->rows[0][0]) : -1;
  }
  int64_t Kept(const std::string& space) {
    return Count("SELECT records FROM space_records WHERE space_id = '" + space + "'");
  }
  static std::string Id(int n) {
    std::string digits = std::to_string(n);
    return "01JR" + std::string(22 - digits.size(), '0') + digits;
  }

  std::unique_ptr<store::SqliteDatabase> db_;
  ServerSync server_{hub::Config()};
};

TEST_F(SpaceRecordsTest, ASpacePastItsCapRefusesTheNextCreateAndKeepsNothingOfIt) {
  ASSERT_TRUE(Create(Id(1), "s").ok());
  ASSERT_TRUE(Create(Id(2), "s", "person").ok());
  EXPECT_EQ(Kept("s"), 2);
  ASSERT_TRUE(db_->Exec("UPDATE space_records SET records = " +
                        std::to_string(kMaxRecordsPerSpace - 1) + " WHERE space_id = 's'")
                  .ok());
  ASSERT_TRUE(Create(Id(3), "s").ok());  // The last one that fits.
  EXPECT_EQ(Kept("s"), kMaxRecordsPerSpace);

  Status refused = Create(Id(4), "s");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.code(), codes::kLimitReached);
  EXPECT_THAT(refused.message(), HasSubstr("keeps its limit of 100000 records"));
  EXPECT_THAT(refused.message(), HasSubstr("empty Trash"));
  EXPECT_EQ(Count("SELECT COUNT(*) FROM tasks WHERE id = '" + Id(4) + "'"), 0);
  EXPECT_EQ(Kept("s"), kMaxRecordsPerSpace);
  // Edits still go through, and another space is not held up.
  EXPECT_TRUE(
      server_
          .ApplyServerWrites(*db_,
                             {{{"name", "task.update"},
                               {"args", {{"id", Id(3)}, {"fields", {{"title", "Renamed"}}}}}}},
                             nullptr, kCreatedAt)
          .ok());
  EXPECT_TRUE(Create(Id(5), "other").ok());
  EXPECT_EQ(Kept("other"), 1);
}

TEST_F(SpaceRecordsTest, APushPastTheCapIsRejectedWithItsCode) {
  ASSERT_TRUE(Create(Id(1), "s").ok());
  ASSERT_TRUE(db_->Exec("UPDATE space_records SET records = " +
                        std::to_string(kMaxRecordsPerSpace) + " WHERE space_id = 's'")
                  .ok());
  json push = {{"clientGroupId", "g"},
               {"clientId", "c"},
               {"mutations",
                {{{"id", 1},
                  {"name", "task.create"},
                  {"args", {{"id", Id(2)}, {"spaceId", "s"}, {"title", "One more"}}},
                  {"clientTime", kCreatedAt}}}}};
  auto r = server_.Push(*db_, push);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)["results"][0]["status"], "rejected");
  EXPECT_EQ((*r)["results"][0]["code"], "LIMIT_REACHED");
  EXPECT_EQ(Count("SELECT COUNT(*) FROM tasks"), 1);
}

TEST_F(SpaceRecordsTest, ASpaceCountedForTheFirstTimeCountsItsTables) {
  // Rows from before the counter existed.
  ASSERT_TRUE(Create(Id(1), "s").ok());
  ASSERT_TRUE(Create(Id(2), "s", "person").ok());
  ASSERT_TRUE(db_->Exec("DELETE FROM space_records").ok());
  ASSERT_TRUE(Create(Id(3), "s").ok());
  EXPECT_EQ(Kept("s"), 3);
}

TEST_F(SpaceRecordsTest, PurgedRecordsAreCountedOff) {
  for (int i = 1; i <= 3; ++i) ASSERT_TRUE(Create(Id(i), "s").ok());
  ASSERT_TRUE(server_
                  .ApplyServerWrites(*db_, {{{"name", "task.delete"}, {"args", {{"id", Id(1)}}}}},
                                     nullptr, kCreatedAt)
                  .ok());
  EXPECT_EQ(Kept("s"), 3);  // In Trash, still kept.
  auto version = db_->Query("SELECT MAX(row_version) FROM tasks");
  ASSERT_TRUE(version.ok());
  auto purged = server_.Compact(*db_, store::AsInt(version->rows[0][0]));
  ASSERT_TRUE(purged.ok()) << purged.status().ToString();
  EXPECT_EQ(*purged, 1);
  EXPECT_EQ(Kept("s"), 2);
}

}  // namespace
}  // namespace ensemble::core::sync
