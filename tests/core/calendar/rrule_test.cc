// RRULE expansion, mostly the examples of RFC 5545 §3.8.5.3 (DTSTART in
// America/New_York), with the occurrence lists written out.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/calendar/recurrence_rule.h"
#include "tests/core/calendar/ics_test_util.h"

namespace ensemble::core::calendar {
namespace {

using testing::NewYork;
using Strings = std::vector<std::string>;

// 09:00 on `date` in New York, daylight (EDT) or standard (EST) time.
std::string Edt(const std::string& date, const std::string& time = "09:00") {
  return date + "T" + time + ":00-04:00";
}
std::string Est(const std::string& date, const std::string& time = "09:00") {
  return date + "T" + time + ":00-05:00";
}

TEST(RecurrenceRule, ParsesEveryPart) {
  auto rule = ParseRecurrenceRule(
      "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU;BYMONTH=1,3;BYSETPOS=-1;WKST=SU");
  ASSERT_TRUE(rule.ok()) << rule.status().ToString();
  EXPECT_EQ(rule->freq, Frequency::kMonthly);
  EXPECT_EQ(rule->interval, 2);
  EXPECT_EQ(*rule->count, 10);
  ASSERT_EQ(rule->by_day.size(), 2u);
  EXPECT_EQ(rule->by_day[1].ordinal, -1);
  EXPECT_EQ(rule->by_day[1].weekday, 0);
  EXPECT_EQ(rule->wkst, 0);
  EXPECT_EQ(rule->by_set_pos, std::vector<int>{-1});
}

TEST(RecurrenceRule, RefusesInvalidRules) {
  for (const char* text :
       {"", "COUNT=3", "FREQ=FORTNIGHTLY", "FREQ=DAILY;INTERVAL=0", "FREQ=DAILY;COUNT=-1",
        "FREQ=DAILY;BYMONTH=13", "FREQ=DAILY;BYDAY=XX", "FREQ=DAILY;BYMONTHDAY=0",
        "FREQ=DAILY;UNTIL=2026", "FREQ=DAILY;WKST=XY", "FREQ=MONTHLY;BYDAY=0MO", "FREQ"}) {
    auto rule = ParseRecurrenceRule(text);
    EXPECT_FALSE(rule.ok()) << text;
    if (!rule.ok()) EXPECT_EQ(rule.status().code(), core::codes::kInvalidArgument);
  }
}

TEST(RecurrenceRule, DailyForTenOccurrences) {
  EXPECT_EQ(NewYork("19970902T090000", "RRULE:FREQ=DAILY;COUNT=10\r\n"),
            (Strings{Edt("1997-09-02"), Edt("1997-09-03"), Edt("1997-09-04"), Edt("1997-09-05"),
                     Edt("1997-09-06"), Edt("1997-09-07"), Edt("1997-09-08"), Edt("1997-09-09"),
                     Edt("1997-09-10"), Edt("1997-09-11")}));
}

TEST(RecurrenceRule, DailyUntilKeepsWallClockAcrossDst) {
  Strings got = NewYork("19970902T090000", "RRULE:FREQ=DAILY;UNTIL=19971224T000000Z\r\n");
  ASSERT_EQ(got.size(), 113u);
  EXPECT_EQ(got.front(), Edt("1997-09-02"));
  EXPECT_EQ(got[53], Edt("1997-10-25"));
  EXPECT_EQ(got[54], Est("1997-10-26"));
  EXPECT_EQ(got.back(), Est("1997-12-23"));
}

TEST(RecurrenceRule, EveryTenDaysFiveTimes) {
  EXPECT_EQ(NewYork("19970902T090000", "RRULE:FREQ=DAILY;INTERVAL=10;COUNT=5\r\n"),
            (Strings{Edt("1997-09-02"), Edt("1997-09-12"), Edt("1997-09-22"), Edt("1997-10-02"),
                     Edt("1997-10-12")}));
}

TEST(RecurrenceRule, EveryDayInJanuaryForThreeYearsTwoWays) {
  Strings yearly = NewYork("19980101T090000",
                           "RRULE:FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;"
                           "BYDAY=SU,MO,TU,WE,TH,FR,SA\r\n");
  Strings daily =
      NewYork("19980101T090000", "RRULE:FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1\r\n");
  ASSERT_EQ(yearly.size(), 93u);
  EXPECT_EQ(yearly, daily);
  EXPECT_EQ(yearly[31], Est("1999-01-01"));
  EXPECT_EQ(yearly.back(), Est("2000-01-31"));
}

TEST(RecurrenceRule, WeeklyForTenOccurrences) {
  EXPECT_EQ(NewYork("19970902T090000", "RRULE:FREQ=WEEKLY;COUNT=10\r\n"),
            (Strings{Edt("1997-09-02"), Edt("1997-09-09"), Edt("1997-09-16"), Edt("1997-09-23"),
                     Edt("1997-09-30"), Edt("1997-10-07"), Edt("1997-10-14"), Edt("1997-10-21"),
                     Est("1997-10-28"), Est("1997-11-04")}));
}

TEST(RecurrenceRule, WeeklyOnTuesdayAndThursdayForFiveWeeks) {
  const Strings want{Edt("1997-09-02"), Edt("1997-09-04"), Edt("1997-09-09"), Edt("1997-09-11"),
                     Edt("1997-09-16"), Edt("1997-09-18"), Edt("1997-09-23"), Edt("1997-09-25"),
                     Edt("1997-09-30"), Edt("1997-10-02")};
  EXPECT_EQ(NewYork("19970902T090000",
                    "RRULE:FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH\r\n"),
            want);
  EXPECT_EQ(NewYork("19970902T090000", "RRULE:FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH\r\n"), want);
}

TEST(RecurrenceRule, EveryOtherWeekOnMondayWednesdayFriday) {
  EXPECT_EQ(
      NewYork("19970901T090000",
              "RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR\r\n"),
      (Strings{Edt("1997-09-01"), Edt("1997-09-03"), Edt("1997-09-05"), Edt("1997-09-15"),
               Edt("1997-09-17"), Edt("1997-09-19"), Edt("1997-09-29"), Edt("1997-10-01"),
               Edt("1997-10-03"), Edt("1997-10-13"), Edt("1997-10-15"), Edt("1997-10-17"),
               Est("1997-10-27"), Est("1997-10-29"), Est("1997-10-31"), Est("1997-11-10"),
               Est("1997-11-12"), Est("1997-11-14"), Est("1997-11-24"), Est("1997-11-26"),
               Est("1997-11-28"), Est("1997-12-08"), Est("1997-12-10"), Est("1997-12-12"),
               Est("1997-12-22")}));
}

TEST(RecurrenceRule, EveryOtherWeekOnTuesdayAndThursdayEightTimes) {
  EXPECT_EQ(
      NewYork("19970902T090000", "RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH\r\n"),
      (Strings{Edt("1997-09-02"), Edt("1997-09-04"), Edt("1997-09-16"), Edt("1997-09-18"),
               Edt("1997-09-30"), Edt("1997-10-02"), Edt("1997-10-14"), Edt("1997-10-16")}));
}

TEST(RecurrenceRule, MonthlyOnTheFirstFriday) {
  EXPECT_EQ(NewYork("19970905T090000", "RRULE:FREQ=MONTHLY;COUNT=10;BYDAY=1FR\r\n"),
            (Strings{Edt("1997-09-05"), Edt("1997-10-03"), Est("1997-11-07"), Est("1997-12-05"),
                     Est("1998-01-02"), Est("1998-02-06"), Est("1998-03-06"), Est("1998-04-03"),
                     Edt("1998-05-01"), Edt("1998-06-05")}));
}

TEST(RecurrenceRule, EveryOtherMonthOnTheFirstAndLastSunday) {
  EXPECT_EQ(NewYork("19970907T090000", "RRULE:FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU\r\n"),
            (Strings{Edt("1997-09-07"), Edt("1997-09-28"), Est("1997-11-02"), Est("1997-11-30"),
                     Est("1998-01-04"), Est("1998-01-25"), Est("1998-03-01"), Est("1998-03-29"),
                     Edt("1998-05-03"), Edt("1998-05-31")}));
}

TEST(RecurrenceRule, MonthlyOnTheSecondToLastMonday) {
  EXPECT_EQ(NewYork("19970922T090000", "RRULE:FREQ=MONTHLY;COUNT=6;BYDAY=-2MO\r\n"),
            (Strings{Edt("1997-09-22"), Edt("1997-10-20"), Est("1997-11-17"), Est("1997-12-22"),
                     Est("1998-01-19"), Est("1998-02-16")}));
}

TEST(RecurrenceRule, MonthlyOnTheThirdToLastDay) {
  Strings got = NewYork("19970928T090000", "RRULE:FREQ=MONTHLY;BYMONTHDAY=-3\r\n");
  ASSERT_GE(got.size(), 6u);
  EXPECT_EQ(Strings(got.begin(), got.begin() + 6),
            (Strings{Edt("1997-09-28"), Est("1997-10-29"), Est("1997-11-28"), Est("1997-12-29"),
                     Est("1998-01-29"), Est("1998-02-26")}));
}

TEST(RecurrenceRule, MonthlyOnTheFirstAndLastDay) {
  EXPECT_EQ(NewYork("19970930T090000", "RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1\r\n"),
            (Strings{Edt("1997-09-30"), Edt("1997-10-01"), Est("1997-10-31"), Est("1997-11-01"),
                     Est("1997-11-30"), Est("1997-12-01"), Est("1997-12-31"), Est("1998-01-01"),
                     Est("1998-01-31"), Est("1998-02-01")}));
}

TEST(RecurrenceRule, EveryEighteenMonthsOnTheTenthToFifteenth) {
  EXPECT_EQ(NewYork("19970910T090000",
                    "RRULE:FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15\r\n"),
            (Strings{Edt("1997-09-10"), Edt("1997-09-11"), Edt("1997-09-12"), Edt("1997-09-13"),
                     Edt("1997-09-14"), Edt("1997-09-15"), Est("1999-03-10"), Est("1999-03-11"),
                     Est("1999-03-12"), Est("1999-03-13")}));
}

TEST(RecurrenceRule, YearlyInJuneAndJuly) {
  EXPECT_EQ(NewYork("19970610T090000", "RRULE:FREQ=YEARLY;COUNT=10;BYMONTH=6,7\r\n"),
            (Strings{Edt("1997-06-10"), Edt("1997-07-10"), Edt("1998-06-10"), Edt("1998-07-10"),
                     Edt("1999-06-10"), Edt("1999-07-10"), Edt("2000-06-10"), Edt("2000-07-10"),
                     Edt("2001-06-10"), Edt("2001-07-10")}));
}

TEST(RecurrenceRule, EveryOtherYearInJanuaryFebruaryMarch) {
  EXPECT_EQ(NewYork("19970310T090000", "RRULE:FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3\r\n"),
            (Strings{Est("1997-03-10"), Est("1999-01-10"), Est("1999-02-10"), Est("1999-03-10"),
                     Est("2001-01-10"), Est("2001-02-10"), Est("2001-03-10"), Est("2003-01-10"),
                     Est("2003-02-10"), Est("2003-03-10")}));
}

TEST(RecurrenceRule, EveryThirdYearOnYearDays) {
  EXPECT_EQ(
      NewYork("19970101T090000", "RRULE:FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200\r\n"),
      (Strings{Est("1997-01-01"), Edt("1997-04-10"), Edt("1997-07-19"), Est("2000-01-01"),
               Edt("2000-04-09"), Edt("2000-07-18"), Est("2003-01-01"), Edt("2003-04-10"),
               Edt("2003-07-19"), Est("2006-01-01")}));
}

TEST(RecurrenceRule, TwentiethMondayOfTheYear) {
  Strings got = NewYork("19970519T090000", "RRULE:FREQ=YEARLY;BYDAY=20MO\r\n");
  ASSERT_GE(got.size(), 3u);
  EXPECT_EQ(Strings(got.begin(), got.begin() + 3),
            (Strings{Edt("1997-05-19"), Edt("1998-05-18"), Edt("1999-05-17")}));
}

TEST(RecurrenceRule, MondayOfWeekTwenty) {
  Strings got = NewYork("19970512T090000", "RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO\r\n");
  ASSERT_GE(got.size(), 3u);
  EXPECT_EQ(Strings(got.begin(), got.begin() + 3),
            (Strings{Edt("1997-05-12"), Edt("1998-05-11"), Edt("1999-05-17")}));
}

TEST(RecurrenceRule, EveryThursdayInMarch) {
  Strings got = NewYork("19970313T090000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=TH\r\n");
  ASSERT_GE(got.size(), 11u);
  EXPECT_EQ(Strings(got.begin(), got.begin() + 11),
            (Strings{Est("1997-03-13"), Est("1997-03-20"), Est("1997-03-27"), Est("1998-03-05"),
                     Est("1998-03-12"), Est("1998-03-19"), Est("1998-03-26"), Est("1999-03-04"),
                     Est("1999-03-11"), Est("1999-03-18"), Est("1999-03-25")}));
}

TEST(RecurrenceRule, EveryFridayTheThirteenthExceptDtstart) {
  Strings got = NewYork("19970902T090000",
                        "EXDATE;TZID=America/New_York:19970902T090000\r\n"
                        "RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13\r\n");
  ASSERT_GE(got.size(), 5u);
  EXPECT_EQ(Strings(got.begin(), got.begin() + 5),
            (Strings{Est("1998-02-13"), Est("1998-03-13"), Est("1998-11-13"), Edt("1999-08-13"),
                     Edt("2000-10-13")}));
}

TEST(RecurrenceRule, FirstSaturdayAfterTheFirstSunday) {
  Strings got =
      NewYork("19970913T090000", "RRULE:FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13\r\n");
  ASSERT_GE(got.size(), 10u);
  EXPECT_EQ(Strings(got.begin(), got.begin() + 10),
            (Strings{Edt("1997-09-13"), Edt("1997-10-11"), Est("1997-11-08"), Est("1997-12-13"),
                     Est("1998-01-10"), Est("1998-02-07"), Est("1998-03-07"), Edt("1998-04-11"),
                     Edt("1998-05-09"), Edt("1998-06-13")}));
}

TEST(RecurrenceRule, UsElectionDay) {
  Strings got = NewYork("19961105T090000",
                        "RRULE:FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;"
                        "BYMONTHDAY=2,3,4,5,6,7,8\r\n");
  EXPECT_EQ(got, (Strings{Est("1996-11-05"), Est("2000-11-07"), Est("2004-11-02")}));
}

TEST(RecurrenceRule, SetPosThirdWeekdayInstance) {
  EXPECT_EQ(NewYork("19970904T090000", "RRULE:FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3\r\n"),
            (Strings{Edt("1997-09-04"), Edt("1997-10-07"), Est("1997-11-06")}));
}

TEST(RecurrenceRule, SetPosSecondToLastWeekday) {
  Strings got =
      NewYork("19970929T090000", "RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2\r\n");
  ASSERT_GE(got.size(), 7u);
  EXPECT_EQ(Strings(got.begin(), got.begin() + 7),
            (Strings{Edt("1997-09-29"), Est("1997-10-30"), Est("1997-11-27"), Est("1997-12-30"),
                     Est("1998-01-29"), Est("1998-02-26"), Est("1998-03-30")}));
}

TEST(RecurrenceRule, EveryFifteenMinutesSixTimes) {
  EXPECT_EQ(NewYork("19970902T090000", "RRULE:FREQ=MINUTELY;INTERVAL=15;COUNT=6\r\n"),
            (Strings{Edt("1997-09-02", "09:00"), Edt("1997-09-02", "09:15"),
                     Edt("1997-09-02", "09:30"), Edt("1997-09-02", "09:45"),
                     Edt("1997-09-02", "10:00"), Edt("1997-09-02", "10:15")}));
}

TEST(RecurrenceRule, EveryHourAndAHalfFourTimes) {
  EXPECT_EQ(NewYork("19970902T090000", "RRULE:FREQ=MINUTELY;INTERVAL=90;COUNT=4\r\n"),
            (Strings{Edt("1997-09-02", "09:00"), Edt("1997-09-02", "10:30"),
                     Edt("1997-09-02", "12:00"), Edt("1997-09-02", "13:30")}));
}

TEST(RecurrenceRule, EveryTwentyMinutesDuringOfficeHoursTwoWays) {
  auto first_day = [](Strings all) {
    Strings out;
    for (const std::string& s : all) {
      if (s.rfind("1997-09-02", 0) == 0) out.push_back(s);
    }
    return out;
  };
  Strings daily = first_day(
      NewYork("19970902T090000",
              "RRULE:FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40;COUNT=48\r\n"));
  Strings minutely = first_day(
      NewYork("19970902T090000",
              "RRULE:FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16;COUNT=48\r\n"));
  ASSERT_EQ(daily.size(), 24u);
  EXPECT_EQ(daily.front(), Edt("1997-09-02", "09:00"));
  EXPECT_EQ(daily[1], Edt("1997-09-02", "09:20"));
  EXPECT_EQ(daily.back(), Edt("1997-09-02", "16:40"));
  EXPECT_EQ(daily, minutely);
}

TEST(RecurrenceRule, WeekStartChangesBiweeklyResults) {
  EXPECT_EQ(
      NewYork("19970805T090000", "RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO\r\n"),
      (Strings{Edt("1997-08-05"), Edt("1997-08-10"), Edt("1997-08-19"), Edt("1997-08-24")}));
  EXPECT_EQ(
      NewYork("19970805T090000", "RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU\r\n"),
      (Strings{Edt("1997-08-05"), Edt("1997-08-17"), Edt("1997-08-19"), Edt("1997-08-31")}));
}

TEST(RecurrenceRule, InvalidDatesAreSkipped) {
  EXPECT_EQ(NewYork("20070115T090000", "RRULE:FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5\r\n"),
            (Strings{Est("2007-01-15"), Est("2007-01-30"), Est("2007-02-15"), Edt("2007-03-15"),
                     Edt("2007-03-30")}));
}

TEST(RecurrenceRule, HourlyUntil) {
  EXPECT_EQ(NewYork("19970902T090000", "RRULE:FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T190000Z\r\n"),
            (Strings{Edt("1997-09-02", "09:00"), Edt("1997-09-02", "12:00"),
                     Edt("1997-09-02", "15:00")}));
}

TEST(RecurrenceRule, LongRunningRuleSkipsAheadToTheWindow) {
  // A daily standup since 1970, asked about one week in 2026: no COUNT, so
  // expansion jumps to the window instead of stepping 20,000 days.
  ExpansionRange range;
  range.from = testing::Iso("2026-03-02T00:00:00Z");
  range.to = testing::Iso("2026-03-08T23:59:59Z");
  range.max_occurrences = 100;
  int64_t budget = 50;
  auto rule = ParseRecurrenceRule("FREQ=DAILY");
  ASSERT_TRUE(rule.ok());
  auto got = ExpandRule(*rule, testing::Iso("1970-01-01T09:00:00Z"), range, &budget);
  EXPECT_EQ(got.size(), 7u);
  EXPECT_GT(budget, 20);  // About two units per day stepped, not 20,000.
}

TEST(RecurrenceRule, BudgetBoundsAHugeCount) {
  ExpansionRange range;
  range.from = testing::Iso("2026-03-02T00:00:00Z");
  range.to = testing::Iso("2026-03-08T00:00:00Z");
  range.max_occurrences = 100;
  int64_t budget = 1000;
  auto rule = ParseRecurrenceRule("FREQ=SECONDLY;COUNT=2000000000");
  ASSERT_TRUE(rule.ok());
  auto got = ExpandRule(*rule, testing::Iso("1970-01-01T09:00:00Z"), range, &budget);
  EXPECT_TRUE(got.empty());
  EXPECT_LE(budget, 0);
}

}  // namespace
}  // namespace ensemble::core::calendar
