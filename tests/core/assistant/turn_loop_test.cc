#include "core/assistant/turn_loop.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/assistant/hub_tools.h"
#include "core/assistant/nudge.h"
#include "core/hub/hub_tools.h"
#include "core/playbooks/embedded.h"
#include "core/text/trim.h"
#include "tests/support/embedded_router.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;
using Kind = LoopStep::Kind;

TurnSetup MakeSetup(std::string message, WritePolicy policy = WritePolicy::kImmediate) {
  TurnSetup s;
  s.instructions = "You are the assistant.";
  s.user_content = message;
  s.policy = policy;
  s.route.message = std::move(message);
  s.route.build_tools = hub::HubToolRegistry().names();
  s.route.allowed_tools = hub::HubToolRegistry().names();
  return s;
}

model::AssembledToolCall Call(std::string id, std::string name, json input) {
  model::AssembledToolCall c;
  c.id = std::move(id);
  c.name = std::move(name);
  c.arguments = input.dump();
  c.input = std::move(input);
  return c;
}

class TurnLoopTest : public ::testing::Test {
 protected:
  void Start(TurnSetup setup) {
    loop_ = std::make_unique<TurnLoop>(hub::HubToolRegistry(), testing::EmbeddedRouter(),
                                       std::move(setup));
  }
  model::ChatRequest Next() {
    auto r = loop_->NextRequest();
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r.value() : model::ChatRequest{};
  }
  std::unique_ptr<TurnLoop> loop_;
};

TEST_F(TurnLoopTest, ARequestCarriesInstructionsHistoryMessageAndOfferedTools) {
  TurnSetup s = MakeSetup("list my tasks due this week");
  s.history = {model::ChatMessage::User("hi"), model::ChatMessage::Assistant("Hello.")};
  Start(s);
  model::ChatRequest r = Next();
  ASSERT_EQ(r.messages.size(), 4u);
  EXPECT_EQ(r.messages[0].role, model::Role::kSystem);
  EXPECT_EQ(r.messages[3].content, "list my tasks due this week");
  EXPECT_EQ(r.tools.size(), loop_->offered_tools().size());
  EXPECT_EQ(r.tool_choice, model::ToolChoice::kAuto);
  // Waiting for the reply: no second request.
  EXPECT_EQ(loop_->NextRequest().status().code(), codes::kFailedPrecondition);
}

TEST_F(TurnLoopTest, AReadRunsAndItsTrimmedResultGoesBackToTheModel) {
  Start(MakeSetup("list my tasks"));
  Next();
  LoopStep step = loop_->OnModelReply("", {Call("c1", "hub_list_tasks", json::object())});
  ASSERT_EQ(step.kind, Kind::kCallTools);
  ASSERT_EQ(step.calls.size(), 1u);
  EXPECT_EQ(step.calls[0].action, CallAction::kRun);
  json big = {{"tasks", json::array()}};
  for (int i = 0; i < 500; ++i)
    big["tasks"].push_back({{"id", i}, {"title", "Task number " + std::to_string(i)}});
  ASSERT_TRUE(loop_->OnToolOutcomes({{"c1", Status::Ok(), big, ""}}).ok());
  model::ChatRequest r = Next();
  const model::ChatMessage& result = r.messages.back();
  EXPECT_EQ(result.role, model::Role::kTool);
  EXPECT_EQ(result.tool_call_id, "c1");
  EXPECT_LE(result.content.size(), text::kMaxToolResultChars + 200);
  EXPECT_NE(result.content.find("offset"), std::string::npos);
  EXPECT_EQ(r.messages[r.messages.size() - 2].tool_calls.at(0).name, "hub_list_tasks");
  EXPECT_EQ(loop_->OnModelReply("You have 500 tasks.", {}).kind, Kind::kFinal);
}

TEST_F(TurnLoopTest, UnknownUnofferedInvalidAndMalformedCallsAreAnsweredNotDispatched) {
  Start(MakeSetup("list my tasks"));
  Next();
  model::AssembledToolCall malformed = Call("c4", "hub_list_tasks", json::object());
  malformed.status = Status(codes::kMalformedToolCall, "arguments are not a JSON object");
  LoopStep step = loop_->OnModelReply(
      "", {Call("c1", "hub_fly_to_moon", json::object()),
           Call("c2", "hub_delete_board", {{"id", "b1"}}),  // Registered, not offered here.
           Call("c3", "hub_list_tasks", {{"status", "someday"}}), malformed});
  ASSERT_EQ(step.kind, Kind::kCallTools);
  for (const PlannedCall& c : step.calls) EXPECT_EQ(c.action, CallAction::kAnswered) << c.name;
  EXPECT_EQ(step.calls[0].status.message(), "no tool called \"hub_fly_to_moon\"");
  EXPECT_EQ(step.calls[1].status.code(), codes::kUnknownTool);
  EXPECT_EQ(step.calls[2].status.code(), codes::kInvalidToolInput);
  EXPECT_NE(step.calls[2].answer.find("input.status"), std::string::npos);
  EXPECT_EQ(step.calls[3].status.code(), codes::kMalformedToolCall);
  ASSERT_TRUE(loop_->OnToolOutcomes({}).ok());
  model::ChatRequest r = Next();
  EXPECT_EQ(r.messages.back().tool_call_id, "c4");
  // Nothing ran, so a lookup promise now still counts as before any tool.
  EXPECT_FALSE(loop_->tools_ran());
}

