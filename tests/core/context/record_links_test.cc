// The link index (core/context/record_links.h): kept by every path a record
// changes by (a mutator on a replica and on the server, a pull, a reset, the
// migration over rows written before it), always equal to what a rebuild
// from the rows gives.

#include "core/context/record_links.h"

#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "core/hub/hub.h"
#include "core/refs/record_handle.h"
#include "tests/core/sync/sync_fixture.h"

namespace ensemble::core::context {
namespace record_links_test {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

constexpr char kSpace[] = "personal";

// Every row of the index, in key order.
json Links(store::Database& db) {
  return sync::RowsOf(db,
                      "SELECT space_id, to_id, rel, from_id, from_kind, to_kind FROM record_links"
                      " ORDER BY space_id, to_id, rel, from_id");
}

// "rel:to_id" of the links `from` makes.
std::vector<std::string> From(store::Database& db, const std::string& from) {
  auto rows = db.Query("SELECT rel, to_id FROM record_links WHERE from_id = $1 ORDER BY rel, to_id",
                       {store::Value(from)});
  EXPECT_TRUE(rows.ok());
  std::vector<std::string> out;
  for (const auto& r : rows->rows) out.push_back(store::AsText(r[0]) + ":" + store::AsText(r[1]));
  return out;
}

void ExpectRebuilt(store::Database& db) {
  const json kept = Links(db);
  ASSERT_TRUE(RebuildRecordLinks(db).ok());
  EXPECT_EQ(kept, Links(db));
}

using RecordLinksTest = sync::SyncTest;

TEST_F(RecordLinksTest, FollowsEveryWriteOnTheReplicaAndTheServer) {
  sync::Client a(1);
  const std::string ana = Create(a, "person", {{"name", "Ana"}});
  const std::string venue = Create(a, "task", {{"title", "Venue"}});
  const std::string plan = Create(a, "task",
                                  {{"title", "Plan"},
                                   {"people", {ana}},
                                   {"depends_on", {venue}},
                                   {"description", "ask " + refs::HandleOf("person", ana)}});
  EXPECT_THAT(From(*a.db, plan),
              ElementsAre("depends_on:" + venue, "mentions:" + ana, "people:" + ana));
  Update(a, "task", plan, {{"people", json::array()}, {"blocks", {venue}}});
  EXPECT_THAT(From(*a.db, plan),
              ElementsAre("blocks:" + venue, "depends_on:" + venue, "mentions:" + ana));
  Sync(a);
  EXPECT_EQ(Links(*a.db), Links(*server_db_));
  ASSERT_TRUE(a.replica->Mutate("task.delete", {{"id", plan}}).ok());
  EXPECT_THAT(From(*a.db, plan), IsEmpty());  // In Trash: links nothing.
  Sync(a);
  EXPECT_THAT(From(*server_db_, plan), IsEmpty());
  ASSERT_TRUE(a.replica->Mutate("task.restore", {{"id", plan}}).ok());
  Sync(a);
  EXPECT_EQ(From(*server_db_, plan).size(), 3u);
  ExpectRebuilt(*a.db);
  ExpectRebuilt(*server_db_);
}

TEST_F(RecordLinksTest, APullAndAResetKeepTheOtherReplicaLinked) {
  sync::Client a(1), b(2);
  const std::string kit = "01JB00000000000000000000K1";
  const std::string project = Create(
      a, "project", {{"title", "Launch"}, {"deliverables", {{{"id", kit}, {"title", "Kit"}}}}});
  const std::string page = Create(
      a, "page", {{"title", "Notes"}, {"body", "for " + refs::HandleOf("project", project)}});
  Sync(a);
  Pull(b);
  EXPECT_THAT(From(*b.db, project), ElementsAre("deliverable:" + kit));
  EXPECT_THAT(From(*b.db, page), ElementsAre("mentions:" + project));
  EXPECT_EQ(Links(*b.db), Links(*server_db_));

  ASSERT_TRUE(a.replica->Mutate("page.delete", {{"id", page}}).ok());
  Sync(a);
  const int64_t version = ServerCount("SELECT MAX(row_version) FROM pages");
  ASSERT_TRUE(server_.Compact(*server_db_, version).ok());
  Pull(b);
  EXPECT_THAT(From(*b.db, page), IsEmpty());
  EXPECT_EQ(Links(*b.db), Links(*server_db_));
}

TEST(RecordLinksMigration, LinksTheRecordsWrittenBeforeIt) {
  auto db = std::move(store::SqliteDatabase::Open(":memory:")).value();
  const auto all = hub::Migrations();
  std::size_t before = 0;
  while (before < all.size() && all[before].version != kCreateRecordLinks.version) ++before;
  ASSERT_LT(before, all.size());
  ASSERT_TRUE(store::Migrate(*db, all.first(before)).ok());
  ASSERT_TRUE(db->Exec("INSERT INTO tasks (id, space_id, title, status, version, created_at,"
                       " updated_at, people) VALUES ('t1', 'personal', 'Older', 'todo', 1, 5, 5,"
                       " '[\"p1\"]')")
                  .ok());
  ASSERT_TRUE(db->Exec("INSERT INTO tasks (id, space_id, title, status, version, created_at,"
                       " updated_at, deleted, people) VALUES ('t2', 'personal', 'Gone', 'todo',"
                       " 1, 5, 5, 1, '[\"p1\"]')")
                  .ok());
  const Status migrated = hub::Migrate(*db);
  ASSERT_TRUE(migrated.ok()) << migrated.ToString();
  EXPECT_THAT(From(*db, "t1"), ElementsAre("people:p1"));
  EXPECT_THAT(From(*db, "t2"), IsEmpty());
}

}  // namespace record_links_test
}  // namespace ensemble::core::context
