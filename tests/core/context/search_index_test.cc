// The search index (core/context/search_index.h): kept by every path a
// record changes by (a mutator on the server and on a replica, a pull, a
// rebase, a reset, the migration over rows written before it), always equal
// to what a rebuild from the rows gives; and its candidates: prefixes, whole
// code points, at most 30 per kind with the most words held first.

#include "core/context/search_index.h"

#include <gmock/gmock.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <tuple>
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

std::vector<std::string> Split(const std::string& list) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from < list.size()) {
    const std::size_t end = std::min(list.find(' ', from), list.size());
    out.push_back(list.substr(from, end - from));
    from = end + 1;
  }
  return out;
}

// Every row the index holds, as search_terms' rows, in key order: the
// recent rows' tokens, and the rows of search_terms they do not supersede.
json Terms(store::Database& db) {
  using Row = std::tuple<std::string, std::string, std::string, std::string, int64_t, int64_t>;
  std::vector<Row> rows;
  std::set<std::pair<std::string, std::string>> recent;
  auto recent_rows =
      db.Query("SELECT space_id, kind, id, updated_at, title_tokens, tokens FROM search_recent");
  EXPECT_TRUE(recent_rows.ok()) << recent_rows.status().ToString();
  for (const std::vector<store::Value>& r : recent_rows->rows) {
    const std::string kind = store::AsText(r[1]), id = store::AsText(r[2]);
    recent.insert({kind, id});
    for (int column : {4, 5}) {
      for (const std::string& token : Split(store::AsText(r[column])))
        rows.emplace_back(store::AsText(r[0]), kind, token, id, column == 4, store::AsInt(r[3]));
    }
  }
  auto main_rows =
      db.Query("SELECT space_id, kind, token, id, in_title, updated_at FROM search_terms");
  EXPECT_TRUE(main_rows.ok()) << main_rows.status().ToString();
  for (const std::vector<store::Value>& r : main_rows->rows) {
    if (recent.count({store::AsText(r[1]), store::AsText(r[3])})) continue;
    rows.emplace_back(store::AsText(r[0]), store::AsText(r[1]), store::AsText(r[2]),
                      store::AsText(r[3]), store::AsInt(r[4]), store::AsInt(r[5]));
  }
  std::sort(rows.begin(), rows.end());
  json out = json::array();
  for (const auto& [space_id, kind, token, id, in_title, updated_at] : rows) {
    out.push_back({{"space_id", space_id},
                   {"kind", kind},
                   {"token", token},
                   {"id", id},
                   {"in_title", in_title},
                   {"updated_at", updated_at}});
  }
  return out;
}

// Terms(db) as the table index_view, for SQL to read.
void ViewTerms(store::Database& db) {
  ASSERT_TRUE(db.Exec("CREATE TEMP TABLE index_view (space_id TEXT, kind TEXT, token TEXT,"
                      " id TEXT, in_title BIGINT, updated_at BIGINT)")
                  .ok());
  for (const json& row : Terms(db)) {
    ASSERT_TRUE(db.Exec("INSERT INTO index_view VALUES ($1, $2, $3, $4, $5, $6)",
                        {store::Value(row["space_id"].get<std::string>()),
                         store::Value(row["kind"].get<std::string>()),
                         store::Value(row["token"].get<std::string>()),
                         store::Value(row["id"].get<std::string>()),
                         store::Value(row["in_title"].get<int64_t>()),
                         store::Value(row["updated_at"].get<int64_t>())})
                    .ok());
  }
}

