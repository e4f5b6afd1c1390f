// The connected-app tools' hooks (core/connections/connection_tool_runs.h):
// hub_list_connections lists the asker's own connections and their state;
// hub_import_people previews a calendar's people, pins their addresses, and
// on Apply adds the new ones (an address already saved reuses that person)
// with an Undo; an address the model adds that is not in the app, a read that
// fails and a turn without a reader are each a clear error.

#include "core/connections/connection_tool_runs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/connections/connection.h"
#include "core/people/person.h"
#include "core/sync/authorization.h"
#include "tests/core/connections/calendar_feed.h"
#include "tests/core/tools/record_tool_fixture.h"
#include "tests/fakes/fake_app_reader.h"

namespace ensemble::core::connections {
namespace {

using calendar_feed_test::Feed;
using nlohmann::json;
using ::testing::HasSubstr;

class ConnectionToolRunsTest : public tools::RecordToolTest {
 protected:
  void SetUp() override {
    tools::RecordToolTest::SetUp();
    ASSERT_TRUE(sync::SetMember(*db_, kSpace, "ana", sync::Role::kOwner).ok());
    ASSERT_TRUE(sync::SetMember(*db_, kSpace, "bo", sync::Role::kEditor).ok());
    ctx_.account_id = "ana";
    ctx_.own_email = "ana@example.com";
    ctx_.app_reader = &reader_;
    Connect("work", "Work calendar", "ana");
    reader_.SetFeed("work", Feed({{"20261201T100000Z",
                                   "ana@example.com",
                                   {{"mira@example.com", "Mira Chen"},
                                    {"bo@example.com", "Bo Li"},
                                    {"Cy@Example.com", "Cy Park"}}}}));
  }

  void Connect(const std::string& id, const std::string& name, const std::string& account,
               const std::string& space = kSpace) {
    connections::Connection c;
    c.id = id;
    c.space_id = space;
    c.account_id = account;
    c.app = std::string(connections::kCalendarLinkApp);
    c.name = name;
    c.created_at = kNow;
    ASSERT_TRUE(connections::AddConnection(*db_, c, "sealed").ok());
  }

  int64_t People() {
    auto rows = db_->Query("SELECT COUNT(*) FROM people WHERE deleted = 0", {});
    return rows.ok() ? store::AsInt(rows->rows[0][0]) : -1;
  }

