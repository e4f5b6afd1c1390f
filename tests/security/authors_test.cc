// Records that speak or act for a person keep their author (docs/SECURITY.md,
// "Sharing with consent"): only a comment's author edits it, and only the
// author or the space's owner deletes it; a routine runs as the account that
// made it, and pauses, in everyone's copy, once that account no longer owns
// the space, never running as anyone else.

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "tests/server/accounts_fixture.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;
namespace bhttp = boost::beast::http;
namespace codes = core::codes;

constexpr char kTask[] = "01JC0000000000000000000001";
constexpr char kComment[] = "01JC00000000000000000000C1";
constexpr char kRoutine[] = "01JC00000000000000000000R1";
constexpr int kWaitRounds = 200;
constexpr auto kWaitStep = std::chrono::milliseconds(25);

class Authors : public AccountsServerTest {
 protected:
  void Configure(server::Config& config) override {
    config.accounts = true;
    config.open_signup = true;
    config.private_links = false;
    config.routine_check_interval = std::chrono::milliseconds(20);
  }

  // One mutation pushed by `m` from its own client; its result.
  json Push(const Member& m, const std::string& name, const json& args, int64_t client_time) {
    json body = {{"clientGroupId", m.account_id + "-g"},
                 {"clientId", m.account_id + "-c"},
                 {"mutations",
                  {{{"id", ++mutation_ids_[m.account_id]},
                    {"name", name},
                    {"args", args},
                    {"clientTime", client_time}}}}};
    HttpReply r = Call(m, bhttp::verb::post, "/api/sync/push", body);
    EXPECT_EQ(r.status, 200) << r.body();
    return r.json()["results"][0];
  }
  json Push(const Member& m, const std::string& name, const json& args) {
    return Push(m, name, args, 1'764'000'000'000);
  }
  std::string Text(const std::string& sql) {
    auto rows = store().Query(sql);
    EXPECT_TRUE(rows.ok() && rows->size() == 1u) << sql;
    return rows.ok() && rows->size() == 1u ? core::store::AsText(rows->rows[0][0]) : "";
  }
  // The conversations `m` sees in the space.
  json Conversations(const Member& m, const std::string& space) {
    HttpReply r = Call(m, bhttp::verb::get, "/api/assistant/conversations?spaceId=" + space);
    EXPECT_EQ(r.status, 200) << r.body();
    return r.json()["conversations"];
  }

  std::map<std::string, int64_t> mutation_ids_;
};

TEST_P(Authors, OnlyACommentsAuthorEditsItAndTheOwnerMayDeleteIt) {
  Member ana = SignedUp("ana@example.org");
  Member bo = SignedUp("bo@example.org");
  Member cy = SignedUp("cy@example.org");
  const std::string space = MakeSpace(ana, "Team");
  ASSERT_TRUE(Share(ana, space, bo, "editor"));
  ASSERT_TRUE(Share(ana, space, cy, "editor"));
  ASSERT_EQ(
      Push(ana, "task.create", {{"id", kTask}, {"spaceId", space}, {"title", "Plan"}})["status"],
      "applied");
  ASSERT_EQ(Push(bo, "comment.create",
                 {{"id", kComment},
                  {"spaceId", space},
                  {"target_kind", "task"},
                  {"target", kTask},
                  {"body", "Friday?"}})["status"],
            "applied");
  EXPECT_EQ(Text(std::string("SELECT author FROM comments WHERE id = '") + kComment + "'"),
            bo.account_id);

  json edited = Push(cy, "comment.update", {{"id", kComment}, {"fields", {{"body", "Monday!"}}}});
  EXPECT_EQ(edited["status"], "rejected");
  EXPECT_EQ(edited["code"], codes::kForbidden);
  EXPECT_EQ(Push(cy, "comment.delete", {{"id", kComment}})["code"], codes::kForbidden);
  // Resolving a thread is anyone's who writes there.
  EXPECT_EQ(Push(cy, "comment.update", {{"id", kComment}, {"fields", {{"resolved", 1}}}})["status"],
            "applied");
  EXPECT_EQ(
      Push(bo, "comment.update", {{"id", kComment}, {"fields", {{"body", "Thursday?"}}}})["status"],
      "applied");
  EXPECT_EQ(
      Push(ana, "comment.update", {{"id", kComment}, {"fields", {{"body", "Ana's"}}}})["code"],
      codes::kForbidden);
  EXPECT_EQ(Text(std::string("SELECT body FROM comments WHERE id = '") + kComment + "'"),
            "Thursday?");
  EXPECT_EQ(Push(ana, "comment.delete", {{"id", kComment}})["status"], "applied");
}

TEST_P(Authors, ARoutineRunsAsItsAuthorAndPausesWhenTheyLeave) {
  Member ana = SignedUp("ana@example.org");
  Member bo = SignedUp("bo@example.org");
  const std::string space = MakeSpace(ana, "Team");
  ASSERT_TRUE(Share(ana, space, bo, "owner"));
  // Made long ago: its daily 08:00 has come round by now.
  ASSERT_EQ(Push(bo, "routine.create",
                 {{"id", kRoutine},
                  {"spaceId", space},
                  {"title", "Bo's brief"},
                  {"instruction", "list my tasks"},
                  {"schedule", {{"frequency", "daily"}, {"time", "08:00"}}}},
                 1)["status"],
            "applied");
  EXPECT_EQ(Text(std::string("SELECT author FROM routines WHERE id = '") + kRoutine + "'"),
            bo.account_id);
  json mine;
  for (int i = 0; i < kWaitRounds && mine.empty(); ++i) {
    mine = Conversations(bo, space);
    std::this_thread::sleep_for(kWaitStep);
  }
  ASSERT_EQ(mine.size(), 1u) << "the routine never ran as Bo";
  EXPECT_EQ(mine[0]["title"], "Bo's brief");
  EXPECT_TRUE(Conversations(ana, space).empty());

  // Bo leaves; the routine falls due again and pauses instead of running.
  ASSERT_EQ(
      Call(bo, bhttp::verb::delete_, "/api/spaces/" + space + "/members/" + bo.account_id).status,
      200);
  ASSERT_TRUE(store().Exec("UPDATE routine_runs SET last_run_at = 0").ok());
  const std::string paused_sql =
      std::string("SELECT COUNT(*) FROM routines WHERE paused = 1 AND id = '") + kRoutine + "'";
  for (int i = 0; i < kWaitRounds && QueryInt(store(), paused_sql) == 0; ++i) {
    std::this_thread::sleep_for(kWaitStep);
  }
  EXPECT_EQ(QueryInt(store(), paused_sql), 1);
  EXPECT_TRUE(Conversations(ana, space).empty());
  // Every member pulls the pause.
  HttpReply pulled = Call(ana, bhttp::verb::get, "/api/sync/pull?clientId=ana-fresh&cursor=0");
  bool seen = false;
  const json changes = pulled.json()["changes"];  // A copy: json() is a temporary.
  for (const json& c : changes) {
    if (c["kind"] == "routine" && c["row"]["id"] == kRoutine) seen = c["row"]["paused"] == 1;
  }
  EXPECT_TRUE(seen) << pulled.body();
  // Resumed by Ana, it is hers: it runs as her from now on.
  ASSERT_EQ(Push(ana, "routine.update", {{"id", kRoutine}, {"fields", {{"paused", 0}}}})["status"],
            "applied");
  EXPECT_EQ(Text(std::string("SELECT author FROM routines WHERE id = '") + kRoutine + "'"),
            ana.account_id);
}

INSTANTIATE_TEST_SUITE_P(Stores, Authors,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
