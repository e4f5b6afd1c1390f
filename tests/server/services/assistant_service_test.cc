// The assistant's conversations and streamed turns end to end, on both
// stores, with the fake model server on loopback: refs before text, text
// deltas, tool rows, proposals under the preview policy, the timeout's
// message, Stop and the activity endpoint, the nudge, another account's
// conversation, the local planner without a model, and a key that never
// shows in a response or a log line.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "core/assistant/local_planner.h"
#include "core/model/model_timeout.h"
#include "core/sync/authorization.h"
#include "server/config.h"
#include "server/http/router.h"
#include "tests/core/connections/calendar_feed.h"
#include "tests/server/accounts_fixture.h"
#include "tests/server/assistant/turn_client.h"
#include "tests/server/connectors/feed_server.h"
#include "tests/server/model/fake_model_process.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::StartsWith;
namespace bhttp = boost::beast::http;
namespace codes = core::codes;

constexpr char kKey[] = "sk-assist-SECRETkey-0042-ZQXW";
constexpr char kSpace[] = "space-1";
constexpr auto kTimeout = std::chrono::milliseconds(2000);
constexpr char kConnection[] = "conn-calendar";

// One scenario for every test (each test starts its own fake): a message
// picks its responses by a phrase; the nudge test uses the unmatched ones.
json Scenario() {
  return {
      {"requireKey", kKey},
      {"responses",
       json::array({
           // The answer check (verify hook) sees the checklist and the answer.
           {{"match", "/^Answer checklist[\\s\\S]*Draft recap/"}, {"text", "- the due dates"}},
           {{"match", "/^Answer checklist[\\s\\S]*due Friday/"}, {"text", "COMPLETE"}},
           {{"match", "/^Answer checklist[\\s\\S]*Board summary/"}, {"text", "- the owners"}},
           {{"match", "/^Answer checklist[\\s\\S]*Check breaks/"}, {"status", 500}},
           {{"match", "recap my week"}, {"text", "Draft recap: two tasks."}},
           {{"match", "/does not yet cover:\n- the due dates/"},
            {"text", "Recap: two tasks, due Friday."}},
           {{"match", "summarize the board"}, {"text", "Board summary v1."}},
           {{"match", "/does not yet cover:\n- the owners/"}, {"text", "Board summary, owners."}},
           {{"match", "check breaks please"}, {"text", "Check breaks: fine."}},
           {{"match", "hello there"},
            {"text", {"Hello", " from", " the fake."}},
            {"usage", {{"prompt_tokens", 100}, {"completion_tokens", 5}, {"cached_tokens", 64}}}},
           {{"match", "list my tasks"},
            {"afterTool", false},
            {"toolCalls",
             {{{"id", "call_list"}, {"name", "hub_list_tasks"}, {"arguments", "{}"}}}}},
           {{"match", "list my tasks"}, {"afterTool", true}, {"text", "You have no tasks."}},
           {{"match", "add a task"},
            {"afterTool", false},
            {"toolCalls",
             {{{"id", "call_add"},
               {"name", "hub_create_tasks"},
               {"arguments", json{{"tasks", {{{"title", "Call Mira"}}}}}.dump()}}}}},
           {{"match", "add a task"}, {"afterTool", true}, {"text", "Proposed: Call Mira."}},
           {{"match", "bring in my calendar people"},
            {"afterTool", false},
            {"toolCalls",
             {{{"id", "call_import"},
               {"name", "hub_import_people"},
               {"arguments", json{{"connectionId", kConnection}}.dump()}}}}},
           {{"match", "bring in my calendar people"},
            {"afterTool", true},
            {"text", "Proposed: two people."}},
           // A hostile model: 200,000 nested brackets, well formed.
           {{"match", "nest deeply"},
            {"afterTool", false},
            {"toolCalls",
             {{{"id", "call_deep"},
               {"name", "hub_list_tasks"},
               {"arguments",
                "{\"a\":" + std::string(200000, '[') + std::string(200000, ']') + "}"}}}}},
           {{"match", "nest deeply"}, {"afterTool", true}, {"text", "That call did not parse."}},
           {{"match", "slow answer"},
            {"text", {"one ", "two ", "three ", "four ", "five ", "six ", "seven ", "eight"}},
            {"delayMs", 400}},
           {{"match", "partial then silence"},
            {"text", {"Partial ", "answer"}},
            {"delayMs", 20000},
            {"heartbeatMs", 200}},
           {{"text", "Let me check your tasks."}},
           {{"text", "You have two tasks due today."}},
       })}};
}

std::vector<std::string> Events(const std::vector<TurnFrame>& frames) {
  std::vector<std::string> out;
  for (const TurnFrame& f : frames) out.push_back(f.event);
  return out;
}

std::string Streamed(const std::vector<TurnFrame>& frames) {
  std::string text;
  for (const TurnFrame& f : frames) {
    if (f.event == "text") text += f.data["text"].get<std::string>();
  }
  return text;
}

TEST(AssistantConfig, TheModelCallTimeoutIsReadClampedAndCheckedAtStartup) {
  auto with = [](const char* value) {
    return server::ConfigFromEnv([value](const char* name) -> const char* {
      return std::string(name) == "ENSEMBLE_MODEL_CALL_TIMEOUT_MS" ? value : nullptr;
    });
  };
  EXPECT_EQ(with(nullptr)->model_call_timeout, std::chrono::minutes(15));
  EXPECT_EQ(with("120000")->model_call_timeout, std::chrono::minutes(2));
  EXPECT_EQ(with("1000")->model_call_timeout, std::chrono::seconds(30));
  EXPECT_EQ(with("99999999")->model_call_timeout, std::chrono::minutes(30));
  auto bad = with("15m");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), codes::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("ENSEMBLE_MODEL_CALL_TIMEOUT_MS"));
}