TEST_F(TurnLoopTest, OutcomesMustMatchTheCallsToRun) {
  Start(MakeSetup("list my tasks"));
  Next();
  loop_->OnModelReply("", {Call("c1", "hub_list_tasks", json::object())});
  EXPECT_EQ(loop_->OnToolOutcomes({}).code(), codes::kInvalidArgument);
  EXPECT_EQ(loop_->OnToolOutcomes({{"c9", Status::Ok(), json::object(), ""}}).code(),
            codes::kInvalidArgument);
  EXPECT_TRUE(loop_->OnToolOutcomes({{"c1", Status::Ok(), json::object(), ""}}).ok());
}

TEST_F(TurnLoopTest, WritesAreHeldUnderPreviewAndReportedAsProposed) {
  Start(MakeSetup("add a task to call Mira", WritePolicy::kPreview));
  Next();
  LoopStep step = loop_->OnModelReply(
      "", {Call("c1", "hub_create_tasks", {{"tasks", {{{"title", "Call Mira"}}}}})});
  ASSERT_EQ(step.calls.at(0).action, CallAction::kHold);
  ASSERT_TRUE(
      loop_->OnToolOutcomes({{"c1", Status::Ok(), json(), "Add task \u201cCall Mira\u201d"}}).ok());
  json result = json::parse(Next().messages.back().content);
  EXPECT_EQ(result["status"], "proposed");
  EXPECT_EQ(result["note"], kProposedNote);
}

TEST_F(TurnLoopTest, ImmediateRunsTheSameWrite) {
  Start(MakeSetup("add a task to call Mira"));
  Next();
  LoopStep step = loop_->OnModelReply(
      "", {Call("c1", "hub_create_tasks", {{"tasks", {{{"title", "Call Mira"}}}}})});
  EXPECT_EQ(step.calls.at(0).action, CallAction::kRun);
}

TEST_F(TurnLoopTest, HowToLoadsAPlaybookAndOffersItsToolsForTheRestOfTheLoop) {
  Start(MakeSetup("add a task to call Mira"));  // A simple todo: five tools.
  Next();
  ASSERT_EQ(loop_->offered_tools().size(), 5u);
  LoopStep step = loop_->OnModelReply("", {Call("c1", "hub_how_to", {{"name", "boards"}})});
  ASSERT_EQ(step.calls.at(0).action, CallAction::kAnswered);
  EXPECT_TRUE(step.calls[0].status.ok());
  EXPECT_FALSE(step.calls[0].answer.empty());
  EXPECT_GT(loop_->offered_tools().size(), 5u);
  EXPECT_NE(
      std::find(loop_->offered_tools().begin(), loop_->offered_tools().end(), "hub_list_boards"),
      loop_->offered_tools().end());
  ASSERT_TRUE(loop_->OnToolOutcomes({}).ok());
  EXPECT_TRUE(loop_->tools_ran());
  EXPECT_EQ(Next().tools.size(), loop_->offered_tools().size());
}

TEST_F(TurnLoopTest, AFourthWebSearchIsRefused) {
  Start(MakeSetup("search the web for the latest EU AI act news"));
  for (int i = 0; i < 4; ++i) {
    Next();
    LoopStep step = loop_->OnModelReply(
        "", {Call("s" + std::to_string(i), "hub_web_search", {{"query", "EU AI act"}})});
    ASSERT_EQ(step.kind, Kind::kCallTools);
    if (i < 3) {
      EXPECT_EQ(step.calls[0].action, CallAction::kRun) << i;
      ASSERT_TRUE(
          loop_->OnToolOutcomes({{step.calls[0].id, Status::Ok(), json::object(), ""}}).ok());
    } else {
      EXPECT_EQ(step.calls[0].status.code(), codes::kLimitReached);
      EXPECT_EQ(step.calls[0].status.message(), kSearchLimitMessage);
      ASSERT_TRUE(loop_->OnToolOutcomes({}).ok());
    }
  }
}

