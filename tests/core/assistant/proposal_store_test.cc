#include "core/assistant/proposal_store.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/assistant/conversation_store.h"
#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;
using Ids = std::optional<std::vector<std::string>>;

std::vector<ProposedCall> ThreeCalls() {
  return {{"c1", "hub_create_task", {{"title", "Draft the plan"}}},
          {"c2", "hub_update_task", {{"id", "t1"}, {"fields", {{"status", "done"}}}}},
          {"c3", "hub_create_task", {{"title", "Send the plan"}, {"due", "2026-12-01"}}}};
}

Proposal NewProposal(std::string id, std::string account = "mira") {
  Proposal p;
  p.id = id;
  p.conversation_id = "conv-1";
  p.message_id = "msg-" + id;
  p.account_id = std::move(account);
  p.space_id = "space-1";
  p.calls = ThreeCalls();
  return p;
}

CallReceipt Succeeded(std::string id, json undo = {{"mutation", "task.delete"}}) {
  CallReceipt r;
  r.call_id = std::move(id);
  r.outcome = CallOutcome::kSucceeded;
  r.summary = "done";
  r.undo = std::move(undo);
  return r;
}

CallReceipt Failed(std::string id) {
  CallReceipt r;
  r.call_id = std::move(id);
  r.outcome = CallOutcome::kFailed;
  r.error_code = "SAVE_CONFLICT";
  r.error_message = "the task changed meanwhile";
  return r;
}

CallReceipt Outcome(std::string id, CallOutcome outcome) {
  CallReceipt r;
  r.call_id = std::move(id);
  r.outcome = outcome;
  return r;
}

std::vector<std::string> IdsOf(const std::vector<ProposedCall>& calls) {
  std::vector<std::string> out;
  for (const ProposedCall& c : calls) out.push_back(c.call_id);
  return out;
}

class ProposalStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
  }

  Proposal Save(const std::string& id, const std::string& account = "mira") {
    auto saved = SaveProposal(*db_, NewProposal(id, account), 100);
    EXPECT_TRUE(saved.ok()) << saved.status().ToString();
    return saved.ok() ? saved.value() : Proposal();
  }

  std::unique_ptr<store::SqliteDatabase> db_;
};

TEST(ProposalHash, IgnoresKeyOrderAndCallIdsButNotValues) {
  std::vector<ProposedCall> a = {{"x", "hub_create_task", json::parse(R"({"a":1,"b":[2,3]})")}};
  std::vector<ProposedCall> b = {{"y", "hub_create_task", json::parse(R"({"b":[2,3],"a":1})")}};
  std::vector<ProposedCall> c = {{"x", "hub_create_task", json::parse(R"({"a":1,"b":[3,2]})")}};
  std::vector<ProposedCall> d = {{"x", "hub_update_task", json::parse(R"({"a":1,"b":[2,3]})")}};
  EXPECT_EQ(ProposalHash(a), ProposalHash(b));
  EXPECT_NE(ProposalHash(a), ProposalHash(c));
  EXPECT_NE(ProposalHash(a), ProposalHash(d));
  EXPECT_EQ(ProposalHash(a).size(), 64u);
}

TEST(ProposalHash, CallOrderMatters) {
  auto calls = ThreeCalls();
  const std::string before = ProposalHash(calls);
  std::swap(calls[0], calls[2]);
  EXPECT_NE(ProposalHash(calls), before);
}

TEST_F(ProposalStoreTest, SavesPendingWithItsHashAndReadsBack) {
  Proposal saved = Save("p1");
  EXPECT_EQ(saved.state, ProposalState::kPending);
  EXPECT_EQ(saved.hash, ProposalHash(ThreeCalls()));
  auto read = GetProposal(*db_, "mira", "p1");
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->calls, ThreeCalls());
  EXPECT_EQ(read->hash, saved.hash);
  auto by_message = GetMessageProposal(*db_, "mira", "conv-1", "msg-p1");
  ASSERT_TRUE(by_message.ok());
  EXPECT_EQ(by_message->id, "p1");
}

