#include "core/routines/routine_schedule.h"

#include <gtest/gtest.h>

#include "core/calendar/civil_time.h"

namespace ensemble::core::routines {
namespace {

using nlohmann::json;

// Milliseconds since the epoch of a UTC wall-clock time.
int64_t Utc(int64_t y, int mo, int d, int h, int mi) {
  return calendar::LocalSeconds(y, mo, d, h, mi, 0) * 1000;
}

int64_t Next(const json& schedule, const char* zone, int64_t after) {
  auto next = NextRunAfter(schedule, zone, after);
  EXPECT_TRUE(next.ok()) << next.status().ToString();
  return next.ok() ? *next : -1;
}

TEST(RoutineSchedule, DailyRunsAtItsTimeStrictlyAfterTheLastRun) {
  const json daily = {{"frequency", "daily"}, {"time", "08:30"}};
  EXPECT_EQ(Next(daily, "UTC", Utc(2026, 12, 1, 7, 0)), Utc(2026, 12, 1, 8, 30));
  EXPECT_EQ(Next(daily, "UTC", Utc(2026, 12, 1, 8, 30)), Utc(2026, 12, 2, 8, 30));
  EXPECT_EQ(Next(daily, "UTC", Utc(2026, 12, 31, 9, 0)), Utc(2027, 1, 1, 8, 30));
}

TEST(RoutineSchedule, WeekdaysSkipTheWeekend) {
  const json weekdays = {{"frequency", "weekdays"}, {"time", "08:00"}};
  // Friday 2026-12-04 after its run: Monday 2026-12-07.
  EXPECT_EQ(Next(weekdays, "UTC", Utc(2026, 12, 4, 9, 0)), Utc(2026, 12, 7, 8, 0));
  EXPECT_EQ(Next(weekdays, "UTC", Utc(2026, 12, 1, 7, 0)), Utc(2026, 12, 1, 8, 0));
}

TEST(RoutineSchedule, WeeklyRunsOnItsDayInTheOwnersZone) {
  const json monday = {{"frequency", "weekly"}, {"time", "09:00"}, {"dayOfWeek", "mon"}};
  // Paris is UTC+1 in December: Monday 09:00 there is 08:00 UTC.
  EXPECT_EQ(Next(monday, "Europe/Paris", Utc(2026, 12, 1, 12, 0)), Utc(2026, 12, 7, 8, 0));
}

TEST(RoutineSchedule, MonthlyOnALateDayRunsOnTheLastDayOfAShortMonth) {
  const json on31 = {{"frequency", "monthly"}, {"time", "07:00"}, {"dayOfMonth", 31}};
  EXPECT_EQ(Next(on31, "UTC", Utc(2027, 1, 31, 8, 0)), Utc(2027, 2, 28, 7, 0));
  EXPECT_EQ(Next(on31, "UTC", Utc(2027, 2, 28, 8, 0)), Utc(2027, 3, 31, 7, 0));
}

TEST(RoutineSchedule, AZoneAheadOfUtcRunsOnItsOwnDate) {
  const json daily = {{"frequency", "daily"}, {"time", "08:00"}};
  // Auckland is UTC+13 in December: 00:00 UTC on 1 December is 13:00 there,
  // so the next 08:00 is on 2 December, 19:00 UTC on the 1st.
  EXPECT_EQ(Next(daily, "Pacific/Auckland", Utc(2026, 12, 1, 0, 0)), Utc(2026, 12, 1, 19, 0));
}

TEST(RoutineSchedule, ATimeInTheSpringForwardGapRunsJustAfterIt) {
  // New York skips 02:00-03:00 on 14 March 2027: 02:30 becomes 03:30 EDT.
  const json daily = {{"frequency", "daily"}, {"time", "02:30"}};
  EXPECT_EQ(Next(daily, "America/New_York", Utc(2027, 3, 14, 0, 0)), Utc(2027, 3, 14, 7, 30));
  EXPECT_EQ(Next(daily, "America/New_York", Utc(2027, 3, 14, 8, 0)), Utc(2027, 3, 15, 6, 30));
}

TEST(RoutineSchedule, AnUnknownZoneIsUtcAndABadScheduleIsRefused) {
  const json daily = {{"frequency", "daily"}, {"time", "08:00"}};
  EXPECT_EQ(Next(daily, "Nowhere/Atlantis", Utc(2026, 12, 1, 0, 0)), Utc(2026, 12, 1, 8, 0));
  auto bad = NextRunAfter({{"frequency", "hourly"}, {"time", "08:00"}}, "UTC", 0);
  EXPECT_EQ(bad.status().code(), codes::kInvalidArgument);
}

}  // namespace
}  // namespace ensemble::core::routines
