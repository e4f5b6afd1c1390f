// Network reads never run on the store's worker (docs/SECURITY.md, "Hostile
// model answers and heavy requests"): the embedded store has one, so while
// one person's calendar link is held open by its server, another account's
// pushes still answer at once, and the held Apply finishes once the
// calendar answers.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "core/assistant/conversation_store.h"
#include "core/assistant/proposal_store.h"
#include "tests/core/connections/calendar_feed.h"
#include "tests/server/accounts_fixture.h"
#include "tests/server/connectors/feed_server.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;
namespace bhttp = boost::beast::http;

constexpr int64_t kNow = 1'764'000'000'000;
constexpr int kPushes = 5;
constexpr auto kQuickPush = std::chrono::milliseconds(100);
constexpr auto kReadArrives = std::chrono::seconds(10);

class SlowLinks : public AccountsServerTest {
 protected:
  void Configure(server::Config& config) override {
    config.accounts = true;
    config.open_signup = true;
    config.private_links = true;  // The calendar is on loopback.
  }

  // `m`'s assistant message "m1" in `space`, proposing `call`.
  void Propose(const Member& m, const std::string& space, core::assistant::ProposedCall call) {
    ASSERT_TRUE(
        core::assistant::CreateConversation(store(), "conv-1", space, m.account_id, "Plans", kNow)
            .ok());
    core::assistant::StoredMessage message;
    message.id = "m1";
    message.conversation_id = "conv-1";
    message.role = core::assistant::MessageRole::kAssistant;
    message.text = "I can bring them in; apply to go ahead.";
    message.created_at = kNow;
    ASSERT_TRUE(core::assistant::AppendMessage(store(), message).ok());
    core::assistant::Proposal p;
    p.id = "prop-1";
    p.conversation_id = "conv-1";
    p.message_id = "m1";
    p.account_id = m.account_id;
    p.space_id = space;
    p.calls = {std::move(call)};
    ASSERT_TRUE(core::assistant::SaveProposal(store(), p, kNow).ok());
  }
};

TEST_P(SlowLinks, AHeldCalendarReadStallsNoOtherAccount) {
  FeedServer feed;
  feed.Set("/secret/held.ics", {200, calendar_feed_test::Feed({{"20251125T100000Z",
                                                                "lead@example.com",
                                                                {{"mira@example.com", "Mira"},
                                                                 {"cy@example.com", "Cy"}}}})});
  Member ana = SignedUp("ana@example.org");
  Member bo = SignedUp("bo@example.org");
  const std::string anas = MakeSpace(ana, "Ana's");
  const std::string bos = MakeSpace(bo, "Bo's");
  HttpReply added = Call(ana, bhttp::verb::post, "/api/connections",
                         {{"spaceId", anas},
                          {"app", "calendar-link"},
                          {"name", "Work calendar"},
                          {"url", feed.Url("/secret/held.ics")}});
  ASSERT_EQ(added.status, 201) << added.body();
  Propose(ana, anas,
          {"c1",
           "hub_import_people",
           {{"connectionId", added.json()["connection"]["id"]},
            {"emails", {"mira@example.com", "cy@example.com"}}}});

  feed.Hold();
  HttpReply applied;
  std::thread apply([&] {
    applied = Call(ana, bhttp::verb::post, "/api/assistant/apply",
                   {{"conversationId", "conv-1"}, {"messageId", "m1"}});
  });
  ASSERT_TRUE(feed.WaitUntilHolding(kReadArrives));

  auto fastest = std::chrono::steady_clock::duration::max();
  for (int i = 0; i < kPushes; ++i) {
    const std::string id = "01JS000000000000000000000" + std::to_string(i);
    json body = {
        {"clientGroupId", "bo-g"},
        {"clientId", "bo-c"},
        {"mutations",
         {{{"id", i + 1},
           {"name", "task.create"},
           {"args", {{"id", id}, {"spaceId", bos}, {"title", "Plan " + std::to_string(i)}}},
           {"clientTime", kNow}}}}};
    const auto start = std::chrono::steady_clock::now();
    HttpReply pushed = Call(bo, bhttp::verb::post, "/api/sync/push", body);
    fastest = std::min(fastest, std::chrono::steady_clock::now() - start);
    ASSERT_EQ(pushed.status, 200) << pushed.body();
    EXPECT_EQ(pushed.json()["results"][0]["status"], "applied") << pushed.body();
  }
  // Every push answered while Ana's read was still held open.
  EXPECT_TRUE(feed.holding());
  EXPECT_LT(fastest, kQuickPush);

  feed.Release();
  apply.join();
  ASSERT_EQ(applied.status, 200) << applied.body();
  EXPECT_EQ(applied.json()["state"], "applied") << applied.body();
  EXPECT_EQ(QueryInt(store(), "SELECT COUNT(*) FROM people WHERE space_id = '" + anas + "'"), 2);
  EXPECT_EQ(QueryInt(store(), "SELECT COUNT(*) FROM tasks WHERE space_id = '" + bos + "'"),
            kPushes);
  EXPECT_EQ(feed.requests(), 1);  // Read once, then kept for the run.
}

INSTANTIATE_TEST_SUITE_P(Security, SlowLinks, ::testing::Values(StoreKind::kSqlite),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
