// Client replica and server sync together, in process, on SQLite: the slice
// every record kind relies on (exactly once, rebase, conflicts, paging).

#include <gtest/gtest.h>

#include "core/base/id.h"
#include "core/hub/hub.h"
#include "core/sync/client_replica.h"
#include "core/sync/server_sync.h"
#include "core/tasks/task.h"
#include "tests/core/sync/sync_fixture.h"

namespace ensemble::core::sync {
namespace {

using nlohmann::json;

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
  // Response lost: not acknowledged.
  ASSERT_TRUE(server_.Push(*server_db_, *a.replica->PushRequest()).ok());
  ASSERT_TRUE(
      a.replica->Mutate("task.update", {{"id", id}, {"fields", {{"status", "done"}}}}).ok());
  json response = Push(a);  // Re-sends 1 and 2 with 3.
  EXPECT_EQ(response["results"][0]["status"], "skipped");
  EXPECT_EQ(response["results"][1]["status"], "skipped");
  EXPECT_EQ(response["results"][2]["status"], "applied");
  Pull(a);
  EXPECT_EQ(ServerCount("SELECT version FROM tasks"), 3);
  EXPECT_EQ(ClientRows(a), ServerRows());
}

TEST_F(SyncTest, AMutationFromTheFutureIsRefused) {
  json request = {
      {"clientGroupId", "g"},
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

TEST_F(SyncTest, ARejectionWhoseResponseWasLostIsHeardAgain) {
  Client a(1), b(2);
  std::string id = a.NewTask("t");
  Sync(a);
  Pull(b);
  ASSERT_TRUE(a.replica->Mutate("task.delete", {{"id", id}}).ok());
  Sync(a);
  // b, still seeing the live task, edits it: the server refuses; b hears nothing.
  ASSERT_TRUE(b.replica->Mutate("task.update", {{"id", id}, {"fields", {{"title", "x"}}}}).ok());
  json lost = *server_.Push(*server_db_, *b.replica->PushRequest());
  EXPECT_EQ(lost["results"][0]["code"], codes::kRecordDeleted);
  // Re-sent: the verdict comes again, not "skipped".
  json again = *server_.Push(*server_db_, *b.replica->PushRequest());
  EXPECT_EQ(again["results"][0]["status"], "rejected");
  EXPECT_EQ(again["results"][0]["code"], codes::kRecordDeleted);
  // Or heard from the next pull, before the mutation leaves the outbox.
  json pull = *server_.Pull(*server_db_, b.replica->client_id(), 0);
  ASSERT_EQ(pull["rejections"].size(), 1u);
  ASSERT_TRUE(b.replica->ApplyPull(pull).ok());
  EXPECT_EQ(*b.replica->PendingCount(), 0);
  ASSERT_EQ(b.replica->Rejections()->size(), 1u);
  EXPECT_EQ((*b.replica->Rejections())[0]["code"], codes::kRecordDeleted);
  // Once the client pushes past it, the server forgets the verdict.
  ASSERT_TRUE(b.replica
                  ->Mutate("task.create", {{"id", "01JB0000000000000000000077"},
                                           {"spaceId", "personal"},
                                           {"title", "next"}})
                  .ok());
  Push(b);
  EXPECT_FALSE((*server_.Pull(*server_db_, b.replica->client_id(), 0)).contains("rejections"));
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
  json request = {
      {"clientGroupId", "g"},
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
  ASSERT_TRUE(
      b.replica->Mutate("task.update", {{"id", id}, {"fields", {{"status", "done"}}}}).ok());
  Sync(b);
  ASSERT_TRUE(a.replica
                  ->Mutate("task.update", {{"id", id},
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
  ASSERT_TRUE(
      b.replica
          ->Mutate("task.update",
                   {{"id", id}, {"fields", {{"title", "theirs"}}}, {"base", {{"title", "draft"}}}})
          .ok());
  Sync(b);
  ASSERT_TRUE(
      a.replica
          ->Mutate("task.update",
                   {{"id", id}, {"fields", {{"title", "mine"}}}, {"base", {{"title", "draft"}}}})
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

TEST_F(SyncTest, AnEditOfADeletedRecordIsKeptAsARejectionAndCanBeReapplied) {
  Client a(1), b(2);
  std::string id = a.NewTask("draft");
  Sync(a);
  Pull(b);
  ASSERT_TRUE(a.replica->Mutate("task.delete", {{"id", id}}).ok());
  Sync(a);
  // b has not heard of the delete: its edit applies locally and is queued.
  json edit = {{"id", id}, {"fields", {{"title", "mine"}}}, {"base", {{"title", "draft"}}}};
  ASSERT_TRUE(b.replica->Mutate("task.update", edit).ok());
  json response = Push(b);
  EXPECT_EQ(response["results"][0]["status"], "rejected");
  EXPECT_EQ(response["results"][0]["code"], codes::kRecordDeleted);
  Pull(b);
  EXPECT_TRUE(b.Get(id).deleted);
  json rejections = *b.replica->Rejections();
  ASSERT_EQ(rejections.size(), 1u);
  EXPECT_EQ(rejections[0]["code"], codes::kRecordDeleted);
  EXPECT_EQ(rejections[0]["args"], edit);
  EXPECT_EQ(rejections[0]["details"]["deleted"], true);
  EXPECT_EQ(rejections[0]["details"]["current"]["title"], "draft");

  // The person restores the task and applies the kept edit again.
  ASSERT_TRUE(b.replica->Mutate("task.restore", {{"id", id}}).ok());
  ASSERT_TRUE(b.replica->Mutate("task.update", rejections[0]["args"]).ok());
  ASSERT_TRUE(b.replica->DismissRejection(rejections[0]["id"].get<int64_t>()).ok());
  Sync(b);
  Pull(a);
  EXPECT_FALSE(a.Get(id).deleted);
  EXPECT_EQ(a.Get(id).title, "mine");
  EXPECT_EQ(ClientRows(a), ServerRows());
  EXPECT_EQ(ClientRows(b), ServerRows());
}

TEST_F(SyncTest, EveryRecordKindSyncs) {
  Client a(1), b(2);
  const std::string project = NewId(a.env.clock, a.env.random);
  const std::string person = NewId(a.env.clock, a.env.random);
  const std::string page = NewId(a.env.clock, a.env.random);
  const std::string board = NewId(a.env.clock, a.env.random);
  ASSERT_TRUE(
      a.replica->Mutate("project.create", {{"id", project}, {"spaceId", "s"}, {"title", "Q3"}})
          .ok());
  ASSERT_TRUE(
      a.replica->Mutate("person.create", {{"id", person}, {"spaceId", "s"}, {"name", "Ana"}}).ok());
  ASSERT_TRUE(
      a.replica->Mutate("page.create", {{"id", page}, {"spaceId", "s"}, {"title", "Notes"}}).ok());
  ASSERT_TRUE(
      a.replica->Mutate("board.create", {{"id", board}, {"spaceId", "s"}, {"title", "Team"}}).ok());
  ASSERT_TRUE(
      a.replica->Mutate("project.update", {{"id", project}, {"fields", {{"status", "done"}}}})
          .ok());
  ASSERT_TRUE(a.replica->Mutate("person.delete", {{"id", person}}).ok());
  Sync(a);
  Pull(b);
  for (const char* table : {"projects", "people", "pages", "boards"}) {
    SCOPED_TRACE(table);
    EXPECT_EQ(ServerRows(table).size(), 1u);
    EXPECT_EQ(ClientRows(a, table), ServerRows(table));
    EXPECT_EQ(ClientRows(b, table), ServerRows(table));
  }
  EXPECT_EQ(ServerRows("projects")[0]["status"], "done");
  EXPECT_EQ(ServerRows("people")[0]["deleted"], 1);
}

TEST_F(SyncTest, AMalformedPullResponseChangesNothing) {
  Client a(1);
  a.NewTask("t");
  EXPECT_FALSE(a.replica->ApplyPull(json{{"cursor", "x"}}).ok());
  EXPECT_FALSE(
      a.replica->ApplyPull(json{{"cursor", 1}, {"lastMutationId", 1}, {"changes", {1}}}).ok());
  EXPECT_EQ(*a.replica->PendingCount(), 1);
  EXPECT_EQ(*a.replica->Cursor(), 0);
  EXPECT_EQ(tasks::ListTasks(*a.db)->size(), 1u);
}

}  // namespace
}  // namespace ensemble::core::sync
