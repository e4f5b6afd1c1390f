// Activity and Stop across two server processes on one PostgreSQL database
// (the real binary, twice): a turn running on one process is listed by the
// other, and a Stop or a Pause sent to the other ends it.

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/server/assistant/turn_client.h"
#include "tests/server/http_client.h"
#include "tests/server/model/fake_model_process.h"
#include "tests/server/scratch_store.h"
#include "tests/server/server_process.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;

constexpr char kTwoProcessKey[] = "sk-two-processes-0042";

json ActivityOn(uint16_t port) {
  HttpReply r = HttpClient(port).Get("/api/assistant/activity");
  EXPECT_EQ(r.status, 200) << r.body();
  return r.json()["turns"];
}

TEST(TwoProcessTurns, ATurnOnOneProcessIsListedStoppedAndPausedByTheOther) {
  ENSEMBLE_SKIP_IF_STORE_MISSING(StoreKind::kPostgres);
  // Eight pieces a second apart: far longer than the test waits. Twice:
  // one turn is stopped, the other paused.
  const json slow = {
      {"text", {"one ", "two ", "three ", "four ", "five ", "six ", "seven ", "eight"}},
      {"delayMs", 1000}};
  auto fake = FakeModelProcess::Start({{"responses", {slow, slow}}});
  ASSERT_TRUE(fake.ok()) << fake.status().ToString();
  auto store = ScratchStore::Create(StoreKind::kPostgres);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  std::map<std::string, std::string> env = (*store)->ProcessEnv();
  env.insert({{"ENSEMBLE_MODEL_PROVIDER", "openai"},
              {"ENSEMBLE_MODEL_BASE_URL", (*fake)->base_url()},
              {"ENSEMBLE_MODEL", "fake-model"},
              {"ENSEMBLE_MODEL_API_KEY", kTwoProcessKey}});
  auto one = ServerProcess::Start(env);
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  auto two = ServerProcess::Start(env);
  ASSERT_TRUE(two.ok()) << two.status().ToString();
  ASSERT_TRUE((*one)->WaitUntilListening());
  ASSERT_TRUE((*two)->WaitUntilListening());

  HttpReply made =
      HttpClient((*one)->port()).PostJson("/api/assistant/conversations", {{"spaceId", "space-1"}});
  ASSERT_EQ(made.status, 201) << made.body();
  const std::string conversation = made.json()["id"];
  TurnClient turn((*one)->port(), "/api/assistant/conversations/" + conversation + "/messages",
                  {{"text", "tell me slowly"}});
  ASSERT_EQ(turn.Status(), 200) << turn.body();
  auto first = turn.Next();
  ASSERT_TRUE(first && first->event == "turn");
  const std::string turn_id = first->data["turnId"];
  for (auto frame = turn.Next(); frame && frame->event != "text"; frame = turn.Next()) {
  }

  json listed = ActivityOn((*two)->port());
  ASSERT_EQ(listed.size(), 1u) << listed;
  EXPECT_EQ(listed[0]["id"], turn_id);
  EXPECT_EQ(listed[0]["conversationId"], conversation);
  EXPECT_EQ(listed[0]["state"], "working");

  const auto asked = std::chrono::steady_clock::now();
  HttpReply stopped =
      HttpClient((*two)->port()).PostJson("/api/assistant/turns/" + turn_id + "/stop", json{});
  ASSERT_EQ(stopped.status, 200) << stopped.body();
  std::vector<TurnFrame> rest = turn.Rest(std::chrono::seconds(10));
  ASSERT_FALSE(rest.empty());
  EXPECT_EQ(rest.back().event, "done");
  EXPECT_EQ(rest.back().data["status"], "stopped");
  // Stopped, not finished: the whole answer would take eight seconds.
  EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(4));

  EXPECT_TRUE(ActivityOn((*two)->port()).empty());
  EXPECT_TRUE(ActivityOn((*one)->port()).empty());
  // Over: a second Stop finds nothing, on either process.
  EXPECT_EQ(HttpClient((*two)->port())
                .PostJson("/api/assistant/turns/" + turn_id + "/stop", json{})
                .status,
            404);
  EXPECT_EQ(HttpClient((*one)->port())
                .PostJson("/api/assistant/turns/" + turn_id + "/stop", json{})
                .status,
            404);

  // Pause, too, reaches the turn wherever it runs, and holds both processes.
  TurnClient again((*one)->port(), "/api/assistant/conversations/" + conversation + "/messages",
                   {{"text", "tell me slowly again"}});
  ASSERT_EQ(again.Status(), 200) << again.body();
  for (auto frame = again.Next(); frame && frame->event != "text"; frame = again.Next()) {
  }
  HttpReply paused = HttpClient((*two)->port()).PostJson("/api/assistant/pause", json{});
  ASSERT_EQ(paused.status, 200) << paused.body();
  std::vector<TurnFrame> ended = again.Rest(std::chrono::seconds(10));
  ASSERT_FALSE(ended.empty());
  EXPECT_EQ(ended.back().data["status"], "stopped");
  TurnClient refused((*one)->port(), "/api/assistant/conversations/" + conversation + "/messages",
                     {{"text", "and once more"}});
  EXPECT_EQ(refused.Status(), 409) << refused.body();
  EXPECT_EQ(HttpClient((*one)->port()).Get("/api/assistant/activity").json()["paused"], true);
  ASSERT_EQ(HttpClient((*one)->port()).PostJson("/api/assistant/resume", json{}).status, 200);
  EXPECT_EQ(HttpClient((*two)->port()).Get("/api/assistant/activity").json()["paused"], false);
  (*two)->Stop();
  (*one)->Stop();
}

}  // namespace
}  // namespace ensemble::testing