// Local mode, with the operator's model pointed at the fake.
class AssistantTest : public AccountsServerTest {
 protected:
  void SetUp() override {
    auto fake = FakeModelProcess::Start(Scenario());
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
    config.operator_model.api_key = kKey;
    config.model_call_timeout = kTimeout;  // A caller's limit, shorter than the 30 s floor.
    config.private_links = true;           // The calendar test's feed is on loopback.
  }

  std::string NewConversation(const Headers& h = {}) {
    HttpReply r = PostJson("/api/assistant/conversations", {{"spaceId", kSpace}}, h);
    EXPECT_EQ(r.status, 201) << r.body();
    return r.json().value("id", "");
  }
  std::unique_ptr<TurnClient> Post(const std::string& conversation, const json& body,
                                   const std::string& cookie = "") {
    return std::make_unique<TurnClient>(
        app().port(), "/api/assistant/conversations/" + conversation + "/messages", body, cookie);
  }
  std::vector<TurnFrame> Turn(const std::string& conversation, const json& body) {
    auto client = Post(conversation, body);
    EXPECT_EQ(client->Status(), 200) << client->body();
    std::vector<TurnFrame> frames = client->Rest();
    EXPECT_THAT(client->raw(), ::testing::Not(HasSubstr(kKey)));
    return frames;
  }
  json Messages(const std::string& conversation, const Headers& h = {}) {
    HttpReply r =
        Send(bhttp::verb::get, "/api/assistant/conversations/" + conversation + "/messages", "", h);
    EXPECT_EQ(r.status, 200) << r.body();
    EXPECT_THAT(r.body(), ::testing::Not(HasSubstr(kKey)));
    return r.json()["messages"];
  }
  // Saves the caller's settings (PATCH /api/settings) before a turn.
  void SaveSettings(const json& patch, const Headers& h = {}) {
    HttpReply r = Send(bhttp::verb::patch, "/api/settings", patch.dump(), h);
    ASSERT_EQ(r.status, 200) << r.body();
  }
  // Starts the fake's slow answer and reads until its first text, so the
  // model stream is open; `turn_id` gets the turn's id (empty on failure).
  std::unique_ptr<TurnClient> StartSlowTurn(const std::string& conversation, std::string& turn_id) {
    auto client = Post(conversation, {{"text", "slow answer"}});
    EXPECT_EQ(client->Status(), 200);
    auto turn = client->Next();
    if (!turn || turn->event != "turn") return client;
    std::optional<TurnFrame> frame;
    while ((frame = client->Next()) && frame->event != "text") {
    }
    if (frame) turn_id = turn->data["turnId"];
    return client;
  }
  json Activity() {
    HttpReply r = Send(bhttp::verb::get, "/api/assistant/activity");
    EXPECT_EQ(r.status, 200) << r.body();
    return r.json()["turns"];
  }

  std::unique_ptr<FakeModelProcess> fake_;
};

TEST_P(AssistantTest, ConversationsAreCreatedListedAndDeleted) {
  std::string a = NewConversation();
  std::string b = NewConversation();
  HttpReply list =
      Send(bhttp::verb::get, std::string("/api/assistant/conversations?spaceId=") + kSpace);
  ASSERT_EQ(list.status, 200) << list.body();
  EXPECT_EQ(list.json()["conversations"].size(), 2u);
  // A chat is no routine's.
  EXPECT_FALSE(list.json()["conversations"][0].contains("routineId")) << list.body();
  EXPECT_EQ(Send(bhttp::verb::delete_, "/api/assistant/conversations/" + a).status, 200);
  EXPECT_EQ(Send(bhttp::verb::delete_, "/api/assistant/conversations/" + a).error_code(),
            codes::kNotFound);
  list = Send(bhttp::verb::get, std::string("/api/assistant/conversations?spaceId=") + kSpace);
  ASSERT_EQ(list.json()["conversations"].size(), 1u);
  EXPECT_EQ(list.json()["conversations"][0]["id"], b);
  for (const json& bad : {json::object(), json{{"spaceId", ""}}, json{{"spaceId", 7}},
                          json{{"spaceId", kSpace}, {"title", 7}},
                          json{{"spaceId", kSpace}, {"routineId", "r"}}, json::array()}) {
    EXPECT_EQ(PostJson("/api/assistant/conversations", bad).error_code(), codes::kInvalidArgument)
        << bad.dump();
  }
  // No title, a null or an empty one: the default.
  HttpReply untitled =
      PostJson("/api/assistant/conversations", {{"spaceId", kSpace}, {"title", nullptr}});
  ASSERT_EQ(untitled.status, 201) << untitled.body();
  EXPECT_EQ(untitled.json()["title"], "New chat");
  list = Send(bhttp::verb::get, std::string("/api/assistant/conversations?spaceId=") + kSpace);
  EXPECT_EQ(list.json()["conversations"].size(), 2u);
}

