// Apply's store work end to end with the hub's real task tools: claim, run,
// receipts, Retry, the transaction budget, workflows and Undo.

#include "core/assistant/apply_calls.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/assistant/hub_tools.h"
#include "core/assistant/synced_mutation_sink.h"
#include "core/hub/hub.h"
#include "core/hub/hub_tools.h"
#include "core/store/sqlite_database.h"
#include "core/sync/authorization.h"
#include "tests/fakes/fake_env.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;
using Ids = std::optional<std::vector<std::string>>;

constexpr int64_t kNow = 1'764'000'000'000;
constexpr char kSpace[] = "space-1";
constexpr char kAccount[] = "mira";

class ApplyCallsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
    ASSERT_TRUE(sync::SetMember(*db_, kSpace, kAccount, sync::Role::kOwner).ok());
  }

  // The proposal of one message with `calls`, saved and claimed.
  ApplyClaim Claim(const std::string& id, std::vector<ProposedCall> calls, Ids only = {}) {
    if (!GetProposal(*db_, kAccount, id).ok()) {
      Proposal p;
      p.id = id;
      p.conversation_id = "conv";
      p.message_id = "msg-" + id;
      p.account_id = kAccount;
      p.space_id = kSpace;
      p.calls = std::move(calls);
      EXPECT_TRUE(SaveProposal(*db_, p, kNow).ok());
    }
    auto claim = ClaimForApply(*db_, kAccount, id, only, kNow);
    EXPECT_TRUE(claim.ok()) << claim.status().ToString();
    return std::move(claim).value();
  }

  // Runs a claim as the server does: one transaction, receipts recorded in it.
  Proposal Run(const ApplyClaim& claim, bool out_of_time = false) {
    store::Transaction txn(*db_);
    tools::ToolContext ctx = Context();
    std::vector<CallReceipt> receipts =
        RunClaimedCalls(hub::HubToolRegistry(), claim, ctx, [out_of_time] { return out_of_time; });
    auto done = RecordReceipts(*db_, claim.proposal.id, receipts, kNow);
    EXPECT_TRUE(done.ok()) << done.status().ToString();
    EXPECT_TRUE(txn.Commit().ok());
    return std::move(done).value();
  }

  tools::ToolContext Context() {
    tools::ToolContext ctx = hub::NewToolContext();
    ctx.db = db_.get();
    ctx.space_id = kSpace;
    ctx.account_id = kAccount;
    ctx.now_ms = kNow;
    ctx.today = "2026-11-30";
    ctx.time_zone = "UTC";
    ctx.random = &random_;
    ctx.write = SyncedMutationSink(*db_, hub::Config(), &account_, kNow, nullptr);
    return ctx;
  }

  int64_t Count(const std::string& where) {
    auto rows = db_->Query("SELECT COUNT(*) FROM tasks WHERE " + where);
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    return store::AsInt(rows->rows[0][0]);
  }

  std::string TaskId(const std::string& title) {
    auto rows = db_->Query("SELECT id FROM tasks WHERE title = $1", {store::Value(title)});
    return rows->empty() ? "" : store::AsText(rows->rows[0][0]);
  }

  ProposedCall Create(std::string call_id, std::string title) {
    return {std::move(call_id), "hub_create_tasks", {{"tasks", {{{"title", std::move(title)}}}}}};
  }

  std::unique_ptr<store::SqliteDatabase> db_;
  ensemble::testing::FakeRandom random_;
  const std::string account_ = kAccount;
};

TEST_F(ApplyCallsTest, AppliesEveryCallWithReceiptsAndUndo) {
  Proposal done = Run(Claim("p1", {Create("c1", "Draft brief"), Create("c2", "Send invoice")}));
  EXPECT_EQ(done.state, ProposalState::kApplied);
  ASSERT_EQ(done.receipts.size(), 2u);
  EXPECT_EQ(done.receipts[0].outcome, CallOutcome::kSucceeded);
  EXPECT_NE(done.receipts[0].summary.find("Draft brief"), std::string::npos);
  EXPECT_TRUE(done.receipts[1].undo.is_array());
  EXPECT_EQ(Count("deleted = 0"), 2);
  // The rows were written as server changes: every client pulls them.
  EXPECT_EQ(Count("row_version > 0"), 2);

  store::Transaction txn(*db_);
  auto items = MarkUndone(*db_, kAccount, "p1", std::nullopt, kNow);
  ASSERT_TRUE(items.ok()) << items.status().ToString();
  tools::ToolContext ctx = Context();
  ASSERT_TRUE(RunUndo(*items, ctx).ok());
  ASSERT_TRUE(txn.Commit().ok());
  EXPECT_EQ(Count("deleted = 0"), 0);
  EXPECT_EQ(Count("deleted = 1"), 2);  // Soft: in Trash, restorable.
}

