// The person's saved settings and what a turn does with them, end to end on
// both stores: GET and PATCH /api/settings, the write policy deciding where
// a held write waits (the chat, or Needs me: GET /api/assistant/approvals),
// the allowed write areas deciding which write tools a turn is offered, and
// the turn's token usage saved on its reply.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/accounts/account_settings.h"
#include "core/assistant/hub_tools.h"
#include "core/hub/hub_tools.h"
#include "core/sync/authorization.h"
#include "tests/server/accounts_fixture.h"
#include "tests/server/assistant/turn_client.h"
#include "tests/server/model/fake_model_process.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
namespace bhttp = boost::beast::http;
namespace codes = core::codes;

constexpr char kSettingsKey[] = "sk-settings-SECRETkey-0077";
constexpr char kSettingsSpace[] = "space-1";

json SettingsScenario() {
  return {
      {"requireKey", kSettingsKey},
      {"responses",
       json::array({
           {{"match", "hello there"},
            {"text", {"Hello", " there."}},
            {"usage", {{"prompt_tokens", 100}, {"completion_tokens", 5}, {"cached_tokens", 64}}}},
           {{"match", "add a task"},
            {"afterTool", false},
            {"toolCalls",
             {{{"id", "call_add"},
               {"name", "hub_create_tasks"},
               {"arguments", json{{"tasks", {{{"title", "Call Mira"}}}}}.dump()}}}}},
           {{"match", "add a task"}, {"afterTool", true}, {"text", "Proposed: Call Mira."}},
           {{"match", "look then wait"},
            {"afterTool", false},
            {"toolCalls", {{{"id", "call_list"}, {"name", "hub_list_tasks"}, {"arguments", "{}"}}}},
            {"usage", {{"prompt_tokens", 50}, {"completion_tokens", 3}, {"cached_tokens", 0}}}},
           {{"match", "look then wait"},
            {"afterTool", true},
            {"text", {"one ", "two ", "three ", "four ", "five ", "six"}},
            {"delayMs", 400}},
           {{"text", "Done."}},
       })}};
}

json AllAreas() {
  json out = json::array();
  for (std::string_view a : core::accounts::WriteAreas()) out.push_back(std::string(a));
  return out;
}

// What Settings offers: the areas the assistant can write in.
json OfferedAreas() {
  json out = json::array();
  for (std::string_view a : core::assistant::RunnableWriteAreas(core::hub::HubToolRegistry(),
                                                                core::accounts::WriteAreas())) {
    out.push_back(std::string(a));
  }
  return out;
}

// Local mode, the operator's model pointed at the fake.
class AssistantSettingsTest : public AccountsServerTest {
 protected:
  void SetUp() override {
    auto fake = FakeModelProcess::Start(SettingsScenario());
    ASSERT_TRUE(fake.ok()) << fake.status().ToString();
    fake_ = std::move(*fake);
    AccountsServerTest::SetUp();
  }
  void TearDown() override {
    AccountsServerTest::TearDown();
    if (fake_) fake_->Stop();
  }
  void Configure(server::Config& config) override {
    config.operator_model.provider = "openai";
    config.operator_model.base_url = fake_->base_url();
    config.operator_model.model = "fake-model";
    config.operator_model.api_key = kSettingsKey;
  }

  HttpReply GetSettings(const Headers& h = {}) {
    return Send(bhttp::verb::get, "/api/settings", "", h);
  }
  HttpReply Patch(const std::string& body, const Headers& h = {}) {
    return Send(bhttp::verb::patch, "/api/settings", body, h);
  }
  std::string NewConversation(const std::string& space = kSettingsSpace, const Headers& h = {}) {
    HttpReply r = PostJson("/api/assistant/conversations", {{"spaceId", space}}, h);
    EXPECT_EQ(r.status, 201) << r.body();
    return r.json().value("id", "");
  }
  std::vector<TurnFrame> Turn(const std::string& conversation, const std::string& text,
                              const std::string& cookie = "") {
    TurnClient client(app().port(), "/api/assistant/conversations/" + conversation + "/messages",
                      {{"text", text}}, cookie);
    EXPECT_EQ(client.Status(), 200) << client.body();
    return client.Rest();
  }
  json Approvals(const Headers& h = {}) {
    HttpReply r = Send(bhttp::verb::get, "/api/assistant/approvals", "", h);
    EXPECT_EQ(r.status, 200) << r.body();
    return r.json()["approvals"];
  }
  json Messages(const std::string& conversation) {
    HttpReply r =
        Send(bhttp::verb::get, "/api/assistant/conversations/" + conversation + "/messages");
    EXPECT_EQ(r.status, 200) << r.body();
    return r.json()["messages"];
  }
  int64_t TaskCount() {
    auto rows = store().Query("SELECT COUNT(*) FROM tasks WHERE deleted = 0");
    return rows.ok() ? core::store::AsInt(rows->rows[0][0]) : -1;
  }

