// Client replica and server sync together, in process, on SQLite: the slice
// every record kind relies on (exactly once, rebase, conflicts, paging).

#include <gtest/gtest.h>

#include "core/base/id.h"
#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"
#include "core/sync/client_replica.h"
#include "core/sync/row_codec.h"
#include "core/sync/server_sync.h"
#include "core/tasks/task.h"
#include "tests/fakes/fake_env.h"

namespace ensemble::core::sync {
namespace {

using nlohmann::json;

std::unique_ptr<store::SqliteDatabase> NewDb() {
  auto db = std::move(store::SqliteDatabase::Open(":memory:")).value();
  EXPECT_TRUE(hub::Migrate(*db).ok());
  return db;
}

struct Client {
  explicit Client(uint64_t seed) : env{testing::FakeClock(), testing::FakeRandom(seed), {}} {
    db = NewDb();
    replica = std::move(ClientReplica::Open(*db, env.env(), hub::Config())).value();
  }
  std::string NewTask(const std::string& title) {
    std::string id = NewId(env.clock, env.random);
    env.clock.Advance(1);
    auto r = replica->Mutate("task.create", {{"id", id}, {"spaceId", "personal"}, {"title", title}});
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return id;
  }
  tasks::Task Get(const std::string& id) { return **tasks::GetTask(*db, id); }

  testing::FakeEnv env;
  std::unique_ptr<store::SqliteDatabase> db;
  std::unique_ptr<ClientReplica> replica;
};

class SyncTest : public ::testing::Test {
 protected:
  SyncTest() : server_db_(NewDb()), server_(hub::Config()) {}

  json Push(Client& c) {
    json request = *c.replica->PushRequest();
    auto response = server_.Push(*server_db_, request);
    EXPECT_TRUE(response.ok()) << response.status().ToString();
    EXPECT_TRUE(c.replica->ApplyPushResponse(*response).ok());
    return *response;
  }
  void Pull(Client& c) {
    for (int page = 0; page < 100; ++page) {
      json req = *c.replica->PullRequest();
      auto resp = server_.Pull(*server_db_, req["clientId"], req["cursor"]);
      ASSERT_TRUE(resp.ok()) << resp.status().ToString();
      ASSERT_TRUE(c.replica->ApplyPull(*resp).ok());
      if (!(*resp)["more"].get<bool>()) return;
    }
    FAIL() << "pull did not finish";
  }
  void Sync(Client& c) {
    while (!(*c.replica->PushRequest())["mutations"].empty()) Push(c);
    Pull(c);
  }
  int64_t ServerCount(const std::string& sql) {
    return store::AsInt(server_db_->Query(sql)->rows[0][0]);
  }
  json ServerRows() {
    auto rows = server_db_->Query("SELECT * FROM tasks ORDER BY id");
    json out = json::array();
    for (size_t i = 0; i < rows->size(); ++i) out.push_back(RowToJson(*rows, i));
    return out;
  }
  json ClientRows(Client& c) {
    auto rows = c.db->Query("SELECT * FROM tasks ORDER BY id");
    json out = json::array();
    for (size_t i = 0; i < rows->size(); ++i) out.push_back(RowToJson(*rows, i));
    return out;
  }