TEST_P(AssistantTest, AnAnswerStreamsRefsThenTextThenDoneAndBothMessagesAreSaved) {
  std::string conversation = NewConversation();
  json mentions = {{{"kind", "person"}, {"id", "01J00000000000000000000000"}, {"label", "Mira"}}};
  std::vector<TurnFrame> frames =
      Turn(conversation, {{"text", "hello there"}, {"mentions", mentions}});
  std::vector<std::string> events = Events(frames);
  ASSERT_GE(events.size(), 4u);
  EXPECT_EQ(events.front(), "turn");
  EXPECT_EQ(events[1], "refs");
  EXPECT_EQ(frames[1].data["refs"], mentions);
  EXPECT_EQ(events.back(), "done");
  // Several deltas, each a frame of its own, all after refs.
  EXPECT_GE(std::count(events.begin(), events.end(), "text"), 2);
  EXPECT_EQ(Streamed(frames), "Hello from the fake.");
  const json& done = frames.back().data;
  EXPECT_EQ(done["status"], "ok");
  EXPECT_EQ(done["text"], "Hello from the fake.");
  EXPECT_EQ(done["usage"]["promptTokens"], 100);
  EXPECT_EQ(done["usage"]["cachedTokens"], 64);
  EXPECT_EQ(done["messageId"], frames[0].data["messageId"]);

  json messages = Messages(conversation);
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0]["role"], "user");
  EXPECT_EQ(messages[0]["text"], "hello there");
  EXPECT_EQ(messages[0]["mentions"], mentions);
  EXPECT_EQ(messages[1]["role"], "assistant");
  EXPECT_EQ(messages[1]["text"], "Hello from the fake.");
  EXPECT_EQ(messages[1]["status"], "ok");
  EXPECT_EQ(messages[1]["id"], done["messageId"]);
  // The key went to the provider, and nowhere else.
  json requests = fake_->Requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_FALSE(logger().Contains(kKey));
}

TEST_P(AssistantTest, HistoryCarriesEarlierMessagesToTheModel) {
  std::string conversation = NewConversation();
  Turn(conversation, {{"text", "hello there"}});
  Turn(conversation, {{"text", "hello there again"}});
  json requests = fake_->Requests();
  ASSERT_EQ(requests.size(), 2u);
  const json& sent = requests[1]["body"]["messages"];
  // System, the earlier question and answer, then this message.
  ASSERT_EQ(sent.size(), 4u);
  EXPECT_EQ(sent[1]["content"], "hello there");
  EXPECT_EQ(sent[2]["content"], "Hello from the fake.");
}

json OfflineUpload(const std::string& id, const std::string& message, const std::string& reply) {
  return {{"exchanges",
           {{{"id", id},
             {"message", message},
             {"reply", reply},
             {"at", 1000},
             {"calls",
              {{{"id", "local_1_0"},
                {"name", "hub_list_tasks"},
                {"state", "succeeded"},
                {"summary", "Listed 0 tasks"}}}}}}}};
}

TEST_P(AssistantTest, OfflineExchangesAreSavedOnceAndTheModelSeesThem) {
  std::string conversation = NewConversation();
  const std::string path = "/api/assistant/conversations/" + conversation + "/exchanges";
  const json upload = OfflineUpload("01JB0000000000000000000001", "what are my tasks", "No tasks.");
  HttpReply saved = PostJson(path, upload);
  ASSERT_EQ(saved.status, 200) << saved.body();
  EXPECT_EQ(saved.json()["saved"], 1);
  // Retried after a lost answer: nothing new.
  saved = PostJson(path, upload);
  ASSERT_EQ(saved.status, 200) << saved.body();
  EXPECT_EQ(saved.json()["saved"], 0);
  json messages = Messages(conversation);
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0]["role"], "user");
  EXPECT_EQ(messages[0]["text"], "what are my tasks");
  EXPECT_EQ(messages[1]["text"], "No tasks.");
  EXPECT_EQ(messages[1]["toolCalls"][0]["receipt"]["summary"], "Listed 0 tasks");

  // A bad upload is refused whole.
  json bad = OfflineUpload("01JB0000000000000000000002", "add a task", "Added.");
  bad["exchanges"].push_back({{"id", "nope"}, {"message", "x"}, {"reply", "y"}, {"at", 1}});
  HttpReply refused = PostJson(path, bad);
  EXPECT_EQ(refused.error_code(), codes::kInvalidArgument);
  EXPECT_THAT(refused.body(), HasSubstr("exchanges[1].id"));
  EXPECT_EQ(PostJson("/api/assistant/conversations/01J00000000000000000000000/exchanges", upload)
                .error_code(),
            codes::kNotFound);
  EXPECT_EQ(Messages(conversation).size(), 2u);

  Turn(conversation, {{"text", "hello there"}});
  json requests = fake_->Requests();
  ASSERT_EQ(requests.size(), 1u);
  const json& sent = requests[0]["body"]["messages"];
  ASSERT_EQ(sent.size(), 4u);
  EXPECT_EQ(sent[1]["content"], "what are my tasks");
  EXPECT_EQ(sent[2]["content"], "No tasks.");
}

TEST_P(AssistantTest, AToolCallProducesToolRows) {
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames = Turn(conversation, {{"text", "list my tasks"}});
  std::vector<std::string> phases;
  for (const TurnFrame& f : frames) {
    if (f.event == "tool") {
      EXPECT_EQ(f.data["callId"], "call_list");
      EXPECT_EQ(f.data["name"], "hub_list_tasks");
      phases.push_back(f.data["phase"]);
    }
  }
  EXPECT_THAT(phases, ::testing::ElementsAre("started", "status", "ended"));
  const TurnFrame* ended = nullptr;
  for (const TurnFrame& f : frames) {
    if (f.event == "tool" && f.data["phase"] == "ended") ended = &f;
  }
  ASSERT_NE(ended, nullptr);
  EXPECT_TRUE(ended->data["receipt"].contains("state"));
  ASSERT_EQ(frames.back().event, "done");
  EXPECT_EQ(frames.back().data["text"], "You have no tasks.");
  // The tool's outcome went back to the model as a tool message.
  json requests = fake_->Requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[1]["body"]["messages"].back()["role"], "tool");
  json messages = Messages(conversation);
  ASSERT_EQ(messages.size(), 2u);
  ASSERT_EQ(messages[1]["toolCalls"].size(), 1u);
  EXPECT_EQ(messages[1]["toolCalls"][0]["name"], "hub_list_tasks");
}