TEST_F(ProposalStoreTest, RefusesBadCallsAndASecondProposalForOneMessage) {
  Proposal empty = NewProposal("p1");
  empty.calls.clear();
  EXPECT_EQ(SaveProposal(*db_, empty, 1).status().code(), codes::kInvalidArgument);
  Proposal repeated = NewProposal("p1");
  repeated.calls[1].call_id = "c1";
  EXPECT_EQ(SaveProposal(*db_, repeated, 1).status().code(), codes::kInvalidArgument);
  Proposal not_object = NewProposal("p1");
  not_object.calls[0].input = json::array();
  EXPECT_EQ(SaveProposal(*db_, not_object, 1).status().code(), codes::kInvalidArgument);
  Save("p1");
  Proposal again = NewProposal("p2");
  again.message_id = "msg-p1";
  EXPECT_EQ(SaveProposal(*db_, again, 1).status().code(), codes::kAlreadyExists);
}

TEST_F(ProposalStoreTest, AnotherAccountsProposalIsNotFound) {
  Save("p1", "mira");
  EXPECT_EQ(GetProposal(*db_, "omar", "p1").status().code(), codes::kNotFound);
  EXPECT_EQ(GetMessageProposal(*db_, "omar", "conv-1", "msg-p1").status().code(), codes::kNotFound);
  EXPECT_EQ(ClaimForApply(*db_, "omar", "p1", std::nullopt, 200).status().code(), codes::kNotFound);
  EXPECT_EQ(DiscardProposal(*db_, "omar", "p1", 200).code(), codes::kNotFound);
  EXPECT_EQ(MarkUndone(*db_, "omar", "p1", std::nullopt, 200).status().code(), codes::kNotFound);
  // And the owner's claim still works: the refusal changed nothing.
  EXPECT_TRUE(ClaimForApply(*db_, "mira", "p1", std::nullopt, 200).ok());
}

TEST_F(ProposalStoreTest, ClaimsExactlyOnceAmongManySequentialClaims) {
  Save("p1");
  int wins = 0;
  for (int i = 0; i < 50; ++i) {
    auto claim = ClaimForApply(*db_, "mira", "p1", std::nullopt, 200 + i);
    if (claim.ok()) {
      ++wins;
      EXPECT_EQ(IdsOf(claim->to_run), (std::vector<std::string>{"c1", "c2", "c3"}));
      EXPECT_EQ(claim->proposal.state, ProposalState::kApplying);
    } else {
      EXPECT_EQ(claim.status().code(), codes::kFailedPrecondition);
      EXPECT_EQ(claim.status().message(), "this proposal is already being applied");
    }
  }
  EXPECT_EQ(wins, 1);
  ASSERT_TRUE(
      RecordReceipts(*db_, "p1", {{Succeeded("c1"), Succeeded("c2"), Succeeded("c3")}}, 300).ok());
  auto after = ClaimForApply(*db_, "mira", "p1", std::nullopt, 400);
  EXPECT_EQ(after.status().code(), codes::kFailedPrecondition);
  EXPECT_EQ(after.status().message(), "this proposal was already applied");
}

// Each thread has its own connection to one database file, as server
// processes sharing a store do: the conditional UPDATE lets one through.
TEST(ProposalStoreConcurrency, ConcurrentClaimsOnSeparateConnectionsWinOnce) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("ensemble-proposals-" + std::to_string(std::random_device{}()));
  fs::create_directories(dir);
  const std::string path = (dir / "store.db").string();
  {
    auto db = std::move(store::SqliteDatabase::Open(path)).value();
    ASSERT_TRUE(hub::Migrate(*db).ok());
    ASSERT_TRUE(SaveProposal(*db, NewProposal("p1"), 100).ok());
  }
  constexpr int kThreads = 16;
  std::atomic<int> ready{0};
  std::atomic<int> wins{0};
  std::atomic<int> refused{0};
  std::vector<std::string> unexpected(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      auto opened = store::SqliteDatabase::Open(path);
      if (!opened.ok()) {
        unexpected[t] = opened.status().ToString();
        ready.fetch_add(1);
        return;
      }
      auto db = std::move(opened).value();
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();
      auto claim = ClaimForApply(*db, "mira", "p1", std::nullopt, 200 + t);
      if (claim.ok()) {
        wins.fetch_add(1);
      } else if (claim.status().code() == codes::kFailedPrecondition) {
        refused.fetch_add(1);
      } else {
        unexpected[t] = claim.status().ToString();
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const std::string& u : unexpected) EXPECT_EQ(u, "");
  EXPECT_EQ(wins.load(), 1);
  EXPECT_EQ(refused.load(), kThreads - 1);
  std::error_code ec;
  fs::remove_all(dir, ec);
}

