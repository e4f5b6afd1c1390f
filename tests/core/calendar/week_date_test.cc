// Tests of core/calendar/week_date.h: counting days across months, years
// and the ends of the dates there are. (Parsing and ISO weeks are tested
// with the turn context that prints them, tests/core/assistant.)

#include "core/calendar/week_date.h"

#include <gtest/gtest.h>

namespace ensemble::core::calendar {
namespace {

std::string Plus(const char* date, int64_t days) {
  const std::optional<WeekDate> d = ParseWeekDate(date);
  EXPECT_TRUE(d.has_value()) << date;
  return d ? AddDays(*d, days) : "";
}

TEST(WeekDate, AddDaysCrossesMonthsYearsAndLeapDays) {
  EXPECT_EQ(Plus("2026-11-30", 0), "2026-11-30");
  EXPECT_EQ(Plus("2026-11-30", 1), "2026-12-01");
  EXPECT_EQ(Plus("2026-12-31", 4), "2027-01-04");
  EXPECT_EQ(Plus("2024-02-28", 1), "2024-02-29");
  EXPECT_EQ(Plus("2025-02-28", 1), "2025-03-01");
  EXPECT_EQ(Plus("2026-01-01", -1), "2025-12-31");
  EXPECT_EQ(Plus("2026-11-30", 366), "2027-12-01");
}

TEST(WeekDate, AddDaysIsEmptyPastTheDatesThereAre) {
  EXPECT_EQ(Plus("9999-12-31", 0), "9999-12-31");
  EXPECT_EQ(Plus("9999-12-31", 1), "");
  EXPECT_EQ(Plus("0001-01-01", 0), "0001-01-01");
  EXPECT_EQ(Plus("0001-01-01", -1), "");
  // What it gives, ParseWeekDate reads back.
  EXPECT_TRUE(ParseWeekDate(Plus("9999-12-25", 6)).has_value());
}

}  // namespace
}  // namespace ensemble::core::calendar