  std::unique_ptr<FakeModelProcess> fake_;
};

TEST_P(AssistantSettingsTest, DefaultsAreFilledInAndAPatchIsMergedAndKept) {
  HttpReply got = GetSettings();
  ASSERT_EQ(got.status, 200) << got.body();
  EXPECT_EQ(
      got.json(),
      (json{{"assistant",
             {{"writePolicy", "immediate"}, {"allowedWriteAreas", AllAreas()}, {"effort", "none"}}},
            {"general", {{"timeZone", "UTC"}}},
            {"choices", {{"writeAreas", OfferedAreas()}}}}));

  HttpReply patched = Patch(R"({"assistant": {"writePolicy": "needs-me"}})");
  ASSERT_EQ(patched.status, 200) << patched.body();
  EXPECT_EQ(patched.json()["assistant"]["writePolicy"], "needs-me");
  EXPECT_EQ(patched.json()["assistant"]["allowedWriteAreas"], AllAreas());
  patched = Patch(R"({"assistant.allowedWriteAreas": ["pages", "tasks"]})");
  ASSERT_EQ(patched.status, 200) << patched.body();
  const json expected = {{"assistant",
                          {{"writePolicy", "needs-me"},
                           {"allowedWriteAreas", {"tasks", "pages"}},
                           {"effort", "none"}}},
                         {"general", {{"timeZone", "UTC"}}}};
  EXPECT_EQ(patched.json(), expected);
  // An area turned off is still offered, so it can be turned on again.
  json read = GetSettings().json();
  EXPECT_EQ(read["choices"]["writeAreas"], OfferedAreas());
  read.erase("choices");
  EXPECT_EQ(read, expected);
}

TEST_P(AssistantSettingsTest, AnUnknownKeyOrBadValueIsRefusedAndNothingChanges) {
  ASSERT_EQ(Patch(R"({"assistant": {"writePolicy": "preview"}})").status, 200);
  const json before = GetSettings().json();
  struct Case {
    std::string body;
    std::string names;
  };
  for (const Case& c : std::vector<Case>{
           {R"({"assistant": {"writePolicy": "needs-me", "colour": "blue"}})", "assistant.colour"},
           {R"({"assistant": {"writePolicy": "sometimes"}})", "assistant.writePolicy"},
           {R"({"assistant": {"allowedWriteAreas": ["tasks", "nowhere"]}})", "nowhere"},
           {R"({"assistant": {"allowedWriteAreas": "tasks"}})", "assistant.allowedWriteAreas"},
       }) {
    HttpReply r = Patch(c.body);
    EXPECT_EQ(r.status, 400) << c.body;
    EXPECT_EQ(r.error_code(), codes::kInvalidArgument) << c.body;
    EXPECT_THAT(r.body(), HasSubstr(c.names)) << c.body;
    EXPECT_EQ(GetSettings().json(), before) << c.body;
  }
  EXPECT_EQ(Patch("{not json").error_code(), codes::kMalformedJson);
  // The server's body limit applies.
  HttpReply big = Patch(R"({"assistant": {"writePolicy": ")" + std::string(9 << 20, 'x') + "\"}}");
  EXPECT_EQ(big.status, 413);
  EXPECT_EQ(GetSettings().json(), before);
}

TEST_P(AssistantSettingsTest, APreviewTurnHoldsTheWriteInTheChatNotOnNeedsMe) {
  ASSERT_EQ(Patch(R"({"assistant": {"writePolicy": "preview"}})").status, 200);
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames = Turn(conversation, "add a task to call Mira");
  const TurnFrame* proposal = FindFrame(frames, "proposal");
  ASSERT_NE(proposal, nullptr);
  EXPECT_EQ(proposal->data["name"], "hub_create_tasks");
  EXPECT_EQ(TaskCount(), 0);
  EXPECT_TRUE(Approvals().empty());
}