TEST_P(AssistantTest, DeeplyNestedToolArgumentsAreAToolErrorAndTheServerStaysUp) {
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames = Turn(conversation, {{"text", "nest deeply"}});
  ASSERT_FALSE(frames.empty());
  EXPECT_EQ(frames.back().event, "done");
  // The refusal went back to the model as the call's outcome, readably.
  json requests = fake_->Requests();
  ASSERT_EQ(requests.size(), 2u);
  const json& outcome = requests[1]["body"]["messages"].back();
  EXPECT_EQ(outcome["role"], "tool");
  EXPECT_THAT(outcome.dump(), HasSubstr("nests deeper than 64 levels"));
  EXPECT_EQ(Send(bhttp::verb::get, "/healthz").status, 200);
  EXPECT_EQ(Messages(conversation).size(), 2u);
}

TEST_P(AssistantTest, AHeldWriteUnderPreviewIsAProposal) {
  std::string conversation = NewConversation();
  SaveSettings({{"assistant", {{"writePolicy", "preview"}}}});
  std::vector<TurnFrame> frames = Turn(conversation, {{"text", "add a task to call Mira"}});
  const TurnFrame* proposal = FindFrame(frames, "proposal");
  ASSERT_NE(proposal, nullptr) << json(Events(frames)).dump();
  EXPECT_EQ(proposal->data["name"], "hub_create_tasks");
  EXPECT_EQ(proposal->data["callId"], "call_add");
  EXPECT_EQ(proposal->data["input"]["tasks"][0]["title"], "Call Mira");
  EXPECT_THAT(proposal->data["preview"].get<std::string>(), HasSubstr("Call Mira"));
  ASSERT_EQ(frames.back().event, "done");
  // The model was told it is proposed, not done.
  json requests = fake_->Requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_THAT(requests[1]["body"]["messages"].back()["content"].get<std::string>(),
              HasSubstr("proposed"));
  json messages = Messages(conversation);
  ASSERT_EQ(messages[1]["toolCalls"].size(), 1u);
  EXPECT_EQ(messages[1]["toolCalls"][0]["proposal"], true);
  EXPECT_EQ(messages[1]["toolCalls"][0]["receipt"]["state"], "proposed");
}

// The calendar is read off the store's worker while the turn waits (the
// reader's first answer is "not read yet"), then the preview is prepared
// from what it read.
TEST_P(AssistantTest, AProposedImportReadsTheCalendarLinkOnce) {
  FeedServer feed;
  feed.Set("/secret/work.ics", {200, calendar_feed_test::Feed({{"20251125T100000Z",
                                                                "lead@example.com",
                                                                {{"mira@example.com", "Mira"},
                                                                 {"cy@example.com", "Cy"}}}})});
  HttpReply added = PostJson("/api/connections", {{"spaceId", kSpace},
                                                  {"app", "calendar-link"},
                                                  {"name", "Work calendar"},
                                                  {"url", feed.Url("/secret/work.ics")}});
  ASSERT_EQ(added.status, 201) << added.body();
  // The scenario names the connection before it exists.
  ASSERT_TRUE(store()
                  .Exec("UPDATE connections SET id = '" + std::string(kConnection) +
                        "' WHERE id = '" + added.json()["connection"]["id"].get<std::string>() +
                        "'")
                  .ok());
  SaveSettings({{"assistant", {{"writePolicy", "preview"}}}});
  std::vector<TurnFrame> frames =
      Turn(NewConversation(), {{"text", "bring in my calendar people"}});
  const TurnFrame* proposal = FindFrame(frames, "proposal");
  ASSERT_NE(proposal, nullptr) << json(Events(frames)).dump();
  EXPECT_EQ(proposal->data["name"], "hub_import_people");
  EXPECT_EQ(proposal->data["input"]["emails"],
            json({"cy@example.com", "mira@example.com", "lead@example.com"}))
      << proposal->data.dump();
  EXPECT_EQ(feed.requests(), 1);
  EXPECT_EQ(QueryInt(store(), "SELECT COUNT(*) FROM people"), 0);  // Proposed, not added.
}

TEST_P(AssistantTest, AModelPastItsLimitEndsWithTheSpecsMessageAndKeepsTheText) {
  std::string conversation = NewConversation();
  auto started = std::chrono::steady_clock::now();
  std::vector<TurnFrame> frames = Turn(conversation, {{"text", "partial then silence"}});
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(15));
  ASSERT_FALSE(frames.empty());
  EXPECT_EQ(Streamed(frames), "Partial ");
  ASSERT_EQ(frames.back().event, "error");
  const std::string message = core::model::ModelTimeoutMessage("fake-model", kTimeout);
  EXPECT_EQ(message,
            "fake-model did not answer within 2 seconds, so I stopped waiting. Ask again, or try "
            "a narrower question.");
  EXPECT_EQ(frames.back().data["code"], codes::kModelTimeout);
  EXPECT_EQ(frames.back().data["message"], message);
  json messages = Messages(conversation);
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[1]["status"], "error");
  EXPECT_EQ(messages[1]["errorCode"], codes::kModelTimeout);
  EXPECT_EQ(messages[1]["text"], "Partial \n\n" + message);
}