TEST_F(ProposalStoreTest, TamperedCallsAreRefusedAndNothingIsClaimed) {
  Save("p1");
  json changed = json::array();
  for (ProposedCall c : ThreeCalls()) {
    if (c.call_id == "c2") c.input["fields"]["status"] = "cancelled";
    changed.push_back({{"callId", c.call_id}, {"tool", c.tool}, {"input", c.input}});
  }
  ASSERT_TRUE(db_->Exec("UPDATE assistant_proposals SET calls = $1 WHERE id = 'p1'",
                        {store::Value(changed.dump())})
                  .ok());
  auto claim = ClaimForApply(*db_, "mira", "p1", std::nullopt, 200);
  EXPECT_EQ(claim.status().code(), codes::kProposalTampered);
  auto stored = GetProposal(*db_, "mira", "p1");
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->state, ProposalState::kPending);
  // A changed hash is refused the same way.
  ASSERT_TRUE(db_->Exec("UPDATE assistant_proposals SET hash = $1 WHERE id = 'p1'",
                        {store::Value(ProposalHash(stored->calls))})
                  .ok());
  EXPECT_TRUE(ClaimForApply(*db_, "mira", "p1", std::nullopt, 200).ok())
      << "the row is consistent again, so this is what a tamperer must forge";
}

TEST_F(ProposalStoreTest, ApplyNeverAcceptsACallThatIsNotOnTheProposal) {
  Save("p1");
  auto claim = ClaimForApply(*db_, "mira", "p1", Ids({{"c1", "c9"}}), 200);
  EXPECT_EQ(claim.status().code(), codes::kInvalidArgument);
  EXPECT_EQ(GetProposal(*db_, "mira", "p1")->state, ProposalState::kPending);
}

TEST_F(ProposalStoreTest, PartialFailureThenRetryRunsOnlyFailedAndUnattempted) {
  Save("p1");
  ASSERT_TRUE(ClaimForApply(*db_, "mira", "p1", std::nullopt, 200).ok());
  auto first = RecordReceipts(
      *db_, "p1", {{Succeeded("c1"), Failed("c2"), Outcome("c3", CallOutcome::kUnattempted)}}, 300);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->state, ProposalState::kPartial);
  EXPECT_EQ(first->Receipt("c2")->error_code, "SAVE_CONFLICT");
  EXPECT_EQ(IdsOf(CallsToRun(*first, std::nullopt)), (std::vector<std::string>{"c2", "c3"}));

  auto retry = ClaimForApply(*db_, "mira", "p1", std::nullopt, 400);
  ASSERT_TRUE(retry.ok()) << retry.status().ToString();
  EXPECT_EQ(IdsOf(retry->to_run), (std::vector<std::string>{"c2", "c3"}));
  // A succeeded call keeps its receipt.
  EXPECT_EQ(RecordProgress(*db_, "p1", {{Failed("c1")}}, 450).code(), codes::kFailedPrecondition);
  auto done = RecordReceipts(*db_, "p1", {{Succeeded("c2"), Succeeded("c3")}}, 500);
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->state, ProposalState::kApplied);
  EXPECT_TRUE(CallsToRun(*done, std::nullopt).empty());
  // Naming a succeeded call does not send it again either.
  EXPECT_TRUE(CallsToRun(*done, Ids({{"c1"}})).empty());
}

TEST_F(ProposalStoreTest, NothingSucceededIsFailedAndCanBeRetried) {
  Save("p1");
  ASSERT_TRUE(ClaimForApply(*db_, "mira", "p1", std::nullopt, 200).ok());
  auto failed = RecordReceipts(*db_, "p1",
                               {{Failed("c1"), Outcome("c2", CallOutcome::kUnattempted),
                                 Outcome("c3", CallOutcome::kUnattempted)}},
                               300);
  ASSERT_TRUE(failed.ok());
  EXPECT_EQ(failed->state, ProposalState::kFailed);
  auto retry = ClaimForApply(*db_, "mira", "p1", std::nullopt, 400);
  ASSERT_TRUE(retry.ok());
  EXPECT_EQ(retry->to_run.size(), 3u);
}

