// The reminder and watcher tools' hooks (core/reminders/reminder_tool_runs.h):
// times in the person's zone, a past time refused, list order, update with
// Undo, delete and stop with Undo, and ids of another space refused alike.

#include "core/reminders/reminder_tool_runs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/reminders/reminder.h"
#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::reminders {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

class ReminderToolRunsTest : public tools::RecordToolTest {
 protected:
  json Reminder(const std::string& id) { return Row(reminders::kReminderRecordKind, id); }
  json Watcher(const std::string& id) { return Row(reminders::kWatcherRecordKind, id); }
};

TEST(ReminderTime, WallClockTimeIsThePersonsAndAnOffsetIsKept) {
  // 09:00 in Berlin on 3 Dec 2026 (UTC+1) is 08:00 UTC.
  EXPECT_EQ(*ParseReminderTime("2026-12-03T09:00", "Europe/Berlin"), 1'796'284'800'000);
  EXPECT_EQ(*ParseReminderTime("2026-12-03T09:00:00+01:00", "America/New_York"), 1'796'284'800'000);
  EXPECT_EQ(*ParseReminderTime("2026-12-03T08:00:00Z", ""), 1'796'284'800'000);
  EXPECT_EQ(*ParseReminderTime("2026-12-03T08:00", "Not/AZone"), 1'796'284'800'000);
  EXPECT_EQ(ParseReminderTime("2026-12-03", "UTC").status().code(), codes::kInvalidArgument);
  EXPECT_EQ(ParseReminderTime("tomorrow", "UTC").status().code(), codes::kInvalidArgument);
  EXPECT_EQ(IsoInZone(1'796'284'800'000, "Europe/Berlin"), "2026-12-03T09:00:00+01:00");
}

TEST_F(ReminderToolRunsTest, EveryToolHasItsHooks) {
  for (const char* name :
       {"hub_list_reminders", "hub_create_reminder", "hub_update_reminder", "hub_delete_reminder",
        "hub_create_watcher", "hub_list_watchers", "hub_cancel_watcher"}) {
    EXPECT_TRUE(Tool(name).run) << name;
  }
}

TEST_F(ReminderToolRunsTest, CreateInThePersonsZoneAndUndoDeletesIt) {
  ctx_.time_zone = "Europe/Berlin";
  const std::string task = Seed("task", {{"title", "Ship it"}});
  json input = {{"text", "Check the release"},
                {"at", "2026-12-03T09:00:00+01:00"},
                {"itemKind", "task"},
                {"itemId", task}};
  EXPECT_EQ(*Preview("hub_create_reminder", input),
            "Remind you 3 Dec 09:00: \u201CCheck the release\u201D");
  json r = Ok("hub_create_reminder", input);
  EXPECT_EQ(r["summary"], "I will remind you 3 Dec 09:00: \u201CCheck the release\u201D.");
  EXPECT_EQ(r["data"]["reminder"]["at"], "2026-12-03T09:00:00+01:00");
  const std::string id = r["data"]["reminder"]["id"];
  EXPECT_EQ(Reminder(id)["at"], 1'796'284'800'000);
  EXPECT_EQ(Reminder(id)["item"], task);
  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_EQ(Reminder(id)["deleted"], 1);
}

TEST_F(ReminderToolRunsTest, APastTimeOrAnItemElsewhereWritesNothing) {
  const std::string theirs = Seed("task", {{"title", "Theirs"}}, kOtherSpace);
  Result<json> past = Run("hub_create_reminder", {{"text", "x"}, {"at", "2026-11-29T09:00:00Z"}});
  EXPECT_EQ(past.status().code(), codes::kInvalidArgument);
  EXPECT_THAT(past.status().message(), HasSubstr("has passed"));
  Result<json> elsewhere = Run(
      "hub_create_reminder",
      {{"text", "x"}, {"at", "2026-12-03T09:00:00Z"}, {"itemKind", "task"}, {"itemId", theirs}});
  EXPECT_EQ(elsewhere.status().code(), codes::kNotFound);
  Result<json> half = Run("hub_create_reminder",
                          {{"text", "x"}, {"at", "2026-12-03T09:00:00Z"}, {"itemId", theirs}});
  EXPECT_EQ(half.status().code(), codes::kInvalidArgument);
  EXPECT_EQ(writes_, 0);
}

TEST_F(ReminderToolRunsTest, ListIsInTimeOrderAndLeavesDismissedOut) {
  const std::string late =
      Ok("hub_create_reminder",
         {{"text", "Late"}, {"at", "2026-12-09T09:00:00Z"}})["data"]["reminder"]["id"];
  const std::string soon =
      Ok("hub_create_reminder",
         {{"text", "Soon"}, {"at", "2026-12-01T09:00:00Z"}})["data"]["reminder"]["id"];
  Seed("reminder", {{"text", "Not mine"}, {"at", kNow + 1000}}, kOtherSpace);
  json list = Ok("hub_list_reminders", json::object());
  ASSERT_EQ(list["data"]["reminders"].size(), 2u);
  EXPECT_EQ(list["data"]["reminders"][0]["id"], soon);
  EXPECT_EQ(list["data"]["reminders"][1]["id"], late);

  json dismiss = Ok("hub_update_reminder", {{"id", soon}, {"dismissed", true}});
  EXPECT_EQ(dismiss["summary"], "Changed the reminder \u201CSoon\u201D: dismissed.");
  EXPECT_EQ(Ok("hub_list_reminders", json::object())["data"]["reminders"].size(), 1u);
  EXPECT_EQ(Ok("hub_list_reminders", {{"includeDismissed", true}})["data"]["reminders"].size(), 2u);
  ASSERT_TRUE(ApplyUndo(dismiss).ok());
  EXPECT_EQ(Reminder(soon)["dismissed"], 0);
}

