// Reminders and watchers (core/reminders/reminder.h) over an in-memory store
// migrated as the hub's: their fields, the record they name resolved in their
// own space, the links that never change, and that only the space's owner
// writes them.

#include "core/reminders/reminder.h"

#include <gtest/gtest.h>

#include <string>

#include "core/hub/hub.h"
#include "core/sync/authorization.h"
#include "tests/core/hub_store_fixture.h"

namespace ensemble::core::reminders {
namespace {

using nlohmann::json;

constexpr char kTask[] = "01JB0000000000000000000001";
constexpr char kTaskThere[] = "01JB0000000000000000000002";
constexpr char kReminder[] = "01JB00000000000000000000R1";
constexpr char kWatcher[] = "01JB00000000000000000000W1";
constexpr int64_t kAt = 1'796'029'200'000;

class ReminderTest : public HubStoreTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Mutate("task.create", {{"id", kTask}, {"spaceId", "here"}, {"title", "a"}}).ok());
    ASSERT_TRUE(
        Mutate("task.create", {{"id", kTaskThere}, {"spaceId", "there"}, {"title", "b"}}).ok());
  }
};

TEST_F(ReminderTest, CreateKeepsTheTimeAndTheRecordItIsAbout) {
  ASSERT_TRUE(Mutate("reminder.create", {{"id", kReminder},
                                         {"spaceId", "here"},
                                         {"text", "  Call Ana  "},
                                         {"at", kAt},
                                         {"item_kind", "task"},
                                         {"item", kTask}})
                  .ok());
  json row = Row(kReminderRecordKind, kReminder);
  EXPECT_EQ(row["text"], "Call Ana");
  EXPECT_EQ(row["at"], kAt);
  EXPECT_EQ(row["item"], kTask);
  EXPECT_EQ(row["dismissed"], 0);
}

TEST_F(ReminderTest, ARecordOfAnotherSpaceIsNotFound) {
  Status st = Mutate("reminder.create", {{"id", kReminder},
                                         {"spaceId", "here"},
                                         {"text", "x"},
                                         {"at", kAt},
                                         {"item_kind", "task"},
                                         {"item", kTaskThere}});
  EXPECT_EQ(st.code(), codes::kNotFound);
  EXPECT_EQ(st.message(), std::string("no task with id ") + kTaskThere);
  st = Mutate(
      "watcher.create",
      {{"id", kWatcher}, {"spaceId", "here"}, {"target_kind", "task"}, {"target", kTaskThere}});
  EXPECT_EQ(st.code(), codes::kNotFound);
}

TEST_F(ReminderTest, BadFieldsAreRefusedReadably) {
  const json cases[] = {
      {{"id", kReminder}, {"spaceId", "here"}, {"at", kAt}},                    // no text
      {{"id", kReminder}, {"spaceId", "here"}, {"text", "x"}},                  // no time
      {{"id", kReminder}, {"spaceId", "here"}, {"text", "x"}, {"at", -1}},      // before 1970
      {{"id", kReminder}, {"spaceId", "here"}, {"text", "x"}, {"at", "soon"}},  // not a number
      {{"id", kReminder}, {"spaceId", "here"}, {"text", "x"}, {"at", kAt}, {"item", kTask}},
      {{"id", kReminder},
       {"spaceId", "here"},
       {"text", std::string(kMaxReminderChars + 1, 'x')},
       {"at", kAt}},
  };
  for (const json& args : cases) {
    EXPECT_EQ(Mutate("reminder.create", args).code(), codes::kInvalidArgument) << args.dump();
  }
}

TEST_F(ReminderTest, DismissIsAnUpdateAndTheLinkNeverChanges) {
  ASSERT_TRUE(Mutate("reminder.create",
                     {{"id", kReminder}, {"spaceId", "here"}, {"text", "x"}, {"at", kAt}})
                  .ok());
  ASSERT_TRUE(Mutate("reminder.update", {{"id", kReminder}, {"fields", {{"dismissed", 1}}}}).ok());
  EXPECT_EQ(Row(kReminderRecordKind, kReminder)["dismissed"], 1);
  EXPECT_EQ(Mutate("reminder.update", {{"id", kReminder}, {"fields", {{"item", kTask}}}}).code(),
            codes::kInvalidArgument);
}

TEST_F(ReminderTest, StoppingAWatcherIsTrashAndRestoreBringsItBack) {
  ASSERT_TRUE(Mutate("watcher.create", {{"id", kWatcher},
                                        {"spaceId", "here"},
                                        {"target_kind", "task"},
                                        {"target", kTask},
                                        {"condition", "when it is done"}})
                  .ok());
  EXPECT_EQ(
      Mutate("watcher.update", {{"id", kWatcher}, {"fields", {{"target", kTaskThere}}}}).code(),
      codes::kInvalidArgument);
  ASSERT_TRUE(Mutate("watcher.delete", {{"id", kWatcher}}).ok());
  EXPECT_EQ(Row(kWatcherRecordKind, kWatcher)["deleted"], 1);
  ASSERT_TRUE(Mutate("watcher.restore", {{"id", kWatcher}}).ok());
  EXPECT_EQ(Row(kWatcherRecordKind, kWatcher)["condition"], "when it is done");
}

TEST_F(ReminderTest, OnlyTheSpacesOwnerWritesThem) {
  ASSERT_TRUE(sync::SetMember(*db_, "here", "owner", sync::Role::kOwner).ok());
  ASSERT_TRUE(sync::SetMember(*db_, "here", "editor", sync::Role::kEditor).ok());
  ASSERT_TRUE(sync::SetMember(*db_, "here", "guest", sync::Role::kGuest).ok());
  const json args = {{"id", kReminder}, {"spaceId", "here"}, {"text", "x"}, {"at", kAt}};
  for (const char* kind : {"reminder", "watcher", "routine"}) {
    const std::string name = std::string(kind) + ".create";
    EXPECT_TRUE(sync::AuthorizeMutation(*db_, hub::Config(), "owner", name, args).ok()) << kind;
    for (const char* who : {"editor", "guest"}) {
      Status st = sync::AuthorizeMutation(*db_, hub::Config(), who, name, args);
      EXPECT_EQ(st.code(), codes::kForbidden) << kind << " " << who;
    }
  }
  // Editors keep their everyday records.
  EXPECT_TRUE(sync::AuthorizeMutation(*db_, hub::Config(), "editor", "task.create", args).ok());
}

}  // namespace
}  // namespace ensemble::core::reminders
