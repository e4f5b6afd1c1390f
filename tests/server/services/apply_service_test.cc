// POST /api/assistant/apply, /undo, /redo and /discard on the in-process
// server, on both stores: exactly one execution for many concurrent
// Applies, Retry after a partial failure, a tampered proposal refused, Undo
// and Redo, Dismiss, bad bodies.

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "core/assistant/conversation_store.h"
#include "core/assistant/proposal_store.h"
#include "core/base/status.h"
#include "server/services/auth_service.h"
#include "tests/core/connections/calendar_feed.h"
#include "tests/server/connectors/feed_server.h"
#include "tests/server/server_fixture.h"

namespace ensemble::testing {
namespace {

using core::assistant::ProposedCall;
using nlohmann::json;
namespace codes = core::codes;

constexpr int kConcurrentApplies = 50;
constexpr char kSpace[] = "space-1";
constexpr int64_t kNow = 1'764'000'000'000;

class ApplyRoutes : public ServerTest {
 protected:
  // A conversation whose message `message_id` proposed `calls`.
  void Propose(const std::string& message_id, std::vector<ProposedCall> calls,
               core::assistant::WaitsOn waits_on = core::assistant::WaitsOn::kChat) {
    const std::string local = server::services::kLocalAccountId;
    if (!core::assistant::GetConversation(store(), local, "conv-1").ok()) {
      ASSERT_TRUE(
          core::assistant::CreateConversation(store(), "conv-1", kSpace, local, "Plans", kNow)
              .ok());
    }
    core::assistant::StoredMessage m;
    m.id = message_id;
    m.conversation_id = "conv-1";
    m.role = core::assistant::MessageRole::kAssistant;
    m.text = "I can add these; apply to go ahead.";
    m.created_at = kNow;
    ASSERT_TRUE(core::assistant::AppendMessage(store(), m).ok());
    core::assistant::Proposal p;
    p.id = "prop-" + message_id;
    p.conversation_id = "conv-1";
    p.message_id = message_id;
    p.account_id = local;
    p.space_id = kSpace;
    p.calls = std::move(calls);
    p.waits_on = waits_on;
    auto saved = core::assistant::SaveProposal(store(), p, kNow);
    ASSERT_TRUE(saved.ok()) << saved.status().ToString();
  }

  HttpReply Post(const std::string& route, const std::string& message_id, json call_ids = nullptr) {
    json body = {{"conversationId", "conv-1"}, {"messageId", message_id}};
    if (!call_ids.is_null()) body["callIds"] = call_ids;
    return client().PostJson("/api/assistant/" + route, body);
  }