TEST_F(ReminderToolRunsTest, SnoozeMovesTheTimeAndDeleteUndoes) {
  const std::string id =
      Ok("hub_create_reminder",
         {{"text", "Call"}, {"at", "2026-12-01T09:00:00Z"}})["data"]["reminder"]["id"];
  json snooze = Ok("hub_update_reminder", {{"id", id}, {"at", "2026-12-02T09:00:00Z"}});
  EXPECT_EQ(snooze["summary"], "Changed the reminder \u201CCall\u201D: time 2 Dec 09:00.");
  EXPECT_EQ(Reminder(id)["at"], 1'796'202'000'000);
  EXPECT_EQ(Run("hub_update_reminder", {{"id", id}}).status().code(), codes::kInvalidArgument);
  json del = Ok("hub_delete_reminder", {{"id", id}});
  EXPECT_EQ(del["summary"], "Deleted the reminder \u201CCall\u201D.");
  EXPECT_EQ(Reminder(id)["deleted"], 1);
  ASSERT_TRUE(ApplyUndo(del).ok());
  EXPECT_EQ(Reminder(id)["deleted"], 0);
}

TEST_F(ReminderToolRunsTest, WatchListAndStopWithUndo) {
  const std::string task = Seed("task", {{"title", "Ship it"}});
  const std::string theirs = Seed("task", {{"title", "Theirs"}}, kOtherSpace);
  json made = Ok("hub_create_watcher", {{"kind", "task"}, {"id", task}, {"condition", "done"}});
  EXPECT_EQ(made["summary"], "Watching the task \u201CShip it\u201D for \u201Cdone\u201D.");
  const std::string id = made["data"]["watcher"]["id"];
  EXPECT_EQ(Run("hub_create_watcher", {{"kind", "task"}, {"id", theirs}}).status().code(),
            codes::kNotFound);

  json list = Ok("hub_list_watchers", json::object());
  ASSERT_EQ(list["data"]["watchers"].size(), 1u);
  EXPECT_EQ(list["data"]["watchers"][0]["recordTitle"], "Ship it");
  EXPECT_EQ(list["data"]["watchers"][0]["condition"], "done");
  EXPECT_THAT(list["summary"].get<std::string>(), HasSubstr("Ship it"));

  json stop = Ok("hub_cancel_watcher", {{"id", id}});
  EXPECT_EQ(stop["summary"],
            "Stopped the watcher on the task \u201CShip it\u201D for \u201Cdone\u201D.");
  EXPECT_EQ(Ok("hub_list_watchers", json::object())["data"]["watchers"].size(), 0u);
  ASSERT_TRUE(ApplyUndo(stop).ok());
  EXPECT_EQ(Watcher(id)["deleted"], 0);
  EXPECT_EQ(Ok("hub_list_watchers", json::object())["data"]["watchers"].size(), 1u);
}

TEST_F(ReminderToolRunsTest, AWatchersNewsIsListedWithItsCount) {
  const std::string task = Seed("task", {{"title", "Ship it"}});
  const std::string id =
      Ok("hub_create_watcher", {{"kind", "task"}, {"id", task}})["data"]["watcher"]["id"];
  json quiet = Ok("hub_list_watchers", json::object());
  EXPECT_FALSE(quiet["data"]["watchers"][0].contains("news"));
  EXPECT_THAT(quiet["summary"].get<std::string>(), Not(HasSubstr("News")));
  // As the server leaves it after two changes by someone else (watcher_news_test.cc).
  ASSERT_TRUE(db_->Exec("UPDATE watchers SET changes = 2, last_change = 'Ana Lee changed status',"
                        " changed_at = $2 WHERE id = $1",
                        {store::Value(id), store::Value(kNow - 60'000)})
                  .ok());
  json list = Ok("hub_list_watchers", json::object());
  const json& news = list["data"]["watchers"][0]["news"];
  EXPECT_EQ(news["changes"], 2);
  EXPECT_EQ(news["last"], "Ana Lee changed status");
  EXPECT_THAT(list["summary"].get<std::string>(),
              HasSubstr("News since the person last looked: \u201CShip it\u201D: Ana Lee changed "
                        "status (2 changes)."));
}

TEST_F(ReminderToolRunsTest, IdsOfAnotherSpaceAreNotFound) {
  const std::string theirs =
      Seed("reminder", {{"text", "Theirs"}, {"at", kNow + 1000}}, kOtherSpace);
  for (const char* tool : {"hub_update_reminder", "hub_delete_reminder", "hub_cancel_watcher"}) {
    json input = {{"id", theirs}};
    if (std::string(tool) == "hub_update_reminder") input["dismissed"] = true;
    EXPECT_EQ(Run(tool, input).status().code(), codes::kNotFound) << tool;
  }
  EXPECT_EQ(writes_, 0);
}

}  // namespace
}  // namespace ensemble::core::reminders