TEST_P(AssistantTest, StopEndsTheTurnAsStoppedAndActivityShowsItThenNot) {
  std::string conversation = NewConversation();
  std::string turn_id;
  auto client = StartSlowTurn(conversation, turn_id);
  ASSERT_FALSE(turn_id.empty());
  json running = Activity();
  ASSERT_EQ(running.size(), 1u);
  EXPECT_EQ(running[0]["id"], turn_id);
  EXPECT_EQ(running[0]["state"], "working");
  EXPECT_EQ(running[0]["conversationId"], conversation);

  HttpReply stop = PostJson("/api/assistant/turns/" + turn_id + "/stop", json::object());
  EXPECT_EQ(stop.status, 200) << stop.body();
  std::vector<TurnFrame> rest = client->Rest();
  ASSERT_FALSE(rest.empty());
  EXPECT_EQ(rest.back().event, "done");
  EXPECT_EQ(rest.back().data["status"], "stopped");
  EXPECT_TRUE(Activity().empty());
  EXPECT_EQ(PostJson("/api/assistant/turns/" + turn_id + "/stop", json::object()).error_code(),
            codes::kNotFound);
  json messages = Messages(conversation);
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[1]["status"], "stopped");
  EXPECT_THAT(messages[1]["text"].get<std::string>(), StartsWith("one "));
  EXPECT_NE(messages[1]["text"], "one two three four five six seven eight");
}

TEST_P(AssistantTest, PauseStopsTheRunningTurnAndRefusesNewOnesUntilResume) {
  std::string conversation = NewConversation();
  std::string turn_id;
  auto client = StartSlowTurn(conversation, turn_id);
  ASSERT_FALSE(turn_id.empty());

  HttpReply paused = PostJson("/api/assistant/pause", json::object());
  ASSERT_EQ(paused.status, 200) << paused.body();
  EXPECT_EQ(paused.json()["stopped"], json::array({turn_id}));
  std::vector<TurnFrame> rest = client->Rest();
  ASSERT_FALSE(rest.empty());
  EXPECT_EQ(rest.back().event, "done");
  EXPECT_EQ(rest.back().data["status"], "stopped");
  HttpReply activity = Send(bhttp::verb::get, "/api/assistant/activity");
  EXPECT_EQ(activity.json()["paused"], true);
  EXPECT_TRUE(activity.json()["pausedAt"].is_number());
  EXPECT_TRUE(activity.json()["turns"].empty());

  // Nothing starts while paused: no model call, nothing saved.
  const size_t calls = fake_->Requests().size();
  auto refused = Post(conversation, {{"text", "hello there"}});
  EXPECT_EQ(refused->Status(), 409);
  EXPECT_THAT(refused->body(), HasSubstr(codes::kAssistantPaused));
  EXPECT_EQ(fake_->Requests().size(), calls);
  EXPECT_EQ(Messages(conversation).size(), 2u);

  HttpReply resumed = PostJson("/api/assistant/resume", json::object());
  ASSERT_EQ(resumed.status, 200) << resumed.body();
  EXPECT_EQ(Send(bhttp::verb::get, "/api/assistant/activity").json()["paused"], false);
  std::vector<TurnFrame> frames = Turn(conversation, {{"text", "hello there"}});
  EXPECT_EQ(frames.back().event, "done");
  EXPECT_EQ(frames.back().data["status"], "ok");
}

TEST_P(AssistantTest, APromisedLookupGoesBackOnceWithANudge) {
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames = Turn(conversation, {{"text", "what is due for me"}});
  ASSERT_EQ(frames.back().event, "done");
  EXPECT_EQ(frames.back().data["text"], "You have two tasks due today.");
  json requests = fake_->Requests();
  ASSERT_EQ(requests.size(), 2u);
  const json& second = requests[1]["body"]["messages"];
  EXPECT_EQ(second[second.size() - 2]["content"], "Let me check your tasks.");
  EXPECT_EQ(second.back()["role"], "user");
  json messages = Messages(conversation);
  EXPECT_EQ(messages[1]["text"], "You have two tasks due today.");
}

TEST_P(AssistantTest, TheVerifyHookSendsWhatIsMissingBackToTheModel) {
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames =
      Turn(conversation, {{"text", "recap my week"},
                          {"verify", {{"checklist", {"the due dates", "the task count"}}}}});
  ASSERT_EQ(frames.back().event, "done") << frames.back().data;
  EXPECT_EQ(frames.back().data["text"], "Recap: two tasks, due Friday.");
  json requests = fake_->Requests();
  ASSERT_EQ(requests.size(), 4u);  // Answer, check, answer again, check.
  const json& check = requests[1]["body"];
  EXPECT_FALSE(check.contains("tools"));
  EXPECT_EQ(check.value("stream", true), false);
  EXPECT_THAT(check["messages"][1]["content"].get<std::string>(),
              HasSubstr("- the due dates\n- the task count\n"));
  const json& again = requests[2]["body"]["messages"];
  EXPECT_EQ(again[again.size() - 2]["content"], "Draft recap: two tasks.");
  EXPECT_THAT(again.back()["content"].get<std::string>(), HasSubstr("- the due dates"));
  EXPECT_EQ(Messages(conversation)[1]["text"], "Recap: two tasks, due Friday.");
}