TEST_F(ApplyCallsTest, APartialFailureStopsTheRestAndRetrySendsOnlyThem) {
  // c2 edits a task that is in Trash: it fails, and c3 is not attempted.
  Run(Claim("seed", {Create("s", "Old task")}));
  const std::string old_id = TaskId("Old task");
  ASSERT_FALSE(old_id.empty());
  ASSERT_TRUE(db_->Exec("UPDATE tasks SET deleted = 1 WHERE id = $1", {store::Value(old_id)}).ok());
  ProposedCall edit = {"c2", "hub_update_task", {{"id", old_id}, {"fields", {{"status", "done"}}}}};
  Proposal first = Run(Claim("p2", {Create("c1", "New task"), edit, Create("c3", "Third")}));
  EXPECT_EQ(first.state, ProposalState::kPartial);
  ASSERT_EQ(first.receipts.size(), 3u);
  EXPECT_EQ(first.receipts[0].outcome, CallOutcome::kSucceeded);
  EXPECT_EQ(first.receipts[1].outcome, CallOutcome::kFailed);
  EXPECT_EQ(first.receipts[1].error_code, codes::kRecordDeleted);
  EXPECT_EQ(first.receipts[2].outcome, CallOutcome::kUnattempted);
  EXPECT_EQ(Count("title = 'Third'"), 0);

  // The person restores the task and presses Retry: c1 is not sent again.
  ASSERT_TRUE(db_->Exec("UPDATE tasks SET deleted = 0 WHERE id = $1", {store::Value(old_id)}).ok());
  ApplyClaim retry = Claim("p2", {});
  ASSERT_EQ(retry.to_run.size(), 2u);
  EXPECT_EQ(retry.to_run[0].call_id, "c2");
  Proposal second = Run(retry);
  EXPECT_EQ(second.state, ProposalState::kApplied);
  EXPECT_EQ(Count("title = 'New task'"), 1);
  EXPECT_EQ(Count("title = 'Third'"), 1);
  EXPECT_EQ(Count("status = 'done'"), 1);
}

TEST_F(ApplyCallsTest, CallsAreCheckedAgainBeforeTheyRun) {
  // Saved with an input the schema refuses (the tool changed, or the row was
  // edited): refused, nothing runs.
  Proposal done = Run(
      Claim("p3", {{"c1", "hub_create_tasks", {{"tasks", json::array()}}}, Create("c2", "After")}));
  EXPECT_EQ(done.state, ProposalState::kFailed);
  EXPECT_EQ(done.receipts[0].error_code, codes::kInvalidToolInput);
  EXPECT_EQ(done.receipts[1].outcome, CallOutcome::kUnattempted);
  // A read is never applied.
  Proposal read = Run(Claim("p4", {{"c1", "hub_list_tasks", json::object()}}));
  EXPECT_EQ(read.receipts[0].error_code, codes::kFailedPrecondition);
  EXPECT_EQ(Count("1 = 1"), 0);
}

