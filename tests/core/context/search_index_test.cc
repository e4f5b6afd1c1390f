// The search index (core/context/search_index.h): kept by every path a
// record changes by (a mutator on the server and on a replica, a pull, a
// rebase, a reset, the migration over rows written before it), always equal
// to what a rebuild from the rows gives; and its candidates: prefixes, whole
// code points, at most 30 per kind with the most words held first.

#include "core/context/search_index.h"

#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "core/hub/hub.h"
#include "core/text/utf8.h"
#include "tests/core/sync/sync_fixture.h"

namespace ensemble::core::context {
namespace search_index_test {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

constexpr char kSpace[] = "personal";

// Every row of the index, in either table, in key order.
json Terms(store::Database& db) {
  return sync::RowsOf(db,
                      "SELECT space_id, kind, token, id, in_title, updated_at FROM ("
                      "SELECT * FROM search_terms UNION ALL SELECT * FROM search_recent) AS t"
                      " ORDER BY space_id, kind, token, id");
}

// Expects the index of `db` to be what a rebuild from its rows gives.
void ExpectRebuilt(store::Database& db) {
  const json kept = Terms(db);
  ASSERT_TRUE(RebuildSearchIndex(db).ok());
  EXPECT_EQ(kept, Terms(db));
}

std::vector<std::string> Found(store::Database& db, std::string_view kind, std::string_view q,
                               bool* more = nullptr) {
  auto found = FindCandidates(db, kSpace, kind, SplitQuery(q));
  EXPECT_TRUE(found.ok()) << found.status().ToString();
  if (!found.ok()) return {};
  if (more) *more = found->more;
  return found->ids;
}

using SearchIndexTest = sync::SyncTest;

TEST_F(SearchIndexTest, FollowsEveryWriteOnTheReplicaAndTheServer) {
  sync::Client a(1);
  const std::string id = Create(a, "task", {{"title", "Plan the launch"}});
  EXPECT_THAT(Found(*a.db, "task", "launch"), ElementsAre(id));
  Update(a, "task", id, {{"title", "Plan the party"}, {"description", "budget"}});
  EXPECT_THAT(Found(*a.db, "task", "launch"), IsEmpty());
  EXPECT_THAT(Found(*a.db, "task", "party"), ElementsAre(id));
  EXPECT_THAT(Found(*a.db, "task", "budget"), ElementsAre(id));
  Sync(a);
  EXPECT_THAT(Found(*server_db_, "task", "party"), ElementsAre(id));
  ExpectRebuilt(*server_db_);

  ASSERT_TRUE(a.replica->Mutate("task.delete", {{"id", id}}).ok());
  EXPECT_THAT(Found(*a.db, "task", "party"), IsEmpty());  // In Trash: not searched.
  Sync(a);
  EXPECT_THAT(Found(*server_db_, "task", "party"), IsEmpty());
  ASSERT_TRUE(a.replica->Mutate("task.restore", {{"id", id}}).ok());
  EXPECT_THAT(Found(*a.db, "task", "party"), ElementsAre(id));
  Sync(a);
  EXPECT_THAT(Found(*server_db_, "task", "party"), ElementsAre(id));
  ExpectRebuilt(*a.db);
  ExpectRebuilt(*server_db_);
}

TEST_F(SearchIndexTest, APullARebaseAndAResetKeepTheOtherReplicaIndexed) {
  sync::Client a(1), b(2);
  const std::string shared = Create(a, "task", {{"title", "Shared agenda"}});
  const std::string goes = Create(a, "task", {{"title", "Doomed errand"}});
  Sync(a);
  Pull(b);
  EXPECT_THAT(Found(*b.db, "task", "agenda"), ElementsAre(shared));
  // b's own edit shows at once, and survives a's edit arriving under it.
  Update(b, "task", shared, {{"description", "venue booked"}});
  Update(a, "task", shared, {{"title", "Shared minutes"}});
  Sync(a);
  Pull(b);
  EXPECT_THAT(Found(*b.db, "task", "venue"), ElementsAre(shared));
  EXPECT_THAT(Found(*b.db, "task", "minutes"), ElementsAre(shared));
  ExpectRebuilt(*b.db);
  Sync(b);
  Pull(a);
  EXPECT_EQ(Terms(*a.db), Terms(*server_db_));

  // A compaction sends b a reset: its copy and its index start over.
  ASSERT_TRUE(a.replica->Mutate("task.delete", {{"id", goes}}).ok());
  Sync(a);
  const int64_t version = ServerCount("SELECT MAX(row_version) FROM tasks");
  ASSERT_TRUE(server_.Compact(*server_db_, version).ok());
  Pull(b);
  EXPECT_THAT(Found(*b.db, "task", "errand"), IsEmpty());
  EXPECT_EQ(Terms(*b.db), Terms(*server_db_));
}

TEST_F(SearchIndexTest, ATaskIsFoundByItsPageAndFollowsThePageEdits) {
  sync::Client a(1);
  const std::string page = Create(a, "page", {{"title", "Notes"}, {"body", "call the venue"}});
  const std::string task = Create(a, "task", {{"title", "Book the hall"}, {"page", page}});
  EXPECT_THAT(Found(*a.db, "task", "venue"), ElementsAre(task));
  EXPECT_THAT(Found(*a.db, "page", "venue"), ElementsAre(page));
  Update(a, "page", page, {{"body", "call the caterer"}});
  EXPECT_THAT(Found(*a.db, "task", "venue"), IsEmpty());
  EXPECT_THAT(Found(*a.db, "task", "caterer"), ElementsAre(task));
  Sync(a);
  EXPECT_THAT(Found(*server_db_, "task", "caterer"), ElementsAre(task));
  ExpectRebuilt(*server_db_);
}

TEST_F(SearchIndexTest, DeliverablesAreFoundUnderTheirProject) {
  sync::Client a(1);
  const std::string deliverable = NewId(a.env.clock, a.env.random);
  const std::string project =
      Create(a, "project",
             {{"title", "Launch"},
              {"deliverables", json::array({{{"id", deliverable}, {"title", "Press kit"}}})}});
  EXPECT_THAT(Found(*a.db, kDeliverableTerms, "press"), ElementsAre(project));
  EXPECT_THAT(Found(*a.db, "project", "press"), IsEmpty());
  ExpectRebuilt(*a.db);
}

TEST_F(SearchIndexTest, AtMostThirtyPerKindMostWordsHeldFirst) {
  sync::Client a(1);
  for (int i = 0; i < 40; ++i) Create(a, "task", {{"title", "Item"}, {"description", "alpha"}});
  const std::string both = Create(a, "task", {{"title", "Old"}, {"description", "alpha and beta"}});
  const std::string titled = Create(a, "task", {{"title", "Alpha"}});
  bool more = false;
  std::vector<std::string> ids = Found(*a.db, "task", "alpha beta", &more);
  EXPECT_TRUE(more);
  ASSERT_EQ(ids.size(), kCandidatesPerKind);
  EXPECT_EQ(ids[0], both);    // Two words held.
  EXPECT_EQ(ids[1], titled);  // Then a word in the title.
  EXPECT_THAT(Found(*a.db, "task", "beta", &more), ElementsAre(both));
  EXPECT_FALSE(more);
}

TEST_F(SearchIndexTest, ThousandsHoldingAWordAreOrderedAsSqlWouldOrderThem) {
  // More records than the tally's first table holds, so it grows twice; the
  // order is checked against SQL's own GROUP BY over the same rows.
  sync::Client a(1);
  for (int i = 0; i < 1100; ++i) {
    Create(a, "task",
           {{"title", i % 13 == 0 ? "Alpha item" : "Item " + std::to_string(i)},
            {"description", std::string(i % 7 == 0 ? "beta " : "") + "alphabet gamma"}});
  }
  const std::string kTerms =
      "(SELECT * FROM search_terms UNION ALL SELECT * FROM search_recent) AS terms";
  const json oracle = sync::RowsOf(
      *a.db,
      "SELECT id FROM (SELECT id, COUNT(DISTINCT word) AS words,"
      " COUNT(DISTINCT CASE WHEN in_title = 1 THEN word END) AS titled, MAX(updated_at) AS at"
      " FROM (SELECT 0 AS word, id, in_title, updated_at FROM " +
          kTerms +
          "  WHERE kind = 'task' AND token >= 'alpha' AND token < 'alphb'"
          " UNION ALL SELECT 1, id, in_title, updated_at FROM " +
          kTerms +
          "  WHERE kind = 'task' AND token >= 'beta' AND token < 'betb') AS held"
          " GROUP BY id) AS tally ORDER BY words DESC, titled DESC, at DESC, id LIMIT 30");
  std::vector<std::string> expected;
  for (const json& row : oracle) expected.push_back(row["id"].get<std::string>());
  bool more = false;
  EXPECT_EQ(Found(*a.db, "task", "alpha beta", &more), expected);
  EXPECT_TRUE(more);
}

TEST_F(SearchIndexTest, WritesGoToTheRecentTableUntilItsBoundThenMergeInKeyOrder) {
  sync::Client a(1);
  std::string description;
  for (int j = 0; j < 400; ++j) description += "w" + std::to_string(j) + " ";
  auto count = [&](const std::string& sql) { return store::AsInt(a.db->Query(sql)->rows[0][0]); };
  std::vector<std::string> ids;
  int64_t recent = 0;
  // Each task adds its ~400 rows to search_recent, never to search_terms,
  // until one takes the count past the bound.
  for (;;) {
    ids.push_back(Create(a, "task", {{"title", "Item"}, {"description", description}}));
    const int64_t written = count("SELECT written FROM search_recent_size");
    if (written == 0) break;
    EXPECT_EQ(written, count("SELECT COUNT(*) FROM search_recent"));
    EXPECT_EQ(count("SELECT COUNT(*) FROM search_terms"), 0);
    ASSERT_LE(written, kMaxRecentTerms);
    ASSERT_GT(written, recent);
    recent = written;
  }
  EXPECT_GT(recent + 400, kMaxRecentTerms);
  EXPECT_EQ(count("SELECT COUNT(*) FROM search_recent"), 0);
  EXPECT_EQ(count("SELECT COUNT(*) FROM search_terms"), recent + 401);
  ExpectRebuilt(*a.db);
  // Found across the two tables alike: the first and the last task hold
  // "w399"; an edit moves a merged record's rows back to the recent table.
  Update(a, "task", ids.front(), {{"title", "Merged then edited"}});
  EXPECT_EQ(count("SELECT COUNT(*) FROM search_recent"), 403);
  std::vector<std::string> found = Found(*a.db, "task", "w399 edited");
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0], ids.front());
  EXPECT_EQ(Found(*a.db, "task", "merged").size(), 1u);
  ExpectRebuilt(*a.db);
  EXPECT_EQ(count("SELECT COUNT(*) FROM search_recent"), 0);  // The rebuild fills search_terms.
}

