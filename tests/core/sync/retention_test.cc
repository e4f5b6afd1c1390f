// Trash retention (core/sync/retention.h): marks tie server versions to
// time, and only records in Trash for longer than the retention are purged.

#include "core/sync/retention.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::sync {
namespace {

using nlohmann::json;

constexpr char kOld[] = "01JB0000000000000000000001";
constexpr char kRecent[] = "01JB0000000000000000000002";
constexpr char kLive[] = "01JB0000000000000000000003";
constexpr int64_t kT0 = 1'796'000'000'000;
constexpr int64_t kDay = 24LL * 3600 * 1000;

class RetentionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
    Write({{{"name", "task.create"}, {"args", Task(kOld)}},
           {{"name", "task.create"}, {"args", Task(kRecent)}},
           {{"name", "task.create"}, {"args", Task(kLive)}}});
  }
  static json Task(const char* id) { return {{"id", id}, {"spaceId", "s"}, {"title", id}}; }
  void Write(const json& mutations) {
    auto done = server_.ApplyServerWrites(*db_, mutations, nullptr, kT0);
    ASSERT_TRUE(done.ok()) << done.status().ToString();
  }
  void Delete(const char* id) { Write({{{"name", "task.delete"}, {"args", {{"id", id}}}}}); }
  RetentionOutcome Run(int64_t now) {
    auto r = RunRetention(*db_, server_, now);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : RetentionOutcome{};
  }
  int64_t Count(const std::string& sql) {
    auto rows = db_->Query(sql);
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    return rows.ok() ? store::AsInt(rows->rows[0][0]) : -1;
  }

  std::unique_ptr<store::SqliteDatabase> db_;
  ServerSync server_{hub::Config()};
};

TEST_F(RetentionTest, PurgesOnlyWhatHasBeenInTrashLongerThanTheRetention) {
  Delete(kOld);
  RetentionOutcome first = Run(kT0);
  EXPECT_EQ(first.compacted_through, 0);  // No mark is old enough yet.
  EXPECT_EQ(first.purged, 0);
  Delete(kRecent);  // After the first mark.

  EXPECT_EQ(Run(kT0 + 29 * kDay).purged, 0);
  EXPECT_EQ(Count("SELECT COUNT(*) FROM tasks"), 3);

  RetentionOutcome later = Run(kT0 + 31 * kDay);
  EXPECT_EQ(later.purged, 1);
  EXPECT_GT(later.compacted_through, 0);
  EXPECT_EQ(Count(std::string("SELECT COUNT(*) FROM tasks WHERE id = '") + kOld + "'"), 0);
  // Deleted after the mark that was used: still in Trash, restorable.
  EXPECT_EQ(Count(std::string("SELECT deleted FROM tasks WHERE id = '") + kRecent + "'"), 1);
  EXPECT_EQ(Count(std::string("SELECT deleted FROM tasks WHERE id = '") + kLive + "'"), 0);
  // Clients whose cursor is below the purge get a reset (Compact's floor).
  EXPECT_EQ(Count("SELECT int_value FROM sync_state WHERE key = 'min_cursor'"),
            later.compacted_through);
}

TEST_F(RetentionTest, OldMarksAreDroppedSoTheyStayBounded) {
  for (int hour = 0; hour < 24 * 40; hour += 6) Run(kT0 + hour * 3'600'000LL);
  // Marks younger than the retention, plus the one last used.
  const int64_t marks = Count("SELECT COUNT(*) FROM sync_state WHERE key LIKE 'version_mark:%'");
  EXPECT_LE(marks, 30 * 4 + 2);
  EXPECT_GE(marks, 30 * 4);
}

}  // namespace
}  // namespace ensemble::core::sync