TEST_P(AssistantSettingsTest, ANeedsMeTurnWaitsOnNeedsMeUntilApplied) {
  ASSERT_EQ(Patch(R"({"assistant": {"writePolicy": "needs-me"}})").status, 200);
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames = Turn(conversation, "add a task to call Mira");
  const TurnFrame* proposal = FindFrame(frames, "proposal");
  ASSERT_NE(proposal, nullptr);
  EXPECT_EQ(TaskCount(), 0);

  json approvals = Approvals();
  ASSERT_EQ(approvals.size(), 1u) << approvals.dump();
  const json& waiting = approvals[0];
  EXPECT_EQ(waiting["conversationId"], conversation);
  EXPECT_EQ(waiting["messageId"], proposal->data["messageId"]);
  EXPECT_TRUE(waiting["createdAt"].is_number_integer());
  ASSERT_EQ(waiting["calls"].size(), 1u);
  EXPECT_EQ(waiting["calls"][0]["callId"], "call_add");
  EXPECT_EQ(waiting["calls"][0]["tool"], "hub_create_tasks");
  EXPECT_EQ(waiting["calls"][0]["summary"], proposal->data["preview"]);
  EXPECT_THAT(waiting["calls"][0]["summary"].get<std::string>(), HasSubstr("Call Mira"));

  HttpReply applied = PostJson("/api/assistant/apply", {{"conversationId", conversation},
                                                        {"messageId", waiting["messageId"]}});
  ASSERT_EQ(applied.status, 200) << applied.body();
  EXPECT_EQ(applied.json()["state"], "applied");
  EXPECT_EQ(TaskCount(), 1);
  EXPECT_TRUE(Approvals().empty());
}

TEST_P(AssistantSettingsTest, AWriteAreaTurnedOffIsNotOfferedToTheModel) {
  ASSERT_EQ(Patch(R"({"assistant": {"allowedWriteAreas": ["pages"]}})").status, 200);
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames = Turn(conversation, "add a task to call Mira");
  ASSERT_FALSE(frames.empty());
  EXPECT_EQ(TaskCount(), 0);
  json requests = fake_->Requests();
  ASSERT_GE(requests.size(), 1u);
  std::vector<std::string> offered;
  for (const json& t : requests[0]["body"].value("tools", json::array())) {
    offered.push_back(t["function"]["name"]);
  }
  EXPECT_THAT(offered, ::testing::Contains("hub_list_tasks"));
  EXPECT_THAT(offered, ::testing::Not(::testing::Contains("hub_create_tasks")));
  // The model called it anyway: refused as not offered, never run.
  bool refused = false;
  for (const TurnFrame& f : frames) {
    if (f.event == "tool" && f.data.value("phase", "") == "ended" &&
        f.data["name"] == "hub_create_tasks") {
      EXPECT_EQ(f.data["receipt"]["state"], "failed");
      refused = true;
    }
  }
  EXPECT_TRUE(refused);
}

TEST_P(AssistantSettingsTest, TheTurnsUsageIsSavedOnTheReply) {
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames = Turn(conversation, "hello there");
  ASSERT_EQ(frames.back().event, "done");
  json messages = Messages(conversation);
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_FALSE(messages[0].contains("usage"));
  EXPECT_EQ(messages[1]["usage"], frames.back().data["usage"]);
  EXPECT_EQ(messages[1]["usage"],
            (json{{"promptTokens", 100}, {"completionTokens", 5}, {"cachedTokens", 64}}));
}

TEST_P(AssistantSettingsTest, AStoppedTurnKeepsTheUsageKnownSoFar) {
  std::string conversation = NewConversation();
  TurnClient client(app().port(), "/api/assistant/conversations/" + conversation + "/messages",
                    {{"text", "look then wait"}});
  ASSERT_EQ(client.Status(), 200);
  std::optional<TurnFrame> turn = client.Next();
  ASSERT_TRUE(turn && turn->event == "turn");
  std::optional<TurnFrame> frame;
  while ((frame = client.Next()) && frame->event != "text") {
  }
  ASSERT_TRUE(frame);  // The second request's stream is open.
  HttpReply stop = PostJson(
      "/api/assistant/turns/" + turn->data["turnId"].get<std::string>() + "/stop", json::object());
  EXPECT_EQ(stop.status, 200) << stop.body();
  std::vector<TurnFrame> rest = client.Rest();
  ASSERT_FALSE(rest.empty());
  EXPECT_EQ(rest.back().event, "done");
  EXPECT_EQ(rest.back().data["status"], "stopped");
  json messages = Messages(conversation);
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[1]["status"], "stopped");
  EXPECT_EQ(messages[1]["usage"]["promptTokens"], 50);
  EXPECT_EQ(messages[1]["usage"]["completionTokens"], 3);
  EXPECT_EQ(messages[1]["usage"], rest.back().data["usage"]);
}

