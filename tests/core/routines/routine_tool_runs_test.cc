// The routine tools' hooks (core/routines/routine_tool_runs.h): add, list,
// change, pause and resume, delete, each with its Undo; a bad schedule
// refused before anything is written; ids of another space not found.

#include "core/routines/routine_tool_runs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/routines/routine.h"
#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::routines {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

class RoutineToolRunsTest : public tools::RecordToolTest {
 protected:
  json Routine(const std::string& id) { return Row(routines::kRoutineKind, id); }

  std::string AddBrief() {
    json r =
        Ok("hub_create_routine", {{"title", "Morning brief"},
                                  {"instruction", "Summarise my day"},
                                  {"schedule", {{"frequency", "weekdays"}, {"time", "08:00"}}}});
    return r["data"]["routine"].value("id", std::string());
  }
};

TEST_F(RoutineToolRunsTest, AddPreviewsTheScheduleAndUndoDeletes) {
  json input = {{"title", "Weekly review"},
                {"instruction", "List what slipped"},
                {"schedule", {{"frequency", "weekly"}, {"time", "16:00"}, {"dayOfWeek", "fri"}}}};
  EXPECT_EQ(*Preview("hub_create_routine", input),
            "Add the routine \u201CWeekly review\u201D, weekly on Friday at 16:00");
  json r = Ok("hub_create_routine", input);
  const std::string id = r["data"]["routine"]["id"];
  EXPECT_EQ(Routine(id)["schedule"]["dayOfWeek"], "fri");
  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_EQ(Routine(id)["deleted"], 1);
}

TEST_F(RoutineToolRunsTest, ABadScheduleIsRefusedBeforeAnyWrite) {
  Result<json> r =
      Run("hub_create_routine", {{"title", "Weekly review"},
                                 {"instruction", "x"},
                                 {"schedule", {{"frequency", "weekly"}, {"time", "16:00"}}}});
  EXPECT_EQ(r.status().code(), codes::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("needs dayOfWeek"));
  EXPECT_EQ(writes_, 0);
}

TEST_F(RoutineToolRunsTest, PauseResumeAndChangeEachUndo) {
  const std::string id = AddBrief();
  json pause = Ok("hub_update_routine", {{"id", id}, {"paused", true}});
  EXPECT_EQ(pause["summary"], "Changed the routine \u201CMorning brief\u201D: paused.");
  EXPECT_EQ(Routine(id)["paused"], 1);
  EXPECT_EQ(Ok("hub_list_routines", {{"includePaused", false}})["data"]["routines"].size(), 0u);
  EXPECT_EQ(Ok("hub_list_routines", json::object())["data"]["routines"].size(), 1u);
  ASSERT_TRUE(ApplyUndo(pause).ok());
  EXPECT_EQ(Routine(id)["paused"], 0);

  json change = Ok("hub_update_routine",
                   {{"id", id}, {"schedule", {{"frequency", "daily"}, {"time", "07:15"}}}});
  EXPECT_EQ(change["summary"], "Changed the routine \u201CMorning brief\u201D: daily at 07:15.");
  EXPECT_EQ(Routine(id)["schedule"]["time"], "07:15");
  ASSERT_TRUE(ApplyUndo(change).ok());
  EXPECT_EQ(Routine(id)["schedule"]["frequency"], "weekdays");
  EXPECT_EQ(Run("hub_update_routine", {{"id", id}}).status().code(), codes::kInvalidArgument);
}

TEST_F(RoutineToolRunsTest, DeleteGoesToTrashAndUndoRestores) {
  const std::string id = AddBrief();
  json del = Ok("hub_delete_routine", {{"id", id}});
  EXPECT_EQ(del["summary"], "Deleted the routine \u201CMorning brief\u201D.");
  EXPECT_EQ(Routine(id)["deleted"], 1);
  ASSERT_TRUE(ApplyUndo(del).ok());
  EXPECT_EQ(Routine(id)["deleted"], 0);
}

TEST_F(RoutineToolRunsTest, ARoutineOfAnotherSpaceIsNotFound) {
  const std::string theirs = Seed("routine",
                                  {{"title", "Theirs"},
                                   {"instruction", "x"},
                                   {"schedule", {{"frequency", "daily"}, {"time", "08:00"}}}},
                                  kOtherSpace);
  EXPECT_EQ(Ok("hub_list_routines", json::object())["data"]["routines"].size(), 0u);
  EXPECT_EQ(Run("hub_update_routine", {{"id", theirs}, {"paused", true}}).status().code(),
            codes::kNotFound);
  EXPECT_EQ(Run("hub_delete_routine", {{"id", theirs}}).status().code(), codes::kNotFound);
  EXPECT_EQ(writes_, 0);
}

}  // namespace
}  // namespace ensemble::core::routines
