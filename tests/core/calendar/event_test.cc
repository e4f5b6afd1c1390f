// Tests of core/calendar/event.h's time formatting: the hand-written digits
// must print exactly what the printf formats they replaced printed, for
// ordinary instants and for the edges a hostile feed can reach (years past
// 9999 or before 0, offsets of more than 99 hours).

#include "core/calendar/event.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/calendar/civil_time.h"

namespace ensemble::core::calendar {
namespace {

// The printf-based formatting the hand-written one replaced.
std::string PrintfIsoTime(int64_t utc_seconds, int32_t offset_seconds, bool utc_z) {
  const int64_t local = utc_seconds + offset_seconds;
  const int64_t days = FloorDiv(local, kSecondsPerDay);
  const int64_t secs = local - days * kSecondsPerDay;
  const CivilDate date = CivilFromDays(days);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04lld-%02d-%02dT%02d:%02d:%02d",
                static_cast<long long>(date.year), date.month, date.day,
                static_cast<int>(secs / 3600), static_cast<int>(secs / 60 % 60),
                static_cast<int>(secs % 60));
  std::string out = buf;
  if (offset_seconds == 0 && utc_z) return out + "Z";
  const int32_t off = std::abs(offset_seconds);
  std::snprintf(buf, sizeof buf, "%c%02d:%02d", offset_seconds < 0 ? '-' : '+', off / 3600,
                off / 60 % 60);
  return out + buf;
}

TEST(Event, FormatIsoTimeWritesTheDigitsPrintfWrote) {
  const int64_t instants[] = {0,
                              1,
                              59,
                              86399,
                              86400,
                              -1,
                              -86400,
                              -86401,
                              1'790'000'000,
                              1'709'164'799 /* 2024-02-28T23:59:59Z */,
                              253'402'300'799,
                              253'402'300'800 /* 10000-01-01 */,
                              -62'167'219'200 /* 0000-01-01 */,
                              -62'167'219'201,
                              -100'000'000'000};
  const int32_t offsets[] = {
      0,      3600, -3600, 19800, -34200, 50400, 86399, -86399, 359'940 /* +99:59 */,
      360'000 /* +100:00 */};
  for (int64_t t : instants) {
    for (int32_t offset : offsets) {
      for (bool z : {true, false}) {
        EXPECT_EQ(FormatIsoTime(t, offset, z), PrintfIsoTime(t, offset, z))
            << t << " " << offset << " " << z;
      }
    }
  }
}

TEST(Event, FormatIsoDateWritesTheDigitsPrintfWrote) {
  EXPECT_EQ(FormatIsoDate(0), "1970-01-01");
  EXPECT_EQ(FormatIsoDate(1'709'164'800), "2024-02-29");
  EXPECT_EQ(FormatIsoDate(-86400), "1969-12-31");
  EXPECT_EQ(FormatIsoDate(253'402'300'800), "10000-01-01");
  EXPECT_EQ(FormatIsoDate(-62'167'219'200), "0000-01-01");
  EXPECT_EQ(FormatIsoDate(-62'167'219'200 - 86400), "-001-12-31");
}

}  // namespace
}  // namespace ensemble::core::calendar