TEST_P(AssistantSettingsTest, AnEffortTheModelDoesNotTakeIsRefusedBeforeAnyCall) {
  ASSERT_EQ(Patch(R"({"assistant": {"effort": "high"}})").status, 200);
  std::vector<TurnFrame> frames = Turn(NewConversation(), "hello there");
  ASSERT_FALSE(frames.empty());
  EXPECT_EQ(frames.back().event, "error");
  EXPECT_EQ(frames.back().data["code"], "UNSUPPORTED_OPTION");
  EXPECT_THAT(frames.back().data["message"].get<std::string>(),
              ::testing::HasSubstr("fake-model takes no reasoning effort option"));
  EXPECT_TRUE(fake_->Requests().empty());  // Nothing was spent.
}

INSTANTIATE_TEST_SUITE_P(Stores, AssistantSettingsTest,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

// The operator's model is one that takes reasoning effort.
class AssistantEffortTest : public AssistantSettingsTest {
 protected:
  void Configure(server::Config& config) override {
    AssistantSettingsTest::Configure(config);
    config.operator_model.model = "o3-mini";
  }
};

TEST_P(AssistantEffortTest, TheSavedEffortIsSentAndNoneSendsNone) {
  ASSERT_EQ(Turn(NewConversation(), "hello there").back().event, "done");
  ASSERT_FALSE(fake_->Requests().empty());
  EXPECT_FALSE(fake_->Requests().back()["body"].contains("reasoning_effort"));

  ASSERT_EQ(Patch(R"({"assistant": {"effort": "medium"}})").status, 200);
  ASSERT_EQ(Turn(NewConversation(), "hello there").back().event, "done");
  json requests = fake_->Requests();
  EXPECT_EQ(requests.back()["body"]["reasoning_effort"], "medium");
  EXPECT_EQ(requests.back()["body"]["model"], "o3-mini");
}

INSTANTIATE_TEST_SUITE_P(Stores, AssistantEffortTest,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

// Local mode without any model: the local planner, under the same settings.
class AssistantSettingsWithoutModelTest : public AssistantSettingsTest {
 protected:
  void Configure(server::Config& config) override {}
};

TEST_P(AssistantSettingsWithoutModelTest, ThePlannerCannotWriteInAnAreaTurnedOff) {
  ASSERT_EQ(Patch(R"({"assistant": {"allowedWriteAreas": ["pages", "boards"]}})").status, 200);
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames = Turn(conversation, "add a task to call Mira tomorrow");
  ASSERT_FALSE(frames.empty());
  EXPECT_EQ(TaskCount(), 0);
  for (const TurnFrame& f : frames) {
    if (f.event == "tool" && f.data.value("phase", "") == "ended") {
      EXPECT_NE(f.data["receipt"]["state"], "succeeded") << f.data.dump();
    }
  }
  EXPECT_EQ(FindFrame(frames, "proposal"), nullptr);
  // With the area back on, the same request writes.
  ASSERT_EQ(Patch(R"({"assistant": {"allowedWriteAreas": null}})").status, 200);
  Turn(NewConversation(), "add a task to call Mira tomorrow");
  EXPECT_EQ(TaskCount(), 1);
}

TEST_P(AssistantSettingsWithoutModelTest, APlannerWriteUnderNeedsMeWaitsOnNeedsMe) {
  ASSERT_EQ(Patch(R"({"assistant": {"writePolicy": "needs-me"}})").status, 200);
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames = Turn(conversation, "add a task to call Mira");
  ASSERT_NE(FindFrame(frames, "proposal"), nullptr);
  json approvals = Approvals();
  ASSERT_EQ(approvals.size(), 1u);
  EXPECT_EQ(approvals[0]["conversationId"], conversation);
  EXPECT_EQ(approvals[0]["calls"][0]["tool"], "hub_create_tasks");
  EXPECT_EQ(TaskCount(), 0);
}

INSTANTIATE_TEST_SUITE_P(Stores, AssistantSettingsWithoutModelTest,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

// Accounts mode: settings and the Needs me list are each person's own.
class AssistantSettingsAccountsTest : public AssistantSettingsTest {
 protected:
  void Configure(server::Config& config) override {
    config.accounts = true;
    config.open_signup = true;
    // Each person's model is the fake one, on loopback.
    config.private_links = true;
  }
  struct Person {
    std::string cookie;
    std::string space_id;
    std::string account_id;
  };
  Person SignUp(const std::string& email) {
    HttpReply r = Signup(email, kPassword);
    EXPECT_EQ(r.status, 201) << r.body();
    Person p{SessionCookieOf(r), r.json()["spaces"][0]["id"], r.json()["account"]["id"]};
    HttpReply put = Send(bhttp::verb::put, "/api/settings/model",
                         json{{"provider", "openai"},
                              {"baseUrl", fake_->base_url()},
                              {"model", "fake-model"},
                              {"apiKey", kSettingsKey}}
                             .dump(),
                         WithCookie(p.cookie));
    EXPECT_EQ(put.status, 200) << put.body();
    return p;
  }
};

TEST_P(AssistantSettingsAccountsTest, AnotherAccountNeverSeesTheSettingsOrTheApprovals) {
  Person ada = SignUp("ada@example.com");
  Person bob = SignUp("bob@example.com");
  ASSERT_EQ(Patch(R"({"assistant": {"writePolicy": "needs-me"}})", WithCookie(ada.cookie)).status,
            200);
  EXPECT_EQ(GetSettings(WithCookie(bob.cookie)).json()["assistant"]["writePolicy"], "immediate");
  EXPECT_EQ(GetSettings().status, 401);
  EXPECT_EQ(Patch(R"({"assistant": {"writePolicy": "preview"}})").status, 401);

  std::string conversation = NewConversation(ada.space_id, WithCookie(ada.cookie));
  std::vector<TurnFrame> frames = Turn(conversation, "add a task to call Mira", ada.cookie);
  ASSERT_NE(FindFrame(frames, "proposal"), nullptr);
  EXPECT_EQ(Approvals(WithCookie(ada.cookie)).size(), 1u);
  EXPECT_TRUE(Approvals(WithCookie(bob.cookie)).empty());
  EXPECT_EQ(Send(bhttp::verb::get, "/api/assistant/approvals").status, 401);
  // Bob cannot apply it either.
  json waiting = Approvals(WithCookie(ada.cookie))[0];
  EXPECT_EQ(PostJson("/api/assistant/apply",
                     {{"conversationId", conversation}, {"messageId", waiting["messageId"]}},
                     WithCookie(bob.cookie))
                .error_code(),
            codes::kNotFound);
  EXPECT_EQ(Approvals(WithCookie(ada.cookie)).size(), 1u);
}

TEST_P(AssistantSettingsAccountsTest, AViewerOfASharedSpaceIsOfferedNoWriteTools) {
  Person ada = SignUp("ada@example.com");
  Person bob = SignUp("bob@example.com");
  ASSERT_TRUE(
      core::sync::SetMember(store(), ada.space_id, bob.account_id, core::sync::Role::kViewer).ok());
  std::string conversation = NewConversation(ada.space_id, WithCookie(bob.cookie));
  ASSERT_FALSE(conversation.empty());
  std::vector<TurnFrame> frames = Turn(conversation, "add a task to call Mira", bob.cookie);
  ASSERT_FALSE(frames.empty());
  EXPECT_EQ(TaskCount(), 0);
  json requests = fake_->Requests();
  ASSERT_GE(requests.size(), 1u);
  std::vector<std::string> offered;
  for (const json& t : requests.back()["body"].value("tools", json::array())) {
    offered.push_back(t["function"]["name"]);
  }
  EXPECT_THAT(offered, ::testing::Contains("hub_list_tasks"));
  EXPECT_THAT(offered, ::testing::Not(::testing::Contains("hub_create_tasks")));
}

INSTANTIATE_TEST_SUITE_P(Stores, AssistantSettingsAccountsTest,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