TEST_P(AssistantTest, TheVerifyHookGetsAtMostTwoRounds) {
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames = Turn(
      conversation, {{"text", "summarize the board"}, {"verify", {{"checklist", {"the owners"}}}}});
  ASSERT_EQ(frames.back().event, "done") << frames.back().data;
  EXPECT_EQ(frames.back().data["text"], "Board summary, owners.");
  // Answer, check, answer, check, answer: the third answer is not checked.
  EXPECT_EQ(fake_->Requests().size(), 5u);
}

TEST_P(AssistantTest, AFailedCheckLetsTheAnswerStand) {
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames = Turn(
      conversation, {{"text", "check breaks please"}, {"verify", {{"checklist", {"anything"}}}}});
  ASSERT_EQ(frames.back().event, "done") << frames.back().data;
  EXPECT_EQ(frames.back().data["status"], "ok");
  EXPECT_EQ(frames.back().data["text"], "Check breaks: fine.");
  EXPECT_EQ(fake_->Requests().size(), 2u);
}

TEST_P(AssistantTest, BadInputIsRefusedBeforeAnyFrame) {
  std::string conversation = NewConversation();
  auto empty = Post(conversation, {{"text", "  "}});
  EXPECT_EQ(empty->Status(), 400);
  EXPECT_THAT(empty->body(), HasSubstr(codes::kInvalidArgument));
  auto unknown = Post("01J00000000000000000000000", {{"text", "hello there"}});
  EXPECT_EQ(unknown->Status(), 404);
  // The write policy is a saved setting, not a field of a message.
  auto policy = Post(conversation, {{"text", "hi"}, {"writePolicy", "preview"}});
  EXPECT_EQ(policy->Status(), 400);
  EXPECT_THAT(policy->body(), HasSubstr("writePolicy"));
  auto verify = Post(conversation, {{"text", "hi"}, {"verify", {{"checklist", json::array()}}}});
  EXPECT_EQ(verify->Status(), 400);
  EXPECT_THAT(verify->body(), HasSubstr("verify must be"));
  EXPECT_TRUE(fake_->Requests().empty());
}

INSTANTIATE_TEST_SUITE_P(Stores, AssistantTest,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

// Local mode without any model: the local planner answers.
class AssistantWithoutModelTest : public AssistantTest {
 protected:
  void Configure(server::Config& config) override {}
};

TEST_P(AssistantWithoutModelTest, TheLocalPlannerAnswersAndSaysWhatNeedsAModel) {
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames = Turn(conversation, {{"text", "write me a poem about autumn"}});
  ASSERT_EQ(frames.back().event, "done");
  std::string text = frames.back().data["text"];
  EXPECT_THAT(text, HasSubstr("Settings"));
  EXPECT_EQ(Streamed(frames), text);
  EXPECT_TRUE(fake_->Requests().empty());
  json messages = Messages(conversation);
  EXPECT_EQ(messages[1]["text"], text);
}

TEST_P(AssistantWithoutModelTest, TheLocalPlannerRunsTheSameToolCalls) {
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames = Turn(conversation, {{"text", "list my tasks"}});
  const TurnFrame* tool = FindFrame(frames, "tool");
  ASSERT_NE(tool, nullptr) << json(Events(frames)).dump();
  EXPECT_EQ(tool->data["name"], "hub_list_tasks");
  EXPECT_TRUE(frames.back().event == "done" || frames.back().event == "error");
}

TEST_P(AssistantWithoutModelTest, AWriteUnderPreviewIsProposedByThePlanner) {
  std::string conversation = NewConversation();
  SaveSettings({{"assistant", {{"writePolicy", "preview"}}}});
  std::vector<TurnFrame> frames = Turn(conversation, {{"text", "add a task to call Mira"}});
  const TurnFrame* proposal = FindFrame(frames, "proposal");
  ASSERT_NE(proposal, nullptr) << json(Events(frames)).dump();
  EXPECT_EQ(proposal->data["name"], "hub_create_tasks");
  ASSERT_EQ(frames.back().event, "done");
  auto count = [this] {
    auto rows = store().Query("SELECT COUNT(*) FROM tasks WHERE deleted = 0");
    return core::store::AsInt(rows->rows[0][0]);
  };
  EXPECT_EQ(count(), 0);  // Nothing changes until the person applies it.

  HttpReply applied =
      PostJson("/api/assistant/apply",
               {{"conversationId", conversation}, {"messageId", proposal->data["messageId"]}});
  ASSERT_EQ(applied.status, 200) << applied.body();
  EXPECT_EQ(applied.json()["state"], "applied");
  EXPECT_EQ(applied.json()["receipts"][0]["outcome"], "succeeded");
  EXPECT_EQ(count(), 1);
  // Applied once: a second Apply of the same message runs nothing.
  EXPECT_EQ(PostJson("/api/assistant/apply",
                     {{"conversationId", conversation}, {"messageId", proposal->data["messageId"]}})
                .status,
            409);
  EXPECT_EQ(count(), 1);
}

TEST_P(AssistantWithoutModelTest, AnImmediateWriteRunsAtOnceThroughSync) {
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames =
      Turn(conversation, {{"text", "add a task to call Mira tomorrow"}});
  ASSERT_EQ(frames.back().event, "done") << json(Events(frames)).dump();
  EXPECT_EQ(FindFrame(frames, "proposal"), nullptr);
  bool succeeded = false;
  for (const TurnFrame& f : frames) {
    if (f.event == "tool" && f.data.value("phase", "") == "ended" &&
        f.data["receipt"]["state"] == "succeeded" && f.data["name"] == "hub_create_tasks") {
      succeeded = true;
    }
  }
  EXPECT_TRUE(succeeded) << json(Events(frames)).dump();
  // Written as a server change (every device pulls it), not behind sync.
  auto rows = store().Query("SELECT title, row_version FROM tasks WHERE deleted = 0");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_GT(core::store::AsInt(rows->rows[0][1]), 0);
  EXPECT_THAT(std::string(frames.back().data["text"]), HasSubstr("Call Mira"));
}

TEST_P(AssistantWithoutModelTest, AMentionPicksItsTaskByIdAmongSameNamedOnes) {
  std::string conversation = NewConversation();
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(Turn(conversation, {{"text", "add a task to renew passport"}}).back().event, "done");
  }
  auto rows = store().Query("SELECT id, title FROM tasks WHERE deleted = 0 ORDER BY id");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2u);
  const std::string title = core::store::AsText(rows->rows[1][1]);
  const std::string picked = core::store::AsText(rows->rows[1][0]);
  json mentions = {{{"kind", "task"}, {"id", picked}, {"label", title}}};
  std::vector<TurnFrame> frames =
      Turn(conversation, {{"text", "mark @" + title + " as done"}, {"mentions", mentions}});
  ASSERT_EQ(frames.back().event, "done") << json(Events(frames)).dump();
  auto done = store().Query("SELECT id FROM tasks WHERE status = 'done'");
  ASSERT_TRUE(done.ok());
  ASSERT_EQ(done->size(), 1u) << json(Events(frames)).dump();
  EXPECT_EQ(core::store::AsText(done->rows[0][0]), picked);
}