TEST_F(ProposalStoreTest, ApplyingOneCallLeavesTheRestForLater) {
  Save("p1");
  auto claim = ClaimForApply(*db_, "mira", "p1", Ids({{"c2"}}), 200);
  ASSERT_TRUE(claim.ok());
  EXPECT_EQ(IdsOf(claim->to_run), (std::vector<std::string>{"c2"}));
  auto after = RecordReceipts(*db_, "p1", {{Succeeded("c2")}}, 300);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->state, ProposalState::kPartial);
  auto rest = ClaimForApply(*db_, "mira", "p1", std::nullopt, 400);
  ASSERT_TRUE(rest.ok());
  EXPECT_EQ(IdsOf(rest->to_run), (std::vector<std::string>{"c1", "c3"}));
}

TEST_F(ProposalStoreTest, ReceiptsOutsideAnApplyAreRefused) {
  Save("p1");
  EXPECT_EQ(RecordReceipts(*db_, "p1", {{Succeeded("c1")}}, 300).status().code(),
            codes::kFailedPrecondition);
  ASSERT_TRUE(ClaimForApply(*db_, "mira", "p1", std::nullopt, 200).ok());
  EXPECT_EQ(RecordReceipts(*db_, "p1", {{Succeeded("c9")}}, 300).status().code(),
            codes::kInvalidArgument);
}

TEST_F(ProposalStoreTest, ACallCutOffWhileRunningIsNeverResentWithoutThePerson) {
  Save("p1");
  ASSERT_TRUE(ClaimForApply(*db_, "mira", "p1", std::nullopt, 200).ok());
  ASSERT_TRUE(
      RecordProgress(*db_, "p1", {{Succeeded("c1"), Outcome("c2", CallOutcome::kRunning)}}, 250)
          .ok());
  // The process died here; the proposal stays applying until recovered.
  EXPECT_EQ(ClaimForApply(*db_, "mira", "p1", std::nullopt, 260).status().message(),
            "this proposal is already being applied");
  auto recovered = RecoverInterrupted(*db_, "p1", 300);
  ASSERT_TRUE(recovered.ok()) << recovered.status().ToString();
  EXPECT_EQ(recovered->state, ProposalState::kPartial);
  EXPECT_EQ(recovered->Receipt("c2")->outcome, CallOutcome::kInterrupted);
  EXPECT_EQ(IdsOf(CallsToRun(*recovered, std::nullopt)), (std::vector<std::string>{"c3"}));
  auto chosen = ClaimForApply(*db_, "mira", "p1", Ids({{"c2", "c3"}}), 400);
  ASSERT_TRUE(chosen.ok());
  EXPECT_EQ(IdsOf(chosen->to_run), (std::vector<std::string>{"c2", "c3"}));
}

TEST_F(ProposalStoreTest, DiscardedProposalsCannotBeApplied) {
  Save("p1");
  ASSERT_TRUE(DiscardProposal(*db_, "mira", "p1", 200).ok());
  auto claim = ClaimForApply(*db_, "mira", "p1", std::nullopt, 300);
  EXPECT_EQ(claim.status().message(), "this proposal was discarded");
  EXPECT_EQ(DiscardProposal(*db_, "mira", "p1", 300).code(), codes::kFailedPrecondition);
}

