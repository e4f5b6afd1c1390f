// Pull completeness: paging when one change is larger than a page, and
// compaction of old tombstones with the reset snapshot it forces on clients
// whose cursor predates it.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/base/id.h"
#include "core/store/sqlite_database.h"
#include "core/sync/server_sync.h"
#include "core/sync/sync_state.h"
#include "core/tasks/task.h"
#include "tests/core/sync/sync_fixture.h"

namespace ensemble::core::sync {
namespace {

using store::Value;

class PullTest : public SyncTest {
 protected:
  // Writes `count` task rows stamped with server change `version`, as one
  // mutation writing that many rows would, and advances the server counter.
  void WriteChange(int64_t version, size_t count, uint64_t seed) {
    testing::FakeClock clock;
    testing::FakeRandom random(seed);
    for (size_t i = 0; i < count; ++i) {
      ASSERT_TRUE(server_db_
                      ->Exec("INSERT INTO tasks (id, space_id, title, status, due, version, deleted,"
                             " created_at, updated_at, row_version)"
                             " VALUES ($1, 'p', 't', 'todo', NULL, 1, 0, 1, 1, $2)",
                             {Value(NewId(clock, random)), Value(version)})
                      .ok());
    }
    ASSERT_TRUE(SetStateInt(*server_db_, "server_version", version).ok());
  }
  json PullAt(Client& c, int64_t cursor) {
    auto r = server_.Pull(*server_db_, c.replica->client_id(), cursor);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : json();
  }
  static json Live(const json& rows) {
    json out = json::array();
    for (const json& r : rows) {
      if (r["deleted"] == 0) out.push_back(r);
    }
    return out;
  }
  int64_t ServerVersion() { return ServerCount("SELECT int_value FROM sync_state WHERE key = 'server_version'"); }
};

TEST_F(PullTest, AChangeLargerThanAPageComesWholeInOnePage) {
  Client b(2);
  WriteChange(1, kMaxPullRows + 200, 7);
  WriteChange(2, 10, 8);
  json first = PullAt(b, 0);
  EXPECT_EQ(first["changes"].size(), kMaxPullRows + 200);
  EXPECT_EQ(first["cursor"], 1);
  EXPECT_EQ(first["more"], true);
  json second = PullAt(b, 1);
  EXPECT_EQ(second["changes"].size(), 10u);
  EXPECT_EQ(second["cursor"], 2);
  EXPECT_EQ(second["more"], false);
  Pull(b);
  EXPECT_EQ(ClientRows(b), ServerRows());
}

TEST_F(PullTest, APageEndsBeforeALargeChangeAndTheNextHoldsAllOfIt) {
  Client b(2);
  WriteChange(1, 3, 7);
  WriteChange(2, kMaxPullRows + 1, 8);
  json first = PullAt(b, 0);
  EXPECT_EQ(first["changes"].size(), 3u);
  EXPECT_EQ(first["cursor"], 1);
  EXPECT_EQ(first["more"], true);
  json second = PullAt(b, 1);
  EXPECT_EQ(second["changes"].size(), kMaxPullRows + 1);
  EXPECT_EQ(second["cursor"], 2);
  EXPECT_EQ(second["more"], false);
  Pull(b);
  EXPECT_EQ(ClientRows(b), ServerRows());
}

TEST_F(PullTest, NoPageIsEmptyWhileMoreIsTrue) {
  Client b(2);
  WriteChange(1, kMaxPullRows + 1, 7);
  WriteChange(2, kMaxPullRows + 1, 8);
  WriteChange(3, 1, 9);
  int64_t cursor = 0;
  size_t rows = 0;
  for (int page = 0; page < 10; ++page) {
    json r = PullAt(b, cursor);
    EXPECT_FALSE(r["changes"].empty()) << "page " << page;
    rows += r["changes"].size();
    EXPECT_GT(r["cursor"].get<int64_t>(), cursor);
    cursor = r["cursor"].get<int64_t>();
    if (!r["more"].get<bool>()) break;
  }
  EXPECT_EQ(rows, 2 * (kMaxPullRows + 1) + 1);
  EXPECT_EQ(cursor, 3);
}

TEST_F(PullTest, CompactRemovesOnlyOldTombstones) {
  Client a(1);
  std::string kept = a.NewTask("kept");
  std::string old_gone = a.NewTask("deleted early");
  ASSERT_TRUE(a.replica->Mutate("task.delete", {{"id", old_gone}}).ok());
  Sync(a);
  const int64_t keep_after = ServerVersion();
  std::string late_gone = a.NewTask("deleted late");
  ASSERT_TRUE(a.replica->Mutate("task.delete", {{"id", late_gone}}).ok());
  Sync(a);

  auto removed = server_.Compact(*server_db_, keep_after);
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  EXPECT_EQ(*removed, 1);
  EXPECT_EQ(ServerCount("SELECT COUNT(*) FROM tasks WHERE id = '" + old_gone + "'"), 0);
  EXPECT_EQ(ServerCount("SELECT COUNT(*) FROM tasks WHERE id = '" + late_gone + "'"), 1);
  EXPECT_EQ(ServerCount("SELECT COUNT(*) FROM tasks WHERE id = '" + kept + "'"), 1);
  EXPECT_EQ(**GetStateInt(*server_db_, "min_cursor"), keep_after);

  // The floor never goes down; a floor past the server's counter is refused.
  ASSERT_TRUE(server_.Compact(*server_db_, 0).ok());
  EXPECT_EQ(**GetStateInt(*server_db_, "min_cursor"), keep_after);
  EXPECT_EQ(server_.Compact(*server_db_, ServerVersion() + 1).status().code(),
            codes::kInvalidArgument);
  EXPECT_EQ(server_.Compact(*server_db_, -1).status().code(), codes::kInvalidArgument);
}

TEST_F(PullTest, ACursorBeforeTheFloorGetsAResetSnapshot) {
  Client a(1), b(2);
  std::string stays = a.NewTask("stays");
  std::string goes = a.NewTask("goes");
  Sync(a);
  Pull(b);  // b has both tasks live.
  ASSERT_TRUE(a.replica->Mutate("task.delete", {{"id", goes}}).ok());
  Sync(a);
  ASSERT_TRUE(server_.Compact(*server_db_, ServerVersion()).ok());

  json reset = PullAt(b, *b.replica->Cursor());
  EXPECT_EQ(reset["reset"], true);
  EXPECT_EQ(reset["floor"], ServerVersion());
  // From the start, a reset page holds every live row and no tombstone.
  json from_zero = PullAt(b, 0);
  EXPECT_EQ(from_zero["reset"], true);
  EXPECT_EQ(from_zero["more"], false);
  EXPECT_EQ(from_zero["cursor"], ServerVersion());
  ASSERT_EQ(from_zero["changes"].size(), 1u);
  EXPECT_EQ(from_zero["changes"][0]["row"]["id"], stays);

  // b never saw the tombstone, yet after the reset it no longer has `goes`.
  Pull(b);
  EXPECT_FALSE(tasks::GetTask(*b.db, goes)->has_value());
  EXPECT_EQ(ClientRows(b), ServerRows());
  // At the floor: an ordinary, empty pull.
  json after = PullAt(b, *b.replica->Cursor());
  EXPECT_FALSE(after.contains("reset"));
  EXPECT_TRUE(after["changes"].empty());
}

TEST_F(PullTest, PendingEditsReplayOnTopOfAReset) {
  Client a(1), b(2);
  std::string id = a.NewTask("shared");
  std::string goes = a.NewTask("goes");
  Sync(a);
  Pull(b);
  ASSERT_TRUE(a.replica->Mutate("task.delete", {{"id", goes}}).ok());
  Sync(a);
  ASSERT_TRUE(server_.Compact(*server_db_, ServerVersion()).ok());

  // Offline on b: an edit and a new task, neither pushed yet.
  ASSERT_TRUE(b.replica->Mutate("task.update", {{"id", id}, {"fields", {{"status", "done"}}}}).ok());
  std::string fresh = b.NewTask("made offline");
  Pull(b);
  EXPECT_EQ(b.Get(id).status, "done");
  EXPECT_EQ(b.Get(fresh).title, "made offline");
  EXPECT_FALSE(tasks::GetTask(*b.db, goes)->has_value());
  EXPECT_EQ(*b.replica->PendingCount(), 2);

  Sync(b);
  Pull(a);
  EXPECT_EQ(*b.replica->PendingCount(), 0);
  EXPECT_EQ(ClientRows(b), ServerRows());
  // a saw the tombstone before it was compacted and keeps it (hidden, as
  // every deleted row is); its live rows are the server's.
  EXPECT_EQ(Live(ClientRows(a)), ServerRows());
}

TEST_F(PullTest, PagesBeforeTheLastKeepPendingEditsAndRebaseOnce) {
  Client a(1);
  std::string id = a.NewTask("mine");
  Sync(a);
  const int64_t start = ServerVersion();
  // Elsewhere: the task is marked done (with a page's worth of other rows in
  // the same change), then another change that needs a second page.
  ASSERT_TRUE(server_db_
                  ->Exec("UPDATE tasks SET status = 'done', version = version + 1,"
                         " row_version = $2 WHERE id = $1",
                         {Value(id), Value(start + 1)})
                  .ok());
  WriteChange(start + 1, kMaxPullRows, 7);
  WriteChange(start + 2, 5, 8);
  // Offline on a: a title edit, not pushed yet.
  ASSERT_TRUE(a.replica
                  ->Mutate("task.update",
                           {{"id", id}, {"fields", {{"title", "mine, edited"}}}, {"base", {{"title", "mine"}}}})
                  .ok());

  json first = PullAt(a, start);
  ASSERT_EQ(first["more"], true);
  ASSERT_TRUE(a.replica->ApplyPull(first).ok());
  // Mid catch-up the person still sees their own edit, over the old copy.
  EXPECT_EQ(a.Get(id).title, "mine, edited");
  EXPECT_EQ(a.Get(id).status, "todo");
  EXPECT_EQ(*a.replica->PendingCount(), 1);
  EXPECT_EQ(*a.replica->Cursor(), start + 1);

  json second = PullAt(a, start + 1);
  ASSERT_EQ(second["more"], false);
  ASSERT_TRUE(a.replica->ApplyPull(second).ok());
  // The last page rebases: the server's status under the pending title.
  EXPECT_EQ(a.Get(id).title, "mine, edited");
  EXPECT_EQ(a.Get(id).status, "done");
  EXPECT_EQ(*a.replica->PendingCount(), 1);

  Sync(a);
  EXPECT_EQ(*a.replica->PendingCount(), 0);
  EXPECT_EQ(ClientRows(a), ServerRows());
}

TEST_F(PullTest, OwnPushedCreatesStayVisibleWhilePagesArrive) {
  Client a(1);
  WriteChange(1, kMaxPullRows, 7);
  std::vector<std::string> mine;
  for (int i = 0; i < 3; ++i) mine.push_back(a.NewTask("offline " + std::to_string(i)));
  Push(a);  // Confirmed, but their rows come in the pull's last page.
  json first = PullAt(a, 0);
  ASSERT_EQ(first["more"], true);
  ASSERT_TRUE(a.replica->ApplyPull(first).ok());
  for (const std::string& id : mine) EXPECT_TRUE(tasks::GetTask(*a.db, id)->has_value()) << id;
  EXPECT_EQ(*a.replica->PendingCount(), 3);
  Pull(a);
  EXPECT_EQ(*a.replica->PendingCount(), 0);
  EXPECT_EQ(ClientRows(a), ServerRows());
}

TEST_F(PullTest, AMalformedChangeOnAnEarlyPageChangesNothing) {
  Client a(1);
  std::string id = a.NewTask("mine");
  json page = {{"cursor", 5}, {"lastMutationId", 0}, {"more", true},
               {"changes", {{{"kind", "task"}, {"row", {{"title", "no id"}}}}}}};
  EXPECT_EQ(a.replica->ApplyPull(page).status().code(), codes::kInvalidArgument);
  EXPECT_EQ(*a.replica->Cursor(), 0);
  EXPECT_EQ(a.Get(id).title, "mine");
}

TEST_F(PullTest, AResetIsPagedAndReplacesTheCopyOnce) {
  Client a(1), b(2);
  std::string goes = a.NewTask("goes");
  Sync(a);
  Pull(b);
  ASSERT_TRUE(a.replica->Mutate("task.delete", {{"id", goes}}).ok());
  Sync(a);
  WriteChange(ServerVersion() + 1, kMaxPullRows, 7);
  WriteChange(ServerVersion() + 1, 10, 8);
  ASSERT_TRUE(server_.Compact(*server_db_, ServerVersion()).ok());
  std::string mine = b.NewTask("made offline");

  int pages = 0;
  for (bool again = true; again; ++pages) {
    json req = *b.replica->PullRequest();
    json page = PullAt(b, req["cursor"].get<int64_t>());
    EXPECT_EQ(page["reset"], true);
    EXPECT_LE(page["changes"].size(), kMaxPullRows);
    auto r = b.replica->ApplyPull(page);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    again = *r;
    // The person's offline task shows throughout.
    EXPECT_TRUE(tasks::GetTask(*b.db, mine)->has_value()) << "page " << pages;
    ASSERT_LT(pages, 10);
  }
  EXPECT_GE(pages, 3);  // Start over at 0, then two pages of rows.
  EXPECT_FALSE(tasks::GetTask(*b.db, goes)->has_value());
  Sync(b);
  EXPECT_EQ(ClientRows(b), ServerRows());
}

TEST_F(PullTest, AResetStartsOverWhenTheFloorRisesBetweenPages) {
  Client a(1), b(2);
  std::string later_gone = a.NewTask("deleted during b's reset");
  Sync(a);
  WriteChange(ServerVersion() + 1, kMaxPullRows, 7);
  ASSERT_TRUE(server_.Compact(*server_db_, 1).ok());  // Any floor above 0.
  json first = PullAt(b, 0);
  ASSERT_EQ(first["reset"], true);
  ASSERT_EQ(first["more"], true);
  ASSERT_TRUE(b.replica->ApplyPull(first).ok());
  ASSERT_TRUE(tasks::GetTask(*b.db, later_gone)->has_value());
  // Meanwhile: the task is deleted and its tombstone compacted away.
  ASSERT_TRUE(a.replica->Mutate("task.delete", {{"id", later_gone}}).ok());
  Sync(a);
  ASSERT_TRUE(server_.Compact(*server_db_, ServerVersion()).ok());

  Pull(b);
  EXPECT_FALSE(tasks::GetTask(*b.db, later_gone)->has_value());
  EXPECT_EQ(ClientRows(b), ServerRows());
}

TEST_F(PullTest, ANewClientAfterCompactionGetsOnlyLiveRows) {
  Client a(1), fresh(3);
  a.NewTask("live");
  std::string goes = a.NewTask("goes");
  ASSERT_TRUE(a.replica->Mutate("task.delete", {{"id", goes}}).ok());
  Sync(a);
  ASSERT_TRUE(server_.Compact(*server_db_, ServerVersion()).ok());
  Pull(fresh);
  EXPECT_EQ(ClientRows(fresh), ServerRows());
  EXPECT_EQ(ClientRows(fresh).size(), 1u);
}

}  // namespace
}  // namespace ensemble::core::sync