TEST_P(AssistantWithoutModelTest, AnImmediateWriteHasUndoAndRedo) {
  std::string conversation = NewConversation();
  std::vector<TurnFrame> frames =
      Turn(conversation, {{"text", "add a task to call Mira tomorrow"}});
  ASSERT_EQ(frames.back().event, "done") << json(Events(frames)).dump();
  // The server's own time for the turn (tools/bench assistant's overhead).
  const json timing = frames.back().data["timing"];
  ASSERT_TRUE(timing["serverMs"].is_number()) << timing.dump();
  EXPECT_GT(timing["serverMs"].get<double>(), 0.0);
  EXPECT_EQ(timing["modelMs"].get<double>(), 0.0);  // The local planner: no model.
  std::string call_id;
  for (const TurnFrame& f : frames) {
    if (f.event == "tool" && f.data.value("phase", "") == "ended" &&
        f.data["name"] == "hub_create_tasks") {
      EXPECT_EQ(f.data["receipt"].value("undoable", false), true) << f.data.dump();
      call_id = f.data["callId"];
    }
  }
  ASSERT_FALSE(call_id.empty());
  const json target = {{"conversationId", conversation},
                       {"messageId", frames.back().data["messageId"]},
                       {"callIds", {call_id}}};
  auto live = [this] {
    auto rows = store().Query("SELECT COUNT(*) FROM tasks WHERE deleted = 0");
    return rows.ok() ? core::store::AsInt(rows->rows[0][0]) : -1;
  };
  ASSERT_EQ(live(), 1);
  HttpReply undone = PostJson("/api/assistant/undo", target);
  ASSERT_EQ(undone.status, 200) << undone.body();
  EXPECT_EQ(undone.json()["receipts"][0]["undone"], true) << undone.body();
  EXPECT_EQ(live(), 0);
  // The messages list shows the call as it stands now, for a reloaded chat.
  json reply = Messages(conversation)[1];
  ASSERT_TRUE(reply.contains("proposal")) << reply.dump();
  EXPECT_EQ(reply["proposal"]["receipts"][0]["callId"], call_id);
  EXPECT_EQ(reply["proposal"]["receipts"][0]["outcome"], "succeeded");
  EXPECT_EQ(reply["proposal"]["receipts"][0]["undone"], true);
  EXPECT_FALSE(Messages(conversation)[0].contains("proposal"));  // The person's message.
  // Nothing ran at once waits on Needs me.
  HttpReply approvals = Send(bhttp::verb::get, "/api/assistant/approvals");
  EXPECT_EQ(approvals.json()["approvals"].size(), 0u) << approvals.body();
  HttpReply again = PostJson("/api/assistant/undo", target);
  EXPECT_EQ(again.status, 409) << again.body();
  HttpReply redone = PostJson("/api/assistant/redo", target);
  ASSERT_EQ(redone.status, 200) << redone.body();
  EXPECT_EQ(live(), 1);
}

