// Routines (core/routines/routine.h): the schedule's rules, how a reply names
// a schedule, and pause and resume as updates through the hub's mutators.

#include "core/routines/routine.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/hub/hub.h"
#include "core/records/record_mutators.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::routines {
namespace {

using nlohmann::json;

TEST(Routine, SchedulesFollowTheirFrequencysRules) {
  const json good[] = {
      {{"frequency", "daily"}, {"time", "08:00"}},
      {{"frequency", "weekdays"}, {"time", "23:59"}},
      {{"frequency", "weekly"}, {"time", "00:00"}, {"dayOfWeek", "mon"}},
      {{"frequency", "monthly"}, {"time", "07:30"}, {"dayOfMonth", 31}},
  };
  for (const json& s : good) EXPECT_TRUE(CheckSchedule(s).ok()) << s.dump();
  const json bad[] = {
      json::array(),
      {{"time", "08:00"}},
      {{"frequency", "hourly"}, {"time", "08:00"}},
      {{"frequency", "daily"}, {"time", "24:00"}},
      {{"frequency", "daily"}, {"time", "8:00"}},
      {{"frequency", "daily"}, {"time", "08:60"}},
      {{"frequency", "daily"}, {"time", "08:00"}, {"dayOfWeek", "mon"}},
      {{"frequency", "weekly"}, {"time", "08:00"}},
      {{"frequency", "weekly"}, {"time", "08:00"}, {"dayOfWeek", "monday"}},
      {{"frequency", "monthly"}, {"time", "08:00"}, {"dayOfMonth", 0}},
      {{"frequency", "monthly"}, {"time", "08:00"}, {"dayOfMonth", 32}},
      {{"frequency", "monthly"}, {"time", "08:00"}},
      {{"frequency", "daily"}, {"time", "08:00"}, {"every", 2}},
  };
  for (const json& s : bad) {
    EXPECT_EQ(CheckSchedule(s).code(), codes::kInvalidArgument) << s.dump();
  }
}

TEST(Routine, ScheduleTextNamesTheDay) {
  EXPECT_EQ(ScheduleText({{"frequency", "weekdays"}, {"time", "08:30"}}), "weekdays at 08:30");
  EXPECT_EQ(ScheduleText({{"frequency", "weekly"}, {"time", "09:00"}, {"dayOfWeek", "fri"}}),
            "weekly on Friday at 09:00");
  EXPECT_EQ(ScheduleText({{"frequency", "monthly"}, {"time", "07:00"}, {"dayOfMonth", 1}}),
            "monthly on day 1 at 07:00");
}

TEST(Routine, PauseAndResumeAreUpdatesAndABadScheduleWritesNothing) {
  auto db = std::move(store::SqliteDatabase::Open(":memory:")).value();
  ASSERT_TRUE(hub::Migrate(*db).ok());
  auto apply = [&](const std::string& name, const json& args) {
    sync::MutationContext ctx(*db, 1000);
    return (*hub::Config().mutators->Find(name))(ctx, args);
  };
  const std::string id = "01JB00000000000000000000X1";
  ASSERT_TRUE(
      apply("routine.create", {{"id", id},
                               {"spaceId", "here"},
                               {"title", "Morning brief"},
                               {"instruction", "Summarise my day"},
                               {"schedule", {{"frequency", "weekdays"}, {"time", "08:00"}}}})
          .ok());
  auto row = [&] { return **records::ReadRecord(kRoutineKind, *db, id); };
  EXPECT_EQ(row()["schedule"]["frequency"], "weekdays");
  EXPECT_EQ(row()["paused"], 0);
  ASSERT_TRUE(apply("routine.update", {{"id", id}, {"fields", {{"paused", 1}}}}).ok());
  EXPECT_EQ(row()["paused"], 1);
  Status bad =
      apply("routine.update",
            {{"id", id}, {"fields", {{"schedule", {{"frequency", "weekly"}, {"time", "08:00"}}}}}});
  EXPECT_EQ(bad.code(), codes::kInvalidArgument);
  EXPECT_EQ(row()["schedule"]["frequency"], "weekdays");
}

}  // namespace
}  // namespace ensemble::core::routines