  std::unique_ptr<store::SqliteDatabase> server_db_;
  ServerSync server_;
};

TEST_F(SyncTest, MutateAppliesLocallyAndQueues) {
  Client a(1);
  std::string id = a.NewTask("Write report");
  EXPECT_EQ(a.Get(id).title, "Write report");
  EXPECT_EQ(*a.replica->PendingCount(), 1);
  json outbox = *a.replica->Outbox();
  EXPECT_EQ(outbox[0]["id"], 1);
  EXPECT_EQ(outbox[0]["name"], "task.create");
}

TEST_F(SyncTest, AFailedMutationChangesNothingAndQueuesNothing) {
  Client a(1);
  auto r = a.replica->Mutate("task.create", {{"id", "bad"}, {"spaceId", "p"}, {"title", "x"}});
  EXPECT_EQ(r.status().code(), codes::kInvalidArgument);
  EXPECT_EQ(a.replica->Mutate("task.fly", json::object()).status().code(), codes::kUnknownMutation);
  EXPECT_EQ(*a.replica->PendingCount(), 0);
  EXPECT_TRUE(tasks::ListTasks(*a.db)->empty());
}

TEST_F(SyncTest, ClientIdSurvivesReopening) {
  testing::FakeEnv env;
  auto db = NewDb();
  std::string first = (*ClientReplica::Open(*db, env.env(), hub::Config()))->client_id();
  std::string second = (*ClientReplica::Open(*db, env.env(), hub::Config()))->client_id();
  EXPECT_EQ(first, second);
}

TEST_F(SyncTest, OfflineWritesReachTheServerOnceAndConverge) {
  Client a(1);
  a.NewTask("one");
  a.NewTask("two");
  Sync(a);
  EXPECT_EQ(*a.replica->PendingCount(), 0);
  EXPECT_EQ(ServerCount("SELECT COUNT(*) FROM tasks"), 2);
  EXPECT_EQ(ClientRows(a), ServerRows());
}

TEST_F(SyncTest, TheSameBatchPushedTwiceAppliesOnce) {
  Client a(1);
  std::string id = a.NewTask("once");
  json request = *a.replica->PushRequest();
  json first = *server_.Push(*server_db_, request);
  json second = *server_.Push(*server_db_, request);
  EXPECT_EQ(first["results"][0]["status"], "applied");
  EXPECT_EQ(second["results"][0]["status"], "skipped");
  EXPECT_EQ(second["lastMutationId"], 1);
  EXPECT_EQ(ServerCount("SELECT COUNT(*) FROM tasks"), 1);
  EXPECT_EQ(ServerCount("SELECT MAX(version) FROM tasks"), 1);
}

TEST_F(SyncTest, ABatchRetriedAfterALostResponseAppliesEachMutationOnce) {
  Client a(1);
  std::string id = a.NewTask("t");
  ASSERT_TRUE(a.replica->Mutate("task.update", {{"id", id}, {"fields", {{"title", "t2"}}}}).ok());
  server_.Push(*server_db_, *a.replica->PushRequest());  // Response lost: not acknowledged.
  ASSERT_TRUE(a.replica->Mutate("task.update", {{"id", id}, {"fields", {{"status", "done"}}}}).ok());
  json response = Push(a);  // Re-sends 1 and 2 with 3.
  EXPECT_EQ(response["results"][0]["status"], "skipped");
  EXPECT_EQ(response["results"][1]["status"], "skipped");
  EXPECT_EQ(response["results"][2]["status"], "applied");
  Pull(a);
  EXPECT_EQ(ServerCount("SELECT version FROM tasks"), 3);
  EXPECT_EQ(ClientRows(a), ServerRows());
}

TEST_F(SyncTest, AMutationFromTheFutureIsRefused) {
  json request = {{"clientGroupId", "g"},
                  {"clientId", "c"},
                  {"mutations",
                   {{{"id", 3},
                     {"name", "task.create"},
                     {"args", {{"id", "01JB0000000000000000000001"}, {"spaceId", "p"}, {"title", "x"}}},
                     {"clientTime", 1}}}}};
  json response = *server_.Push(*server_db_, request);
  EXPECT_EQ(response["results"][0]["status"], "refused");
  EXPECT_EQ(response["results"][0]["code"], codes::kMutationFromFuture);
  EXPECT_EQ(response["lastMutationId"], 0);
  EXPECT_EQ(ServerCount("SELECT COUNT(*) FROM tasks"), 0);
}

TEST_F(SyncTest, ABadRequestChangesNothing) {
  Client a(1);
  a.NewTask("t");
  json request = *a.replica->PushRequest();
  json unknown = request;
  unknown["mutations"].push_back(
      {{"id", 2}, {"name", "task.explode"}, {"args", json::object()}, {"clientTime", 1}});
  EXPECT_EQ(server_.Push(*server_db_, unknown).status().code(), codes::kUnknownMutation);
  json no_client = request;
  no_client.erase("clientId");
  EXPECT_EQ(server_.Push(*server_db_, no_client).status().code(), codes::kInvalidArgument);
  json too_many = request;
  too_many["mutations"] = json::array();
  for (size_t i = 1; i <= kMaxPushMutations + 1; ++i) {
    too_many["mutations"].push_back(request["mutations"][0]);
    too_many["mutations"].back()["id"] = i;
  }
  EXPECT_EQ(server_.Push(*server_db_, too_many).status().code(), codes::kInvalidArgument);
  EXPECT_EQ(server_.Push(*server_db_, json::array()).status().code(), codes::kInvalidArgument);
  EXPECT_EQ(ServerCount("SELECT COUNT(*) FROM tasks"), 0);
  EXPECT_EQ(ServerCount("SELECT COUNT(*) FROM sync_clients"), 0);
}

TEST_F(SyncTest, ARejectedMutationDoesNotBlockTheRest) {
  Client a(1);
  std::string id = a.NewTask("t");
  Sync(a);
  // Made locally valid, but the server refuses it (the task is gone there).
  ASSERT_TRUE(server_db_->Exec("DELETE FROM tasks").ok());
  ASSERT_TRUE(a.replica->Mutate("task.update", {{"id", id}, {"fields", {{"title", "x"}}}}).ok());
  std::string next = a.NewTask("after");
  json response = Push(a);
  EXPECT_EQ(response["results"][0]["status"], "rejected");
  EXPECT_EQ(response["results"][0]["code"], codes::kNotFound);
  EXPECT_EQ(response["results"][1]["status"], "applied");
  json rejections = *a.replica->Rejections();
  ASSERT_EQ(rejections.size(), 1u);
  EXPECT_EQ(rejections[0]["code"], codes::kNotFound);
  EXPECT_EQ(rejections[0]["args"]["fields"]["title"], "x");
  ASSERT_TRUE(a.replica->DismissRejection(rejections[0]["id"]).ok());
  EXPECT_TRUE(a.replica->Rejections()->empty());
  Pull(a);
  EXPECT_EQ(*a.replica->PendingCount(), 0);
  EXPECT_TRUE(tasks::GetTask(*a.db, next)->has_value());
}

TEST_F(SyncTest, AMutatorThatThrowsIsRejectedWithoutBlockingTheQueue) {
  MutatorRegistry registry;
  tasks::RegisterMutators(registry);
  registry.Register("task.buggy", [](MutationContext& ctx, const json&) -> Status {
    EXPECT_TRUE(ctx.db().Exec("UPDATE tasks SET title = 'half-done'").ok());
    return Status(codes::kInternal, json(1).at("no such key").get<std::string>());
  });
  SyncConfig config = hub::Config();
  config.mutators = &registry;
  ServerSync server(config);
  json create = {{"id", "01JB0000000000000000000001"}, {"spaceId", "p"}, {"title", "t"}};
  json request = {{"clientGroupId", "g"},
                  {"clientId", "c"},
                  {"mutations",
                   {{{"id", 1}, {"name", "task.create"}, {"args", create}, {"clientTime", 1}},
                    {{"id", 2}, {"name", "task.buggy"}, {"args", json::object()}, {"clientTime", 2}},
                    {{"id", 3},
                     {"name", "task.update"},
                     {"args", {{"id", create["id"]}, {"fields", {{"status", "done"}}}}},
                     {"clientTime", 3}}}}};
  auto response = server.Push(*server_db_, request);
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ((*response)["results"][1]["status"], "rejected");
  EXPECT_EQ((*response)["results"][1]["code"], codes::kInternal);
  EXPECT_EQ((*response)["results"][2]["status"], "applied");
  EXPECT_EQ((*response)["lastMutationId"], 3);
  auto row = server_db_->Query("SELECT title, status FROM tasks");
  EXPECT_EQ(store::AsText(row->rows[0][0]), "t");  // The throw's half-write was rolled back.
  EXPECT_EQ(store::AsText(row->rows[0][1]), "done");
}

TEST_F(SyncTest, PullRebasesPendingEditsOnTopOfOtherClientsChanges) {
  Client a(1), b(2);
  std::string id = a.NewTask("shared");
  Sync(a);
  Pull(b);
  // b changes the status and syncs; a, offline, renames.
  ASSERT_TRUE(b.replica->Mutate("task.update", {{"id", id}, {"fields", {{"status", "done"}}}}).ok());
  Sync(b);
  ASSERT_TRUE(a.replica->Mutate("task.update", {{"id", id},
                                                {"fields", {{"title", "renamed"}}},
                                                {"base", {{"title", "shared"}}}})
                  .ok());
  Pull(a);  // Rebase: b's status under a's pending title.
  EXPECT_EQ(a.Get(id).status, "done");
  EXPECT_EQ(a.Get(id).title, "renamed");
  EXPECT_EQ(*a.replica->PendingCount(), 1);
  Sync(a);
  Pull(b);
  EXPECT_EQ(ClientRows(a), ServerRows());
  EXPECT_EQ(ClientRows(b), ServerRows());
}

TEST_F(SyncTest, AConflictIsSurfacedAndTheServerValueWins) {
  Client a(1), b(2);
  std::string id = a.NewTask("draft");
  Sync(a);
  Pull(b);
  ASSERT_TRUE(b.replica->Mutate("task.update", {{"id", id},
                                                {"fields", {{"title", "theirs"}}},
                                                {"base", {{"title", "draft"}}}})
                  .ok());
  Sync(b);
  ASSERT_TRUE(a.replica->Mutate("task.update", {{"id", id},
                                                {"fields", {{"title", "mine"}}},
                                                {"base", {{"title", "draft"}}}})
                  .ok());
  json response = Push(a);
  EXPECT_EQ(response["results"][0]["code"], codes::kSaveConflict);
  EXPECT_EQ(response["results"][0]["details"]["current"]["title"], "theirs");
  Pull(a);
  EXPECT_EQ(a.Get(id).title, "theirs");
  EXPECT_EQ((*a.replica->Rejections())[0]["details"]["current"]["title"], "theirs");
  EXPECT_EQ(ClientRows(a), ServerRows());
}

TEST_F(SyncTest, PullPagesLargeCatchUps) {
  Client a(1), b(2);
  // Several pushes (more than kMaxPullRows rows in all) so b needs several pages.
  for (size_t i = 0; i < kMaxPullRows + 250; ++i) a.NewTask("task " + std::to_string(i));
  Sync(a);
  EXPECT_EQ(*a.replica->PendingCount(), 0);
  json first = *server_.Pull(*server_db_, b.replica->client_id(), 0);
  EXPECT_TRUE(first["more"].get<bool>());
  EXPECT_LE(first["changes"].size(), kMaxPullRows);
  Pull(b);
  EXPECT_EQ(tasks::ListTasks(*b.db)->size(), kMaxPullRows + 250);
  EXPECT_EQ(ClientRows(b), ServerRows());
}

TEST_F(SyncTest, AMalformedPullResponseChangesNothing) {
  Client a(1);
  a.NewTask("t");
  EXPECT_FALSE(a.replica->ApplyPull(json{{"cursor", "x"}}).ok());
  EXPECT_FALSE(a.replica->ApplyPull(json{{"cursor", 1}, {"lastMutationId", 1}, {"changes", {1}}}).ok());
  EXPECT_EQ(*a.replica->PendingCount(), 1);
  EXPECT_EQ(*a.replica->Cursor(), 0);
  EXPECT_EQ(tasks::ListTasks(*a.db)->size(), 1u);
}

}  // namespace
}  // namespace ensemble::core::sync