TEST_F(SearchIndexTest, APhraseIsHeldOnlyWithAllItsTokensAndTitleWordsCount) {
  sync::Client a(1);
  const std::string phrase =
      Create(a, "task", {{"title", "Draft"}, {"description", "release notes"}});
  const std::string titled = Create(a, "task", {{"title", "Budget review"}});
  for (int i = 0; i < 35; ++i) {
    Create(a, "task", {{"title", "Budget"}, {"description", "release review"}});
  }
  // Newer records holding "release" alone do not crowd out the phrase.
  EXPECT_THAT(Found(*a.db, "task", "\"release notes\""), ElementsAre(phrase));
  // Both words in the title beat both words with one in the title.
  std::vector<std::string> ids = Found(*a.db, "task", "budget review");
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids[0], titled);
}

TEST_F(SearchIndexTest, AWordIsAPrefixOnWholeCodePointsAndAPhraseItsFirstToken) {
  sync::Client a(1);
  const std::string planning = Create(a, "task", {{"title", "Planning café"}});
  const std::string plain = Create(a, "task", {{"title", "Plain cafÿ"}});
  const std::string long_word = Create(a, "task", {{"title", std::string(60, 'x') + "ééééé"}});
  EXPECT_THAT(Found(*a.db, "task", "plan"), ElementsAre(planning));
  EXPECT_THAT(Found(*a.db, "task", "caf"), UnorderedElementsAre(planning, plain));
  EXPECT_THAT(Found(*a.db, "task", "café"), ElementsAre(planning));
  EXPECT_THAT(Found(*a.db, "task", "cafÿ"), ElementsAre(plain));
  // A phrase asks for its first token whole: "plan" is not "planning".
  EXPECT_THAT(Found(*a.db, "task", "\"plan café\""), IsEmpty());
  EXPECT_THAT(Found(*a.db, "task", "\"planning caf\""), ElementsAre(planning));
  // A long token is kept cut on a whole code point, and found whole or cut.
  EXPECT_THAT(Found(*a.db, "task", std::string(60, 'x') + "éééé"), ElementsAre(long_word));
  EXPECT_THAT(Found(*a.db, "task", std::string(60, 'x') + "éééééé"), ElementsAre(long_word));
  for (const json& row : Terms(*a.db)) {
    EXPECT_LE(row["token"].get<std::string>().size(), kMaxIndexedTokenBytes);
    EXPECT_TRUE(text::IsValidUtf8(row["token"].get<std::string>()));
  }
}

TEST(SearchIndexMigration, IndexesTheRecordsWrittenBeforeIt) {
  auto db = std::move(store::SqliteDatabase::Open(":memory:")).value();
  const auto all = hub::Migrations();
  std::size_t before = 0;
  while (before < all.size() && all[before].version != kCreateSearchIndex.version) ++before;
  ASSERT_LT(before, all.size());
  ASSERT_TRUE(store::Migrate(*db, all.first(before)).ok());
  ASSERT_TRUE(db->Exec("INSERT INTO tasks (id, space_id, title, status, version, created_at,"
                       " updated_at) VALUES ('t1', 'personal', 'Older launch', 'todo', 1, 5, 5)")
                  .ok());
  ASSERT_TRUE(db->Exec("INSERT INTO tasks (id, space_id, title, status, version, created_at,"
                       " updated_at, deleted) VALUES ('t2', 'personal', 'Gone launch', 'todo',"
                       " 1, 5, 5, 1)")
                  .ok());
  ASSERT_TRUE(hub::Migrate(*db).ok());
  EXPECT_THAT(Found(*db, "task", "launch"), ElementsAre("t1"));
}

}  // namespace search_index_test
}  // namespace ensemble::core::context