  static ProposedCall Create(std::string id, std::string title) {
    return {std::move(id), "hub_create_tasks", {{"tasks", {{{"title", std::move(title)}}}}}};
  }
};

TEST_P(ApplyRoutes, FiftyConcurrentAppliesRunTheProposalOnce) {
  Propose("m1", {Create("c1", "Book the venue"), Create("c2", "Order badges")});
  std::atomic<int> applied{0}, refused{0}, other{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kConcurrentApplies; ++i) {
    threads.emplace_back([&] {
      HttpReply r = Post("apply", "m1");
      if (r.status == 200 && r.json()["state"] == "applied") {
        ++applied;
      } else if (r.status == 409) {
        ++refused;
      } else {
        ++other;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(applied.load(), 1);
  EXPECT_EQ(refused.load(), kConcurrentApplies - 1);
  EXPECT_EQ(other.load(), 0);
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks WHERE title = 'Book the venue'"), 1);
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks"), 2);
  // Written as server changes: every device pulls them.
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks WHERE row_version > 0"), 2);
}

TEST_P(ApplyRoutes, ReceiptsSeparateWhatHappenedAndRetrySendsOnlyTheRest) {
  Propose("m0", {Create("s", "Parked")});
  ASSERT_EQ(Post("apply", "m0").status, 200);
  auto id = store().Query("SELECT id FROM tasks WHERE title = 'Parked'");
  const std::string parked = core::store::AsText(id->rows[0][0]);
  ASSERT_TRUE(store().Exec("UPDATE tasks SET deleted = 1 WHERE id = '" + parked + "'").ok());

  Propose("m2", {Create("c1", "First"),
                 {"c2", "hub_update_task", {{"id", parked}, {"fields", {{"status", "done"}}}}},
                 Create("c3", "Third")});
  HttpReply first = Post("apply", "m2");
  ASSERT_EQ(first.status, 200) << first.body();
  const json receipts = first.json()["receipts"];
  EXPECT_EQ(first.json()["state"], "partial");
  EXPECT_EQ(receipts[0]["outcome"], "succeeded");
  EXPECT_EQ(receipts[1]["outcome"], "failed");
  EXPECT_EQ(receipts[1]["error"]["code"], codes::kRecordDeleted);
  EXPECT_EQ(receipts[2]["outcome"], "unattempted");

  ASSERT_TRUE(store().Exec("UPDATE tasks SET deleted = 0 WHERE id = '" + parked + "'").ok());
  HttpReply retry = Post("apply", "m2");
  ASSERT_EQ(retry.status, 200) << retry.body();
  EXPECT_EQ(retry.json()["state"], "applied");
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks WHERE title = 'First'"), 1);  // Not twice.
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks WHERE title = 'Third'"), 1);
  EXPECT_EQ(Post("apply", "m2").status, 409);  // Nothing left to apply.
}

TEST_P(ApplyRoutes, ATamperedProposalIsRefusedAndRunsNothing) {
  Propose("m3", {Create("c1", "Draft brief")});
  ASSERT_TRUE(store()
                  .Exec("UPDATE assistant_proposals SET calls = REPLACE(calls, 'Draft brief', "
                        "'Delete everything') WHERE message_id = 'm3'")
                  .ok());
  HttpReply r = Post("apply", "m3");
  EXPECT_EQ(r.status, 409) << r.body();
  EXPECT_EQ(r.json()["error"]["code"], codes::kProposalTampered);
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks"), 0);
}

// hub_import_people end to end: the calendar link is read over loopback when
// Apply runs, only the addresses the proposal pinned are added, as server
// changes, and the connection then reads as connected.
TEST_P(ApplyRoutes, ImportPeopleReadsTheCalendarLinkWhenApplied) {
  FeedServer feed;
  feed.Set("/secret-token/basic.ics",
           {200, calendar_feed_test::Feed({{"20251125T100000Z",
                                            "lead@example.com",
                                            {{"mira@example.com", "Mira Chen"},
                                             {"cy@example.com", "Cy Park"},
                                             {"eve@example.com", "Eve"}}}})});
  HttpReply added =
      client().PostJson("/api/connections", {{"spaceId", kSpace},
                                             {"app", "calendar-link"},
                                             {"name", "Work calendar"},
                                             {"url", feed.Url("/secret-token/basic.ics")}});
  ASSERT_EQ(added.status, 201) << added.body();
  const std::string id = added.json()["connection"]["id"];
  Propose("m-import",
          {{"c1",
            "hub_import_people",
            {{"connectionId", id}, {"emails", {"mira@example.com", "cy@example.com"}}}}});
  HttpReply applied = Post("apply", "m-import");
  ASSERT_EQ(applied.status, 200) << applied.body();
  EXPECT_EQ(applied.json()["state"], "applied") << applied.body();
  EXPECT_EQ(applied.json()["receipts"][0]["summary"],
            "Brought in 2 people from \u201CWork calendar\u201D.");
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM people WHERE space_id = 'space-1' AND row_version > 0"),
            2);
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM people WHERE email = 'eve@example.com'"), 0);
  EXPECT_GE(feed.requests(), 1);
  HttpReply list = client().Get("/api/connections?spaceId=space-1");
  ASSERT_EQ(list.status, 200) << list.body();
  EXPECT_EQ(list.json()["connections"][0]["status"], "connected");
  // The people it added are Hub records: Undo takes them back.
  HttpReply undo = Post("undo", "m-import");
  ASSERT_EQ(undo.status, 200) << undo.body();
  EXPECT_EQ(undo.json()["receipts"][0]["undone"], true);
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM people WHERE space_id = 'space-1' AND deleted = 0"), 0);
}

TEST_P(ApplyRoutes, UndoThenRedo) {
  Propose("m4", {Create("c1", "Call Mira")});
  ASSERT_EQ(Post("apply", "m4").status, 200);
  HttpReply undo = Post("undo", "m4");
  ASSERT_EQ(undo.status, 200) << undo.body();
  EXPECT_EQ(undo.json()["receipts"][0]["undone"], true);
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks WHERE deleted = 0"), 0);
  EXPECT_EQ(Post("undo", "m4").status, 409);  // Nothing to undo.
  HttpReply redo = Post("redo", "m4");
  ASSERT_EQ(redo.status, 200) << redo.body();
  EXPECT_EQ(redo.json()["receipts"][0]["undone"], false);
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks WHERE deleted = 0 AND title = 'Call Mira'"), 1);
}

// Each area's writes through the server's Apply and Undo, not only tasks':
// one proposal makes a record of every kind, a second changes three of
// them, and Undo takes each group back (a board keeps what it was given: the
// spec gives board changes no Undo).
TEST_P(ApplyRoutes, EachAreasWritesApplyAndUndoThroughTheServer) {
  Propose("m6", {{"c1", "hub_create_project", {{"title", "Launch"}}},
                 {"c2", "hub_create_page", {{"title", "Notes"}, {"body", "First"}}},
                 {"c3", "hub_create_person", {{"name", "Mira"}}},
                 {"c4", "hub_create_reminder", {{"text", "Call"}, {"at", "2030-01-02T09:00:00Z"}}},
                 {"c5",
                  "hub_create_routine",
                  {{"title", "Digest"},
                   {"instruction", "Sum up the week"},
                   {"schedule", {{"frequency", "daily"}, {"time", "08:00"}}}}},
                 {"c6", "hub_create_desk_list", {{"title", "Errands"}, {"lines", {"Milk"}}}},
                 {"c7", "hub_create_board", {{"title", "Roadmap"}}}});
  HttpReply made = Post("apply", "m6");
  ASSERT_EQ(made.status, 200) << made.body();
  ASSERT_EQ(made.json()["state"], "applied") << made.body();
  const char* tables[] = {"projects", "pages", "people", "reminders", "routines", "desk_lists"};
  for (const char* table : tables) {
    EXPECT_EQ(QueryInt(std::string("SELECT COUNT(*) FROM ") + table +
                       " WHERE deleted = 0 AND row_version > 0"),
              1)
        << table;
  }
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM boards WHERE deleted = 0"), 1);

  auto id_of = [this](const std::string& sql) {
    auto rows = store().Query(sql);
    return rows.ok() && !rows->empty() ? core::store::AsText(rows->rows[0][0]) : std::string();
  };
  const std::string project = id_of("SELECT id FROM projects");
  const std::string page = id_of("SELECT id FROM pages");
  const std::string person = id_of("SELECT id FROM people");
  Propose("m7", {{"c1", "hub_update_project", {{"id", project}, {"fields", {{"title", "Go"}}}}},
                 {"c2",
                  "hub_update_page",
                  {{"id", page}, {"revision", 1}, {"mode", "append"}, {"body", "Second"}}},
                 {"c3", "hub_update_person", {{"id", person}, {"fields", {{"role", "Lead"}}}}}});
  HttpReply changed = Post("apply", "m7");
  ASSERT_EQ(changed.status, 200) << changed.body();
  ASSERT_EQ(changed.json()["state"], "applied") << changed.body();
  EXPECT_EQ(id_of("SELECT title FROM projects"), "Go");
  EXPECT_EQ(id_of("SELECT role FROM people"), "Lead");
  EXPECT_NE(id_of("SELECT body FROM pages").find("Second"), std::string::npos);

  HttpReply undo_changes = Post("undo", "m7");
  ASSERT_EQ(undo_changes.status, 200) << undo_changes.body();
  EXPECT_EQ(id_of("SELECT title FROM projects"), "Launch");
  EXPECT_EQ(id_of("SELECT role FROM people"), "");
  EXPECT_EQ(id_of("SELECT body FROM pages").find("Second"), std::string::npos);

  HttpReply undo_made = Post("undo", "m6");
  ASSERT_EQ(undo_made.status, 200) << undo_made.body();
  for (const char* table : tables) {
    EXPECT_EQ(QueryInt(std::string("SELECT COUNT(*) FROM ") + table + " WHERE deleted = 0"), 0)
        << table;
  }
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM boards WHERE deleted = 0"), 1);
}

TEST_P(ApplyRoutes, ADiscardedProposalLeavesNeedsMeAndRunsNothing) {
  Propose("m6", {Create("c1", "Not this one")}, core::assistant::WaitsOn::kNeedsMe);
  Propose("m7", {Create("c1", "This one")}, core::assistant::WaitsOn::kNeedsMe);
  HttpReply discarded = Post("discard", "m6");
  ASSERT_EQ(discarded.status, 200) << discarded.body();
  EXPECT_EQ(discarded.json()["state"], "discarded");
  json approvals = client().Get("/api/assistant/approvals").json()["approvals"];
  ASSERT_EQ(approvals.size(), 1u) << approvals;
  EXPECT_EQ(approvals[0]["messageId"], "m7");
  // Set aside for good: Apply refuses it and nothing is made.
  EXPECT_EQ(Post("apply", "m6").error_code(), codes::kFailedPrecondition);
  EXPECT_EQ(Post("discard", "m6").error_code(), codes::kFailedPrecondition);
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks"), 0);
  // An applied proposal is not discarded after the fact.
  ASSERT_EQ(Post("apply", "m7").status, 200);
  EXPECT_EQ(Post("discard", "m7").error_code(), codes::kFailedPrecondition);
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks WHERE title = 'This one'"), 1);
  EXPECT_EQ(Post("discard", "nope").status, 404);
}

TEST_P(ApplyRoutes, BadRequestsGetStableCodesAndChangeNothing) {
  Propose("m5", {Create("c1", "Only this")});
  EXPECT_EQ(client().Post("/api/assistant/apply", "{not json").status, 400);
  EXPECT_EQ(client().PostJson("/api/assistant/apply", {{"messageId", "m5"}}).status, 400);
  EXPECT_EQ(Post("apply", "nope").status, 404);
  // Apply never takes a new call: only ids saved on the proposal.
  HttpReply unknown = Post("apply", "m5", json::array({"call_made_up"}));
  EXPECT_EQ(unknown.status, 400) << unknown.body();
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks"), 0);
  EXPECT_EQ(Post("apply", "m5", json::array({"c1"})).status, 200);
}

INSTANTIATE_TEST_SUITE_P(Stores, ApplyRoutes,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