int64_t Count(store::Database& db, const std::string& sql) {
  auto rows = db.Query(sql);
  EXPECT_TRUE(rows.ok() && !rows->empty()) << sql;
  return rows.ok() && !rows->empty() ? store::AsInt(rows->rows[0][0]) : -1;
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
  ViewTerms(*a.db);
  const std::string kTerms = "index_view";
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

TEST_F(SearchIndexTest, AWriteIsOneRecentRowUntilTheBoundThenAllMergeInKeyOrder) {
  sync::Client a(1);
  std::string description;
  for (int j = 0; j < 400; ++j) description += "w" + std::to_string(j) + " ";
  store::Database& db = *a.db;
  std::vector<std::string> ids;
  // Each task is one row of search_recent holding its 401 tokens, never rows
  // of search_terms, until one takes the tokens past the bound.
  for (;;) {
    ids.push_back(Create(a, "task", {{"title", "Item"}, {"description", description}}));
    const int64_t rows = Count(db, "SELECT COUNT(*) FROM search_recent");
    if (rows == 0) break;
    ASSERT_EQ(rows, static_cast<int64_t>(ids.size()));
    ASSERT_EQ(Count(db, "SELECT SUM(token_count) FROM search_recent"), 401 * rows);
    ASSERT_LE(401 * rows, kMaxRecentTerms);
    EXPECT_EQ(Count(db, "SELECT COUNT(*) FROM search_terms"), 0);
  }
  EXPECT_GT(401 * static_cast<int64_t>(ids.size()), kMaxRecentTerms);
  EXPECT_EQ(Count(db, "SELECT COUNT(*) FROM search_terms"), 401 * static_cast<int64_t>(ids.size()));
  ExpectRebuilt(db);
  // An edit puts a merged record's row back; its rows in search_terms stay
  // but are passed over: "item" is no longer its title.
  Update(a, "task", ids.front(), {{"title", "Merged then edited"}, {"description", "w7"}});
  EXPECT_EQ(Count(db, "SELECT COUNT(*) FROM search_recent"), 1);
  EXPECT_THAT(Found(db, "task", "edited w7"), ::testing::Contains(ids.front()));
  EXPECT_EQ(Found(db, "task", "edited w7")[0], ids.front());
  EXPECT_THAT(Found(db, "task", "w399"), ::testing::Not(::testing::Contains(ids.front())));
  ExpectRebuilt(db);  // The rebuild fills search_terms alone.
  EXPECT_EQ(Count(db, "SELECT COUNT(*) FROM search_recent"), 0);
  // A record put in Trash is a row with no tokens: not found, though its
  // rows are still in search_terms until a merge takes them out.
  ASSERT_TRUE(a.replica->Mutate("task.delete", {{"id", ids.back()}}).ok());
  EXPECT_EQ(Count(db, "SELECT token_count FROM search_recent"), 0);
  EXPECT_THAT(Found(db, "task", "w399"), ::testing::Not(::testing::Contains(ids.back())));
  EXPECT_EQ(Found(db, "task", "w399").size(), std::min(ids.size() - 1, kCandidatesPerKind));
  const json kept = Terms(db);
  ASSERT_TRUE(MergeRecentTerms(db).ok());
  EXPECT_EQ(Count(db, "SELECT COUNT(*) FROM search_recent"), 0);
  EXPECT_EQ(Count(db, "SELECT COUNT(*) FROM search_terms WHERE id = '" + ids.back() + "'"), 0);
  EXPECT_EQ(Terms(db), kept);
  ExpectRebuilt(db);
}

TEST_F(SearchIndexTest, APushOfHundredsIsIndexedAChunkAtATime) {
  // 150 creates, some of them put in Trash and some given a page, in one
  // push: the server reads and writes them in chunks of 64, 32, ... and its
  // index is what a rebuild gives, as is a replica's that pulls them.
  sync::Client a(1), b(2);
  const std::string page = Create(a, "page", {{"title", "Notes"}, {"body", "venue"}});
  std::vector<std::string> ids;
  for (int i = 0; i < 150; ++i) {
    json args = {{"title", "Batch " + std::to_string(i)}};
    if (i % 10 == 0) args["page"] = page;
    ids.push_back(Create(a, "task", args));
    if (i % 7 == 0) ASSERT_TRUE(a.replica->Mutate("task.delete", {{"id", ids.back()}}).ok());
  }
  Sync(a);
  Pull(b);
  EXPECT_EQ(Found(*server_db_, "task", "venue").size(), 15u - 3u);  // 0, 70, 140 in Trash.
  EXPECT_EQ(Terms(*server_db_), Terms(*b.db));
  ExpectRebuilt(*server_db_);
  ExpectRebuilt(*b.db);
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

// A store migrated up to, not including, migration `version`.
std::unique_ptr<store::SqliteDatabase> MigratedBefore(int64_t version) {
  auto db = std::move(store::SqliteDatabase::Open(":memory:")).value();
  const auto all = hub::Migrations();
  std::size_t before = 0;
  while (before < all.size() && all[before].version != version) ++before;
  EXPECT_LT(before, all.size());
  EXPECT_TRUE(store::Migrate(*db, all.first(before)).ok());
  return db;
}

TEST(SearchIndexMigration, IndexesTheRecordsWrittenBeforeIt) {
  auto db = MigratedBefore(kCreateSearchIndex.version);
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

TEST(SearchIndexMigration, MovesTheRecentRowsOfEachTokenIntoTheIndex) {
  // Migration 38's search_recent held a row per token; 39 merges them.
  auto db = MigratedBefore(kRecentTermsByRecord.version);
  ASSERT_TRUE(db->Exec("INSERT INTO tasks (id, space_id, title, status, version, created_at,"
                       " updated_at) VALUES ('t1', 'personal', 'Recent launch', 'todo', 1, 5, 5)")
                  .ok());
  ASSERT_TRUE(db->Exec("INSERT INTO search_recent (space_id, kind, token, id, in_title,"
                       " updated_at) VALUES ('personal', 'task', 'launch', 't1', 1, 5),"
                       " ('personal', 'task', 'recent', 't1', 1, 5)")
                  .ok());
  ASSERT_TRUE(hub::Migrate(*db).ok());
  EXPECT_THAT(Found(*db, "task", "launch"), ElementsAre("t1"));
  EXPECT_EQ(Count(*db, "SELECT COUNT(*) FROM search_terms"), 2);
  EXPECT_EQ(Count(*db, "SELECT COUNT(*) FROM search_recent"), 0);
  ExpectRebuilt(*db);
}

}  // namespace search_index_test
}  // namespace ensemble::core::context
