// The built-in planner's whole turn in one call (core/assistant/local_turn.h),
// as the browser runs it offline: calls run against the context's store,
// held writes become drafts that ApplyLocalCalls runs, areas turned off are
// refused, and over a replica the writes wait in its outbox.

#include "core/assistant/local_turn.h"

#include <gmock/gmock.h>

#include "core/hub/hub_tools.h"
#include "core/sync/client_replica.h"
#include "tests/core/tools/tool_run_fixture.h"

namespace ensemble::core::assistant {
namespace local_turn_test {

using nlohmann::json;
using ::testing::HasSubstr;
using State = LocalTurnCall::State;

class LocalTurnTest : public tools::ToolRunTest {
 protected:
  Result<LocalTurnResult> Turn(const std::string& message,
                               WritePolicy policy = WritePolicy::kImmediate) {
    LocalTurnRequest request;
    request.message = message;
    request.policy = policy;
    request.allowed_write_areas = allowed_;
    return RunLocalTurn(hub::HubToolRegistry(), ctx_, request);
  }
  int64_t Tasks(const std::string& title) {
    auto rows = db_->Query("SELECT COUNT(*) FROM tasks WHERE title = $1 AND deleted = 0",
                           {store::Value(title)});
    return rows.ok() ? store::AsInt(rows->rows[0][0]) : -1;
  }
  std::optional<std::vector<std::string>> allowed_;
};

TEST_F(LocalTurnTest, AnImmediateWriteRunsAndThePlannerAnswersFromItsResult) {
  Result<LocalTurnResult> turn = Turn("add a task to call Mira tomorrow");
  ASSERT_TRUE(turn.ok()) << turn.status().ToString();
  ASSERT_EQ(turn->calls.size(), 1u);
  EXPECT_EQ(turn->calls[0].name, "hub_create_tasks");
  EXPECT_EQ(turn->calls[0].state, State::kSucceeded);
  EXPECT_EQ(turn->calls[0].id, "local_1_0");
  EXPECT_THAT(turn->reply, HasSubstr("Call Mira"));
  EXPECT_FALSE(turn->needs_model);
  EXPECT_EQ(Tasks("Call Mira"), 1);
  EXPECT_EQ(writes_, 1);

  // A read, then the answer from what it found.
  Result<LocalTurnResult> listed = Turn("what are my tasks");
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  ASSERT_FALSE(listed->calls.empty());
  EXPECT_EQ(listed->calls[0].name, "hub_list_tasks");
  EXPECT_THAT(listed->reply, HasSubstr("Call Mira"));
  EXPECT_EQ(LocalTurnJson(*listed)["calls"][0]["state"], "succeeded");
}

TEST_F(LocalTurnTest, UnderPreviewTheWriteIsADraftUntilApplied) {
  Result<LocalTurnResult> turn = Turn("add a task to call Mira tomorrow", WritePolicy::kPreview);
  ASSERT_TRUE(turn.ok()) << turn.status().ToString();
  ASSERT_EQ(turn->calls.size(), 1u);
  EXPECT_EQ(turn->calls[0].state, State::kHeld);
  EXPECT_THAT(turn->calls[0].text, HasSubstr("Call Mira"));
  EXPECT_THAT(turn->reply, HasSubstr("Waiting for your Apply"));
  EXPECT_THAT(turn->reply, ::testing::Not(HasSubstr("..")));
  EXPECT_EQ(Tasks("Call Mira"), 0);
  EXPECT_EQ(LocalCallJson(turn->calls[0])["state"], "held");

  std::vector<LocalTurnCall> applied = ApplyLocalCalls(hub::HubToolRegistry(), ctx_, turn->calls);
  ASSERT_EQ(applied.size(), 1u);
  EXPECT_EQ(applied[0].state, State::kSucceeded) << applied[0].text;
  EXPECT_EQ(Tasks("Call Mira"), 1);
}

// The loop as the server's turn driver drives it: the host makes each call
// its own way and reports the outcome.
LocalTurnLoop Loop(const std::string& message, WritePolicy policy = WritePolicy::kImmediate,
                   bool allowed = true) {
  return LocalTurnLoop(
      hub::HubToolRegistry(), message, policy, [allowed](const tools::ToolDef&) { return allowed; },
      "2026-12-02", "Europe/Paris");
}

TEST(LocalTurnLoop, TheHostMakesTheCallsAndThePlannerHearsEachOutcome) {
  LocalTurnLoop loop = Loop("add a task to call Mira tomorrow");
  Result<LocalTurnLoop::Step> step = loop.Next();
  ASSERT_TRUE(step.ok()) << step.status().ToString();
  ASSERT_FALSE(step->final);
  ASSERT_EQ(step->calls.size(), 1u);
  LocalTurnLoop::Planned& planned = step->calls[0];
  EXPECT_EQ(planned.action, LocalTurnLoop::Action::kRun);
  EXPECT_EQ(planned.call.id, "local_1_0");
  EXPECT_EQ(planned.call.name, "hub_create_tasks");
  ASSERT_NE(planned.def, nullptr);
  EXPECT_EQ(planned.def->name, "hub_create_tasks");
  // The host's prepare may rewrite the input; the planner still hears its
  // own call (else it would refuse the calls as not its plan).
  planned.call.input["prepared"] = true;
  planned.call.state = State::kFailed;
  planned.call.text = "The store is busy.";
  loop.Report(planned.call);
  Result<LocalTurnLoop::Step> reply = loop.Next();
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  ASSERT_TRUE(reply->final);
  EXPECT_THAT(reply->reply, HasSubstr("The store is busy."));
}

TEST(LocalTurnLoop, HeldWritesEndTheTurnWithTheWaitingReply) {
  LocalTurnLoop loop = Loop("add a task to call Mira tomorrow", WritePolicy::kPreview);
  Result<LocalTurnLoop::Step> step = loop.Next();
  ASSERT_TRUE(step.ok()) << step.status().ToString();
  ASSERT_EQ(step->calls.size(), 1u);
  EXPECT_EQ(step->calls[0].action, LocalTurnLoop::Action::kHold);
  step->calls[0].call.state = State::kHeld;
  step->calls[0].call.text = "Add 1 task: \u201CCall Mira\u201D.";
  loop.Report(step->calls[0].call);
  Result<LocalTurnLoop::Step> reply = loop.Next();
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  ASSERT_TRUE(reply->final);
  EXPECT_EQ(reply->reply, WaitingForApplyText({"Add 1 task: \u201CCall Mira\u201D."}));
}

TEST(LocalTurnLoop, ACallTheHostDoesNotAllowComesRefusedWithWhy) {
  LocalTurnLoop loop = Loop("add a task to call Mira tomorrow", WritePolicy::kImmediate,
                            /*allowed=*/false);
  Result<LocalTurnLoop::Step> step = loop.Next();
  ASSERT_TRUE(step.ok()) << step.status().ToString();
  ASSERT_EQ(step->calls.size(), 1u);
  EXPECT_EQ(step->calls[0].action, LocalTurnLoop::Action::kRefused);
  EXPECT_EQ(step->calls[0].call.state, State::kFailed);
  EXPECT_THAT(step->calls[0].call.text, HasSubstr("turned off in Settings"));
  loop.Report(step->calls[0].call);
  Result<LocalTurnLoop::Step> reply = loop.Next();
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  ASSERT_TRUE(reply->final);
  EXPECT_THAT(reply->reply, HasSubstr("turned off in Settings"));
}

TEST(WaitingForApply, JoinsThePreviewsIntoOneSentence) {
  EXPECT_EQ(WaitingForApplyText({"Add 1 task: \u201CA\u201D.", "Mark B done"}),
            "Waiting for your Apply: Add 1 task: \u201CA\u201D; Mark B done. Nothing changes "
            "until you apply it.");
}

TEST_F(LocalTurnTest, AWriteAreaTurnedOffIsRefusedAndNothingIsWritten) {
  allowed_ = std::vector<std::string>{"pages"};
  Result<LocalTurnResult> turn = Turn("add a task to call Mira tomorrow");
  ASSERT_TRUE(turn.ok()) << turn.status().ToString();
  ASSERT_EQ(turn->calls.size(), 1u);
  EXPECT_EQ(turn->calls[0].state, State::kFailed);
  EXPECT_THAT(turn->calls[0].text, HasSubstr("turned off in Settings"));
  EXPECT_EQ(Tasks("Call Mira"), 0);
  EXPECT_EQ(writes_, 0);
}

TEST_F(LocalTurnTest, WhatNeedsAModelIsSaidWithoutAnyCall) {
  Result<LocalTurnResult> turn = Turn("summarize the meeting with Bo");
  ASSERT_TRUE(turn.ok()) << turn.status().ToString();
  EXPECT_TRUE(turn->calls.empty());
  EXPECT_TRUE(turn->needs_model);
  EXPECT_THAT(turn->reply, HasSubstr("set up a model"));
}

TEST_F(LocalTurnTest, OverAReplicaTheWritesWaitInTheOutbox) {
  testing::FakeEnv env;
  auto replica = sync::ClientReplica::Open(*db_, env.env(), hub::Config());
  ASSERT_TRUE(replica.ok()) << replica.status().ToString();
  ctx_.write = tools::ReplicaMutationSink(**replica);
  Result<LocalTurnResult> turn = Turn("add a task to call Mira tomorrow");
  ASSERT_TRUE(turn.ok()) << turn.status().ToString();
  EXPECT_EQ(Tasks("Call Mira"), 1);
  Result<json> outbox = (*replica)->Outbox();
  ASSERT_TRUE(outbox.ok());
  ASSERT_EQ(outbox->size(), 1u);
  EXPECT_EQ((*outbox)[0]["name"], "task.create");

  // All or nothing: a list with a refused mutation leaves no trace.
  json again = (*outbox)[0]["args"];
  again["id"] = "01JB0000000000000000000T01";
  again["title"] = "Kept?";
  ASSERT_TRUE(ctx_.write({{"task.create", again}}).ok());
  EXPECT_EQ(Tasks("Kept?"), 1);
  again["id"] = "01JB0000000000000000000T02";
  again["title"] = "Not kept";
  Status refused = ctx_.write({{"task.create", again}, {"task.nope", json::object()}});
  EXPECT_FALSE(refused.ok());
  EXPECT_EQ(Tasks("Not kept"), 0);
  EXPECT_EQ((*replica)->Outbox()->size(), 2u);
}

TEST_F(LocalTurnTest, TheJsonEdgeReadsItsContextAndRefusesBadRequests) {
  ctx_.space_id.clear();
  ctx_.today.clear();
  Result<json> held = RunLocalTurnJson(hub::HubToolRegistry(), ctx_,
                                       {{"message", "add a task to call Mira tomorrow"},
                                        {"spaceId", kSpace},
                                        {"today", kToday},
                                        {"policy", "needs-me"}});
  ASSERT_TRUE(held.ok()) << held.status().ToString();
  EXPECT_EQ(ctx_.space_id, kSpace);
  ASSERT_EQ((*held)["calls"].size(), 1u);
  EXPECT_EQ((*held)["calls"][0]["state"], "held");
  EXPECT_EQ(Tasks("Call Mira"), 0);

  Result<json> applied =
      ApplyLocalCallsJson(hub::HubToolRegistry(), ctx_,
                          {{"spaceId", kSpace}, {"today", kToday}, {"calls", (*held)["calls"]}});
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  EXPECT_EQ((*applied)["calls"][0]["state"], "succeeded");
  EXPECT_EQ(Tasks("Call Mira"), 1);

  const json bad[] = {
      json::array(),
      {{"message", "hi"}, {"today", kToday}},
      {{"message", "hi"}, {"spaceId", kSpace}, {"today", kToday}, {"policy", "sometimes"}},
      {{"message", "hi"}, {"spaceId", kSpace}, {"today", kToday}, {"allowedWriteAreas", "tasks"}},
      {{"message", "hi"}, {"spaceId", kSpace}, {"today", kToday}, {"colour", "red"}},
      {{"message", 3}, {"spaceId", kSpace}, {"today", kToday}},
  };
  for (const json& request : bad) {
    EXPECT_EQ(RunLocalTurnJson(hub::HubToolRegistry(), ctx_, request).status().code(),
              codes::kInvalidArgument)
        << request.dump();
  }
  EXPECT_EQ(ApplyLocalCallsJson(hub::HubToolRegistry(), ctx_,
                                {{"spaceId", kSpace}, {"today", kToday}, {"calls", json::array()}})
                .status()
                .code(),
            codes::kInvalidArgument);
  EXPECT_EQ(Tasks("Call Mira"), 1);
}

}  // namespace local_turn_test
}  // namespace ensemble::core::assistant
