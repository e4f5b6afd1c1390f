// Records per space (core/sync/space_records.h): every create counts one up,
// a space past kMaxRecordsPerSpace refuses the next create with a readable
// LIMIT_REACHED and keeps nothing of it, a space counted for the first time
// counts its tables, and the purge of Trash counts down. A push's creates
// after its first in a space are counted in memory: the store's count after
// the push is the same, including creates that were rolled back.

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

// A push of `mutations` (id 1 on) from client `client`.
json PushOf(const std::string& client, const json& mutations) {
  json push = {
      {"clientGroupId", "g-" + client}, {"clientId", client}, {"mutations", json::array()}};
  int64_t id = 0;
  for (const json& m : mutations) {
    push["mutations"].push_back(
        {{"id", ++id}, {"name", m[0]}, {"args", m[1]}, {"clientTime", kCreatedAt}});
  }
  return push;
}

TEST_F(SpaceRecordsTest, APushOfManyCreatesCountsEachOnceInEverySpace) {
  ASSERT_TRUE(Create(Id(1), "s").ok());
  json mutations = json::array();
  for (int i = 2; i <= 40; ++i) {
    const std::string space = i % 3 == 0 ? "t" : "s";
    mutations.push_back({"task.create", {{"id", Id(i)}, {"spaceId", space}, {"title", "x"}}});
  }
  // An update and a rejected create (its id is taken) among them count nothing.
  mutations.push_back({"task.update", {{"id", Id(2)}, {"fields", {{"title", "Renamed"}}}}});
  mutations.push_back({"task.create", {{"id", Id(5)}, {"spaceId", "s"}, {"title", "again"}}});
  auto r = server_.Push(*db_, PushOf("c", mutations));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)["results"].back()["code"], "ALREADY_EXISTS");
  EXPECT_EQ(Kept("s"), Count("SELECT COUNT(*) FROM tasks WHERE space_id = 's'"));
  EXPECT_EQ(Kept("s"), 1 + 26);
  EXPECT_EQ(Kept("t"), 13);
  // The next push starts from the store's count.
  ASSERT_TRUE(Create(Id(41), "s").ok());
  EXPECT_EQ(Kept("s"), 28);
}

TEST_F(SpaceRecordsTest, APushThatReachesTheCapAppliesWhatFitsAndRejectsTheRest) {
  ASSERT_TRUE(Create(Id(1), "s").ok());
  ASSERT_TRUE(db_->Exec("UPDATE space_records SET records = " +
                        std::to_string(kMaxRecordsPerSpace - 3) + " WHERE space_id = 's'")
                  .ok());
  json mutations = json::array();
  for (int i = 2; i <= 7; ++i) {
    mutations.push_back({"task.create", {{"id", Id(i)}, {"spaceId", "s"}, {"title", "x"}}});
  }
  auto r = server_.Push(*db_, PushOf("c", mutations));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::vector<std::string> statuses;
  for (const json& result : (*r)["results"]) statuses.push_back(result["status"]);
  EXPECT_THAT(statuses, ::testing::ElementsAre("applied", "applied", "applied", "rejected",
                                               "rejected", "rejected"));
  EXPECT_EQ((*r)["results"][3]["code"], "LIMIT_REACHED");
  EXPECT_EQ(Kept("s"), kMaxRecordsPerSpace);
  EXPECT_EQ(Count("SELECT COUNT(*) FROM tasks"), 4);
}

TEST_F(SpaceRecordsTest, ARolledBackMutationTakesItsCountsWithIt) {
  // Counted in the store, then in memory, then both undone, as ServerSync
  // does around each mutation's savepoint.
  ASSERT_TRUE(db_->Exec("INSERT INTO space_records (space_id, records) VALUES ('s', 10)").ok());
  const SyncConfig config = hub::Config();
  BatchRecordCounts counts(config);
  {
    store::Transaction txn(*db_);
    EXPECT_TRUE(counts.CountsInStore("s"));
    ASSERT_TRUE(
        db_->Exec("UPDATE space_records SET records = records + 1 WHERE space_id = 's'").ok());
    ASSERT_TRUE(counts.Created(*db_, "s", 11).ok());
    EXPECT_FALSE(counts.CountsInStore("s"));
    ASSERT_TRUE(counts.Created(*db_, "s", std::nullopt).ok());
    counts.Drop();  // `txn` rolls the store's update back as the savepoint would.
  }
  EXPECT_TRUE(counts.CountsInStore("s"));  // So the next create counts in the store again.
  ASSERT_TRUE(
      db_->Exec("UPDATE space_records SET records = records + 1 WHERE space_id = 's'").ok());
  ASSERT_TRUE(counts.Created(*db_, "s", 11).ok());
  counts.Keep();
  ASSERT_TRUE(counts.Created(*db_, "s", std::nullopt).ok());
  counts.Keep();
  ASSERT_TRUE(counts.Created(*db_, "s", std::nullopt).ok());
  counts.Drop();
  ASSERT_TRUE(counts.Flush(*db_).ok());
  EXPECT_EQ(Kept("s"), 12);
  ASSERT_TRUE(counts.Flush(*db_).ok());  // Nothing left to add.
  EXPECT_EQ(Kept("s"), 12);
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