  testing::FakeAppReader reader_;
};

TEST_F(ConnectionToolRunsTest, BothToolsHaveTheirHooks) {
  EXPECT_TRUE(Tool("hub_list_connections").run);
  EXPECT_TRUE(Tool("hub_import_people").prepare);
  EXPECT_TRUE(Tool("hub_import_people").preview);
  EXPECT_TRUE(Tool("hub_import_people").run);
}

TEST_F(ConnectionToolRunsTest, ListNamesTheAskersOwnConnectionsOnly) {
  Connect("bos", "Bo's calendar", "bo");
  json r = Ok("hub_list_connections", json::object());
  EXPECT_EQ(
      r["summary"],
      "1 app is connected: \u201CWork calendar\u201D (Calendar link, connected, not read yet).");
  ASSERT_EQ(r["data"]["connections"].size(), 1u);
  EXPECT_EQ(r["data"]["connections"][0]["id"], "work");
  EXPECT_EQ(r["data"]["connections"][0]["appName"], "Calendar link");
  EXPECT_THAT(r["data"]["connections"][0]["reachedBy"].get<std::string>(),
              HasSubstr("hub_import_people"));
  EXPECT_EQ(r.dump().find("sealed"), std::string::npos);

  json none = Ok("hub_list_connections", {{"app", "jira"}});
  EXPECT_EQ(none["summary"],
            "No apps are connected in this space matching \u201Cjira\u201D. Any other app is not "
            "connected; apps are connected in Settings \u2192 Connections.");

  ctx_.account_id = "bo";  // An editor of Ana's space sees only their own.
  json bos = Ok("hub_list_connections", json::object());
  ASSERT_EQ(bos["data"]["connections"].size(), 1u);
  EXPECT_EQ(bos["data"]["connections"][0]["id"], "bos");
}

TEST_F(ConnectionToolRunsTest, ImportPreviewsPinsAddsTheNewAndUndoRemovesThem) {
  const std::string bo = Seed("person", {{"name", "Bo"}, {"email", "BO@example.com"}});
  json prepared;
  auto preview = Preview("hub_import_people", {{"connectionId", "work"}}, &prepared);
  ASSERT_TRUE(preview.ok()) << preview.status().ToString();
  EXPECT_EQ(*preview,
            "Bring in 3 people from \u201CWork calendar\u201D: 2 new (\u201CCy Park\u201D, "
            "\u201CMira Chen\u201D), 1 already saved.");
  EXPECT_EQ(prepared, json({{"connectionId", "work"},
                            {"emails", {"bo@example.com", "cy@example.com", "mira@example.com"}}}));

  json r = Ok("hub_import_people", prepared);
  EXPECT_EQ(r["summary"],
            "Brought in 2 people from \u201CWork calendar\u201D. 1 person was already saved.");
  EXPECT_EQ(People(), 3);
  ASSERT_EQ(r["data"]["added"].size(), 2u);
  EXPECT_EQ(r["data"]["alreadySaved"][0]["id"], bo);
  const std::string cy = r["data"]["added"][0]["id"];
  EXPECT_EQ(Row(people::kPersonKind, cy)["name"], "Cy Park");
  EXPECT_EQ(Row(people::kPersonKind, cy)["email"], "cy@example.com");

  auto again = Preview("hub_import_people", {{"connectionId", "work"}});
  ASSERT_TRUE(again.ok());
  EXPECT_THAT(*again, HasSubstr("0 new, 3 already saved"));

  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_EQ(People(), 1);
  // The connection now reads as connected.
  EXPECT_EQ(connections::GetConnection(*db_, kSpace, "ana", "work")->status, "connected");
}

TEST_F(ConnectionToolRunsTest, ApplyBringsInOnlyPinnedPeopleStillInTheApp) {
  json prepared;
  ASSERT_TRUE(
      Preview("hub_import_people", {{"connectionId", "work"}, {"query", "chen"}}, &prepared).ok());
  EXPECT_EQ(prepared["emails"], json({"mira@example.com"}));
  // A model that adds an address the app does not have cannot invent a person.
  json r = Ok("hub_import_people",
              {{"connectionId", "work"}, {"emails", {"mira@example.com", "eve@evil.example"}}});
  EXPECT_EQ(r["data"]["added"].size(), 1u);
  EXPECT_EQ(r["data"]["notFound"], json({"eve@evil.example"}));
  EXPECT_THAT(r["summary"].get<std::string>(),
              HasSubstr("1 address is not on its events, so left out: eve@evil.example."));

  auto none =
      Run("hub_import_people", {{"connectionId", "work"}, {"emails", {"eve@evil.example"}}});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), codes::kNotFound);
  EXPECT_EQ(People(), 1);
}