TEST_F(TurnLoopTest, AtMostEightRequestsTheLastWithToolsOff) {
  Start(MakeSetup("list my tasks"));
  for (int i = 0; i < kMaxSteps; ++i) {
    model::ChatRequest r = Next();
    EXPECT_EQ(r.tool_choice,
              i == kMaxSteps - 1 ? model::ToolChoice::kNone : model::ToolChoice::kAuto);
    if (i < kMaxSteps - 1) {
      LoopStep step = loop_->OnModelReply(
          "", {Call("c" + std::to_string(i), "hub_list_tasks", json::object())});
      ASSERT_EQ(step.kind, Kind::kCallTools);
      ASSERT_TRUE(
          loop_->OnToolOutcomes({{step.calls[0].id, Status::Ok(), json::array(), ""}}).ok());
    }
  }
  // Calls on the tools-off step cannot run: the text is the answer.
  LoopStep last =
      loop_->OnModelReply("Here is what I found.", {Call("c9", "hub_list_tasks", json::object())});
  EXPECT_EQ(last.kind, Kind::kFinal);
  EXPECT_EQ(last.text, "Here is what I found.");
  EXPECT_EQ(loop_->steps(), kMaxSteps);
  EXPECT_FALSE(loop_->NextRequest().ok());
}

TEST_F(TurnLoopTest, AReplyThatLeavesTheWorkUndoneGoesBackOnce) {
  Start(MakeSetup("list my tasks"));
  Next();
  LoopStep first = loop_->OnModelReply("Let me check your tasks.", {});
  ASSERT_EQ(first.kind, Kind::kAskAgain);
  model::ChatRequest r = Next();
  EXPECT_EQ(r.messages.back().role, model::Role::kUser);
  EXPECT_EQ(r.messages.back().content, NudgeMessage(NudgeReason::kPromisedLookup));
  // Once only: the same reply again is the answer.
  LoopStep second = loop_->OnModelReply("Let me check your tasks.", {});
  EXPECT_EQ(second.kind, Kind::kFinal);
}

TEST_F(TurnLoopTest, AnEmptyAnswerFailsTheTurn) {
  Start(MakeSetup("list my tasks"));
  Next();
  LoopStep step = loop_->OnModelReply("  \n", {});
  EXPECT_EQ(step.kind, Kind::kFailed);
  EXPECT_EQ(step.error.code(), codes::kModelError);
}

TEST_F(TurnLoopTest, VerifyGetsTwoRoundsAndASentBackAnswerStandsWhenTheModelFails) {
  TurnSetup s = MakeSetup("summarize my week");
  s.verify = true;
  Start(s);
  Next();
  LoopStep v1 = loop_->OnModelReply("Draft one.", {});
  ASSERT_EQ(v1.kind, Kind::kVerify);
  ASSERT_EQ(loop_->OnVerified("Say which tasks are overdue.").kind, Kind::kAskAgain);
  EXPECT_EQ(Next().messages.back().content, "Say which tasks are overdue.");
  LoopStep v2 = loop_->OnModelReply("Draft two.", {});
  ASSERT_EQ(v2.kind, Kind::kVerify);
  ASSERT_EQ(loop_->OnVerified("Still missing the dates.").kind, Kind::kAskAgain);
  Next();
  // Two rounds used: the next answer is final without a check...
  // ...unless the model fails, when the answer it was sent back with stands.
  LoopStep failed = loop_->OnModelError(Status(codes::kModelTimeout, "timed out"));
  EXPECT_EQ(failed.kind, Kind::kFinal);
  EXPECT_EQ(failed.text, "Draft two.");
}

TEST_F(TurnLoopTest, AVerifiedAnswerWithNothingMissingIsFinal) {
  TurnSetup s = MakeSetup("summarize my week");
  s.verify = true;
  Start(s);
  Next();
  ASSERT_EQ(loop_->OnModelReply("All done.", {}).kind, Kind::kVerify);
  LoopStep done = loop_->OnVerified("");
  EXPECT_EQ(done.kind, Kind::kFinal);
  EXPECT_EQ(done.text, "All done.");
}

TEST_F(TurnLoopTest, AModelErrorWithoutAStandingAnswerFails) {
  Start(MakeSetup("list my tasks"));
  Next();
  LoopStep step = loop_->OnModelError(Status(codes::kModelError, "HTTP 500"));
  EXPECT_EQ(step.kind, Kind::kFailed);
  EXPECT_EQ(step.error.message(), "HTTP 500");
}

}  // namespace
}  // namespace ensemble::core::assistant