TEST_F(ProposalStoreTest, UndoMarksTheGroupOnceInReverseOrderAndRedoRestoresIt) {
  Save("p1");
  ASSERT_TRUE(ClaimForApply(*db_, "mira", "p1", std::nullopt, 200).ok());
  ASSERT_TRUE(
      RecordReceipts(*db_, "p1", {{Succeeded("c1"), Succeeded("c2", json()), Succeeded("c3")}}, 300)
          .ok());
  auto undo = MarkUndone(*db_, "mira", "p1", std::nullopt, 400);
  ASSERT_TRUE(undo.ok()) << undo.status().ToString();
  // c2 has no undo entry, so it is not part of the group's Undo.
  ASSERT_EQ(undo->size(), 2u);
  EXPECT_EQ((*undo)[0].call.call_id, "c3");
  EXPECT_EQ((*undo)[1].call.call_id, "c1");
  EXPECT_EQ((*undo)[0].receipt.undo, (json{{"mutation", "task.delete"}}));
  auto twice = MarkUndone(*db_, "mira", "p1", std::nullopt, 410);
  EXPECT_EQ(twice.status().message(), "nothing to undo");
  EXPECT_TRUE(GetProposal(*db_, "mira", "p1")->Receipt("c1")->undone);

  auto redo = MarkRedone(*db_, "mira", "p1", Ids({{"c1"}}), 500);
  ASSERT_TRUE(redo.ok());
  ASSERT_EQ(redo->size(), 1u);
  EXPECT_EQ((*redo)[0].call.call_id, "c1");
  ASSERT_TRUE(
      SetUndoEntry(*db_, "p1", "c1", {{"mutation", "task.delete"}, {"id", "t9"}}, 510).ok());
  auto stored = GetProposal(*db_, "mira", "p1");
  EXPECT_FALSE(stored->Receipt("c1")->undone);
  EXPECT_TRUE(stored->Receipt("c3")->undone);
  EXPECT_EQ(stored->Receipt("c1")->undo["id"], "t9");
}

TEST_F(ProposalStoreTest, UndoOfAPendingProposalHasNothingToUndo) {
  Save("p1");
  EXPECT_EQ(MarkUndone(*db_, "mira", "p1", std::nullopt, 200).status().code(),
            codes::kFailedPrecondition);
}

TEST_F(ProposalStoreTest, CallsThatRanAtOnceAreSavedSucceededAndUndoLikeAppliedOnes) {
  Proposal all_ran = NewProposal("p1");
  for (const ProposedCall& c : all_ran.calls) all_ran.receipts.push_back(Succeeded(c.call_id));
  auto saved = SaveProposal(*db_, all_ran, 100);
  ASSERT_TRUE(saved.ok()) << saved.status().ToString();
  EXPECT_EQ(saved->state, ProposalState::kApplied);
  auto undone = MarkUndone(*db_, "mira", "p1", Ids({{"c2"}}), 101);
  ASSERT_TRUE(undone.ok()) << undone.status().ToString();
  ASSERT_EQ(undone->size(), 1u);
  EXPECT_EQ((*undone)[0].call.call_id, "c2");

  // One ran, two wait: pending, Apply runs only the two, and the one that
  // ran can be undone before the rest is applied.
  Proposal mixed = NewProposal("p2");
  mixed.receipts = {Succeeded("c1")};
  saved = SaveProposal(*db_, mixed, 100);
  ASSERT_TRUE(saved.ok());
  EXPECT_EQ(saved->state, ProposalState::kPending);
  EXPECT_EQ(IdsOf(CallsToRun(*saved, std::nullopt)), (std::vector<std::string>{"c2", "c3"}));
  EXPECT_TRUE(MarkUndone(*db_, "mira", "p2", std::nullopt, 101).ok());
  EXPECT_EQ(MarkUndone(*db_, "mira", "p2", std::nullopt, 102).status().code(),
            codes::kFailedPrecondition);

  for (std::vector<CallReceipt> bad :
       {std::vector<CallReceipt>{Failed("c1")}, std::vector<CallReceipt>{Succeeded("nope")},
        std::vector<CallReceipt>{Succeeded("c1"), Succeeded("c1")}}) {
    Proposal p = NewProposal("p3");
    p.receipts = bad;
    EXPECT_EQ(SaveProposal(*db_, p, 100).status().code(), codes::kInvalidArgument);
  }
}

TEST_F(ProposalStoreTest, WorkflowStepsTravelInTheReceipt) {
  Save("p1");
  ASSERT_TRUE(ClaimForApply(*db_, "mira", "p1", std::nullopt, 200).ok());
  CallReceipt wf = Failed("c1");
  wf.steps = json::array({{{"id", "a"}, {"state", "succeeded"}, {"result", {{"id", "t1"}}}}});
  ASSERT_TRUE(RecordProgress(*db_, "p1", {{wf}}, 250).ok());
  auto stored = GetProposal(*db_, "mira", "p1");
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(*stored->Receipt("c1"), wf);
}