TEST_F(ConnectionToolRunsTest, APersonRemovedFromTheHubIsNeverBroughtBack) {
  const std::string mira = Seed("person", {{"name", "Mira"}, {"email", "Mira@Example.com"}});
  Mutate({{"person.delete", {{"id", mira}}}});
  json prepared;
  auto preview = Preview("hub_import_people", {{"connectionId", "work"}}, &prepared);
  ASSERT_TRUE(preview.ok()) << preview.status().ToString();
  EXPECT_EQ(*preview,
            "Bring in 2 people from \u201CWork calendar\u201D: 2 new (\u201CBo Li\u201D, "
            "\u201CCy Park\u201D). 1 person removed from this hub is left out: "
            "mira@example.com.");
  // Pinned, so the receipt says so too; asking for the address by name does
  // not bring the person back either.
  EXPECT_EQ(prepared["emails"], json({"bo@example.com", "cy@example.com", "mira@example.com"}));
  json r = Ok("hub_import_people", prepared);
  EXPECT_EQ(r["data"]["removed"], json({"mira@example.com"}));
  EXPECT_EQ(People(), 2);
  auto asked =
      Run("hub_import_people", {{"connectionId", "work"}, {"emails", {"mira@example.com"}}});
  ASSERT_FALSE(asked.ok());
  EXPECT_EQ(asked.status().code(), codes::kFailedPrecondition);
  EXPECT_THAT(asked.status().message(), HasSubstr("restore them from Trash"));
  auto in_trash = db_->Query("SELECT COUNT(*) FROM people WHERE deleted = 1", {});
  EXPECT_EQ(store::AsInt(in_trash->rows[0][0]), 1);

  // Restored, she is saved again, and an import finds her there.
  Mutate({{"person.restore", {{"id", mira}}}});
  auto again = Preview("hub_import_people", {{"connectionId", "work"}});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, "Bring in 3 people from \u201CWork calendar\u201D: 0 new, 3 already saved.");
}

TEST_F(ConnectionToolRunsTest, AFailedReadIsReportedAndMarksTheConnectionFailing) {
  reader_.SetFailure("work",
                     Status(codes::kAppUnreachable, "the calendar answered 403 Forbidden."));
  auto r = Preview("hub_import_people", {{"connectionId", "work"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), codes::kAppUnreachable);
  EXPECT_EQ(r.status().message(),
            "\u201CWork calendar\u201D could not be read: the calendar answered 403 Forbidden. "
            "Reconnect it in Settings \u2192 Connections.");
  json list = Ok("hub_list_connections", json::object());
  EXPECT_THAT(list["summary"].get<std::string>(),
              HasSubstr("failing: the calendar answered 403 Forbidden. Reconnect it"));

  reader_.SetFeed("work", "<html>Sign in</html>");
  r = Preview("hub_import_people", {{"connectionId", "work"}});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("its link does not give a calendar."));
}

// A reader that reads off the store's threads answers "not read yet" first:
// that reaches the caller as it is, and the connection is not marked failing.
TEST_F(ConnectionToolRunsTest, AReadNotMadeYetPassesThroughAndMarksNothing) {
  reader_.SetFailure("work", Status(codes::kAppReadPending, "not read yet"));
  auto r = Preview("hub_import_people", {{"connectionId", "work"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), codes::kAppReadPending);
  auto ran = Run("hub_import_people", {{"connectionId", "work"}});
  ASSERT_FALSE(ran.ok());
  EXPECT_EQ(ran.status().code(), codes::kAppReadPending);
  EXPECT_EQ(People(), 0);
  json list = Ok("hub_list_connections", json::object());
  EXPECT_THAT(list["summary"].get<std::string>(), ::testing::Not(HasSubstr("failing")));
}

TEST_F(ConnectionToolRunsTest, OtherSpacesAccountsAndReaderlessTurnsAreRefused) {
  Connect("team-cal", "Team calendar", "ana", kOtherSpace);
  Connect("bos", "Bo's calendar", "bo");
  for (const char* id : {"team-cal", "bos", "nope"}) {
    auto r = Run("hub_import_people", {{"connectionId", id}});
    ASSERT_FALSE(r.ok()) << id;
    EXPECT_EQ(r.status().code(), codes::kNotFound) << id;
  }
  ctx_.app_reader = nullptr;  // The browser: no way to read the app.
  auto r = Run("hub_import_people", {{"connectionId", "work"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), codes::kFailedPrecondition);
  EXPECT_THAT(r.status().message(), HasSubstr("is read by the server"));
  // Nor does it claim that nothing is connected.
  auto list = Run("hub_list_connections", json::object());
  ASSERT_FALSE(list.ok());
  EXPECT_THAT(list.status().message(), HasSubstr("kept by the server"));
  EXPECT_EQ(reader_.reads(), 0);
  EXPECT_EQ(People(), 0);
}

}  // namespace
}  // namespace ensemble::core::connections