TEST_F(ApplyCallsTest, ApplyChecksTheRoleAgain) {
  // Proposed while an owner; the person is a viewer by the time of Apply.
  ApplyClaim claim = Claim("p-role", {Create("c1", "Made as owner")});
  ASSERT_TRUE(sync::SetMember(*db_, kSpace, kAccount, sync::Role::kViewer).ok());
  Proposal done = Run(claim);
  ASSERT_EQ(done.receipts.size(), 1u);
  EXPECT_EQ(done.receipts[0].outcome, CallOutcome::kFailed);
  EXPECT_EQ(done.receipts[0].error_code, codes::kForbidden);
  EXPECT_EQ(Count("1 = 1"), 0);

  // A guest may add tasks but not delete them.
  ASSERT_TRUE(sync::SetMember(*db_, kSpace, kAccount, sync::Role::kGuest).ok());
  EXPECT_EQ(Run(Claim("p-guest", {Create("c1", "Guest task")})).state, ProposalState::kApplied);
  const std::string id = TaskId("Guest task");
  Proposal removed = Run(Claim("p-guest-del", {{"c1", "hub_delete_tasks", {{"ids", {id}}}}}));
  ASSERT_EQ(removed.receipts.size(), 1u);
  EXPECT_EQ(removed.receipts[0].error_code, codes::kForbidden);
  EXPECT_EQ(Count("deleted = 0"), 1);
}

TEST_F(ApplyCallsTest, PastTheTimeBudgetTheRestWait) {
  Proposal done = Run(Claim("p5", {Create("c1", "A"), Create("c2", "B")}), /*out_of_time=*/true);
  EXPECT_EQ(done.state, ProposalState::kFailed);
  for (const CallReceipt& r : done.receipts) {
    EXPECT_EQ(r.outcome, CallOutcome::kUnattempted);
    EXPECT_EQ(r.error_code, codes::kApplyTimeout);
  }
  EXPECT_EQ(Count("1 = 1"), 0);
}

TEST_F(ApplyCallsTest, AWorkflowRunsItsStepsInOrderWithRefs) {
  json steps = json::array(
      {{{"id", "make"},
        {"tool", "hub_create_tasks"},
        {"input", {{"tasks", {{{"title", "Book venue"}}}}}}},
       {{"id", "finish"},
        {"tool", "hub_update_task"},
        {"input",
         {{"id", {{"$ref", "make.data.tasks.0.id"}}}, {"fields", {{"status", "done"}}}}}}});
  Proposal done = Run(Claim("p6", {{"w", "hub_run_workflow", {{"steps", steps}}}}));
  EXPECT_EQ(done.state, ProposalState::kApplied) << done.receipts[0].error_message;
  EXPECT_EQ(Count("title = 'Book venue' AND status = 'done'"), 1);
  ASSERT_TRUE(done.receipts[0].steps.is_array());
  EXPECT_EQ(done.receipts[0].steps[1]["state"], "succeeded");
}

TEST_F(ApplyCallsTest, AFailedWorkflowStepStopsItAndRetryResumesAfterWhatFinished) {
  Run(Claim("seed", {Create("s", "Parked")}));
  const std::string parked = TaskId("Parked");
  ASSERT_TRUE(db_->Exec("UPDATE tasks SET deleted = 1 WHERE id = $1", {store::Value(parked)}).ok());
  json steps = json::array({{{"id", "make"},
                             {"tool", "hub_create_tasks"},
                             {"input", {{"tasks", {{{"title", "Made"}}}}}}},
                            {{"id", "finish"},
                             {"tool", "hub_update_task"},
                             {"input", {{"id", parked}, {"fields", {{"status", "done"}}}}}}});
  Proposal done = Run(Claim("p7", {{"w", "hub_run_workflow", {{"steps", steps}}}}));
  EXPECT_EQ(done.state, ProposalState::kFailed);
  EXPECT_NE(done.receipts[0].error_message.find("finish"), std::string::npos)
      << done.receipts[0].error_message;
  ASSERT_TRUE(done.receipts[0].steps.is_array());
  EXPECT_EQ(done.receipts[0].steps[0]["state"], "succeeded");
  EXPECT_EQ(done.receipts[0].steps[1]["state"], "failed");
  EXPECT_EQ(Count("title = 'Made'"), 1);  // What finished stays.

  ASSERT_TRUE(db_->Exec("UPDATE tasks SET deleted = 0 WHERE id = $1", {store::Value(parked)}).ok());
  Proposal retried = Run(Claim("p7", {}));
  EXPECT_EQ(retried.state, ProposalState::kApplied) << retried.receipts[0].error_message;
  EXPECT_EQ(Count("title = 'Made'"), 1);  // Not made twice.
  EXPECT_EQ(Count("title = 'Parked' AND status = 'done'"), 1);
}

}  // namespace
}  // namespace ensemble::core::assistant