TEST_F(ProposalStoreTest, AConversationsProposalsAreListedForItsAccountOnly) {
  Save("p1");
  Save("p2");
  Save("p3", "ada");  // Another account's, on the same conversation id.
  auto listed = ListConversationProposals(*db_, "mira", "conv-1");
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].id, "p1");
  EXPECT_EQ((*listed)[1].message_id, "msg-p2");
  EXPECT_EQ((*listed)[1].calls, ThreeCalls());
  EXPECT_TRUE(ListConversationProposals(*db_, "mira", "conv-2")->empty());
}

TEST_F(ProposalStoreTest, DeletingAConversationsProposalsRemovesThem) {
  Save("p1");
  ASSERT_TRUE(DeleteConversationProposals(*db_, "conv-1").ok());
  EXPECT_EQ(GetProposal(*db_, "mira", "p1").status().code(), codes::kNotFound);
}

// The Needs me list: only needs-me proposals still pending, newest first, on
// the account's own conversations, with the preview the reply showed.
TEST_F(ProposalStoreTest, ApprovalsListWhatWaitsOnNeedsMe) {
  ASSERT_TRUE(CreateConversation(*db_, "conv-1", "space-1", "mira", "Plans", 1).ok());
  ASSERT_TRUE(CreateConversation(*db_, "conv-2", "space-1", "ada", "Hers", 1).ok());
  StoredMessage reply;
  reply.id = "msg-p2";
  reply.conversation_id = "conv-1";
  reply.role = MessageRole::kAssistant;
  reply.tool_calls = {{{"id", "c1"}, {"name", "hub_create_task"}, {"preview", "Add Draft it"}}};
  ASSERT_TRUE(AppendMessage(*db_, reply).ok());
  auto save = [this](const std::string& id, WaitsOn waits, int64_t at, std::string account = "mira",
                     std::string conversation = "conv-1") {
    Proposal p = NewProposal(id, std::move(account));
    p.conversation_id = std::move(conversation);
    p.waits_on = waits;
    ASSERT_TRUE(SaveProposal(*db_, p, at).ok());
  };
  save("p1", WaitsOn::kNeedsMe, 10);
  save("p2", WaitsOn::kNeedsMe, 20);
  save("p3", WaitsOn::kChat, 30);
  save("p4", WaitsOn::kNeedsMe, 40);
  save("p5", WaitsOn::kNeedsMe, 50, "ada", "conv-2");
  // Another account's proposal naming mira's conversation is never hers.
  save("p6", WaitsOn::kNeedsMe, 60, "ada", "conv-1");
  ASSERT_TRUE(DiscardProposal(*db_, "mira", "p4", 41).ok());
  EXPECT_EQ(GetProposal(*db_, "mira", "p1")->waits_on, WaitsOn::kNeedsMe);
  EXPECT_EQ(GetProposal(*db_, "mira", "p3")->waits_on, WaitsOn::kChat);

  auto listed = ListApprovals(*db_, "mira");
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].proposal_id, "p2");
  EXPECT_EQ((*listed)[0].message_id, "msg-p2");
  EXPECT_EQ((*listed)[0].conversation_id, "conv-1");
  EXPECT_EQ((*listed)[0].created_at, 20);
  ASSERT_EQ((*listed)[0].calls.size(), 3u);
  EXPECT_EQ((*listed)[0].calls[0].call_id, "c1");
  EXPECT_EQ((*listed)[0].calls[0].tool, "hub_create_task");
  EXPECT_EQ((*listed)[0].calls[0].summary, "Add Draft it");
  // Without a saved preview, the readable preview of the call.
  EXPECT_NE((*listed)[0].calls[2].summary.find("Send the plan"), std::string::npos)
      << (*listed)[0].calls[2].summary;
  EXPECT_EQ((*listed)[1].proposal_id, "p1");

  // Claimed for Apply: no longer waiting.
  ASSERT_TRUE(ClaimForApply(*db_, "mira", "p2", std::nullopt, 70).ok());
  listed = ListApprovals(*db_, "mira");
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].proposal_id, "p1");
  listed = ListApprovals(*db_, "ada");
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].proposal_id, "p5");
}

}  // namespace
}  // namespace ensemble::core::assistant