INSTANTIATE_TEST_SUITE_P(Stores, AssistantWithoutModelTest,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

// Routines run on their schedule (core/routines/routine_runs.h), checked
// often here; the local planner answers them.
class RoutinesTest : public AssistantWithoutModelTest {
 protected:
  void Configure(server::Config& config) override {
    config.routine_check_interval = std::chrono::milliseconds(50);
  }
  // The conversation titled `title` in the test's space, or null.
  json ConversationTitled(const std::string& title) {
    HttpReply r =
        Send(bhttp::verb::get, std::string("/api/assistant/conversations?spaceId=") + kSpace);
    EXPECT_EQ(r.status, 200) << r.body();
    const json listed = r.json();
    for (const json& c : listed["conversations"]) {
      if (c["title"] == title) return c;
    }
    return nullptr;
  }
};

TEST_P(RoutinesTest, ADueRoutineRunsOnceAsATurnAndKeepsItsReplyInItsConversation) {
  // Made long ago: its daily 08:00 has come round by now, whatever the clock.
  ASSERT_TRUE(store()
                  .Exec("INSERT INTO routines (id, space_id, title, instruction, schedule, paused,"
                        " version, deleted, created_at, updated_at) VALUES ('r1', $1,"
                        " 'Morning list', 'list my tasks', '{\"frequency\":\"daily\","
                        "\"time\":\"08:00\"}', 0, 1, 0, 0, 0)",
                        {std::string(kSpace)})
                  .ok());
  json conversation;
  json messages;
  for (int i = 0; i < 200; ++i) {
    conversation = ConversationTitled("Morning list");
    if (!conversation.is_null()) {
      messages = Messages(conversation["id"]);
      if (messages.size() == 2 && !messages[1]["text"].get<std::string>().empty()) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_FALSE(conversation.is_null()) << "the routine never ran";
  ASSERT_EQ(messages.size(), 2u) << messages.dump();
  EXPECT_EQ(messages[0]["text"], "list my tasks");
  EXPECT_EQ(messages[1]["status"], "ok");
  ASSERT_FALSE(messages[1]["toolCalls"].empty()) << messages.dump();
  EXPECT_EQ(messages[1]["toolCalls"][0]["name"], "hub_list_tasks");
  auto kept = store().Query("SELECT conversation_id FROM routine_runs WHERE routine_id = 'r1'");
  ASSERT_TRUE(kept.ok() && kept->size() == 1u);
  EXPECT_EQ(core::store::AsText(kept->rows[0][0]), conversation["id"].get<std::string>());
  // The list names the routine, so the app finds its replies by id.
  EXPECT_EQ(conversation["routineId"], "r1");
  // Many checks later it has not run again: its next time is tomorrow.
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  EXPECT_EQ(Messages(conversation["id"]).size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Stores, RoutinesTest,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

// Accounts mode: each person's model saved with their account.
class AssistantAccountsTest : public AssistantTest {
 protected:
  void Configure(server::Config& config) override {
    config.accounts = true;
    config.open_signup = true;
    config.model_call_timeout = kTimeout;
    // Each person's model is the fake one, on loopback.
    config.private_links = true;
  }
  struct Person {
    std::string cookie;
    std::string account_id;
    std::string space_id;
  };
  Person SignUp(const std::string& email) {
    HttpReply r = Signup(email, kPassword);
    EXPECT_EQ(r.status, 201) << r.body();
    Person p{SessionCookieOf(r), r.json()["account"]["id"], r.json()["spaces"][0]["id"]};
    HttpReply put = Send(bhttp::verb::put, "/api/settings/model",
                         json{{"provider", "openai"},
                              {"baseUrl", fake_->base_url()},
                              {"model", "fake-model"},
                              {"apiKey", kKey}}
                             .dump(),
                         WithCookie(p.cookie));
    EXPECT_EQ(put.status, 200) << put.body();
    return p;
  }
};

TEST_P(AssistantAccountsTest, AnotherAccountsConversationIsNotFound) {
  Person ada = SignUp("ada@example.com");
  Person bob = SignUp("bob@example.com");
  HttpReply created =
      PostJson("/api/assistant/conversations", {{"spaceId", ada.space_id}}, WithCookie(ada.cookie));
  ASSERT_EQ(created.status, 201) << created.body();
  const std::string id = created.json()["id"];
  // Bob cannot start one in Ada's space either.
  EXPECT_EQ(
      PostJson("/api/assistant/conversations", {{"spaceId", ada.space_id}}, WithCookie(bob.cookie))
          .error_code(),
      codes::kNotFound);

  auto ada_turn = Post(id, {{"text", "hello there"}}, ada.cookie);
  ASSERT_EQ(ada_turn->Status(), 200) << ada_turn->body();
  std::vector<TurnFrame> frames = ada_turn->Rest();
  ASSERT_EQ(frames.back().event, "done");
  EXPECT_THAT(ada_turn->raw(), ::testing::Not(HasSubstr(kKey)));

  const std::string path = "/api/assistant/conversations/" + id;
  EXPECT_EQ(Send(bhttp::verb::get, path + "/messages", "", WithCookie(bob.cookie)).error_code(),
            codes::kNotFound);
  auto bob_turn = Post(id, {{"text", "hello there"}}, bob.cookie);
  EXPECT_EQ(bob_turn->Status(), 404);
  EXPECT_EQ(Send(bhttp::verb::delete_, path, "", WithCookie(bob.cookie)).error_code(),
            codes::kNotFound);
  HttpReply bobs = Send(bhttp::verb::get, "/api/assistant/conversations?spaceId=" + ada.space_id,
                        "", WithCookie(bob.cookie));
  EXPECT_EQ(bobs.error_code(), codes::kNotFound);
  // Without a session: 401.
  EXPECT_EQ(Send(bhttp::verb::get, path + "/messages").status, 401);
  // Nor add to it what he asked offline.
  EXPECT_EQ(PostJson(path + "/exchanges",
                     OfflineUpload("01JB0000000000000000000003", "what is due", "Nothing."),
                     WithCookie(bob.cookie))
                .error_code(),
            codes::kNotFound);
  // Ada still has both messages.
  EXPECT_EQ(Messages(id, WithCookie(ada.cookie)).size(), 2u);
  EXPECT_FALSE(logger().Contains(kKey));
}

INSTANTIATE_TEST_SUITE_P(Stores, AssistantAccountsTest,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
