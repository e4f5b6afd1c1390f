// Time zones: the built-in IANA data and its POSIX footer rules, Windows
// names, VTIMEZONE definitions, and wall-clock to UTC at DST changes.

#include <gtest/gtest.h>

#include "core/calendar/civil_time.h"
#include "core/calendar/posix_tz.h"
#include "core/calendar/time_zone.h"
#include "tests/core/calendar/ics_test_util.h"

namespace ensemble::core::calendar {
namespace {

using testing::Expand;
using testing::Iso;
using testing::OneEvent;
using testing::Starts;

int32_t OffsetAt(const char* zone, const char* iso) {
  auto z = FindBuiltinZone(zone);
  EXPECT_NE(z, nullptr) << zone;
  return z ? z->OffsetAt(Iso(iso)) : -1;
}

TEST(PosixTz, EvaluatesNorthernAndSouthernRules) {
  auto us = PosixTz::Parse("EST5EDT,M3.2.0,M11.1.0");
  ASSERT_TRUE(us.has_value());
  EXPECT_EQ(us->OffsetAt(Iso("2030-03-10T06:59:59Z")), -5 * 3600);
  EXPECT_EQ(us->OffsetAt(Iso("2030-03-10T07:00:00Z")), -4 * 3600);
  EXPECT_EQ(us->OffsetAt(Iso("2030-11-03T05:59:59Z")), -4 * 3600);
  EXPECT_EQ(us->OffsetAt(Iso("2030-11-03T06:00:00Z")), -5 * 3600);
  auto sydney = PosixTz::Parse("AEST-10AEDT,M10.1.0,M4.1.0/3");
  ASSERT_TRUE(sydney.has_value());
  EXPECT_EQ(sydney->OffsetAt(Iso("2031-01-15T00:00:00Z")), 11 * 3600);
  EXPECT_EQ(sydney->OffsetAt(Iso("2031-07-15T00:00:00Z")), 10 * 3600);
  auto india = PosixTz::Parse("<+0530>-5:30");
  ASSERT_TRUE(india.has_value());
  EXPECT_EQ(india->OffsetAt(0), 19800);
  for (const char* bad : {"", "X5", "EST", "EST5EDT,M13.1.0,M11.1.0", "EST5EDT,M3.2.0", "<EST5"}) {
    EXPECT_FALSE(PosixTz::Parse(bad).has_value()) << bad;
  }
}

TEST(TimeZone, BuiltinZonesFollowHistoryAndFooterRules) {
  // 2006: US DST from the first Sunday of April; 2007 onwards, the second Sunday of March.
  EXPECT_EQ(OffsetAt("America/New_York", "2006-03-20T12:00:00Z"), -5 * 3600);
  EXPECT_EQ(OffsetAt("America/New_York", "2007-03-20T12:00:00Z"), -4 * 3600);
  EXPECT_EQ(OffsetAt("America/New_York", "2026-07-01T12:00:00Z"), -4 * 3600);
  EXPECT_EQ(OffsetAt("America/New_York", "2045-12-01T12:00:00Z"), -5 * 3600);
  EXPECT_EQ(OffsetAt("Europe/Berlin", "2026-03-29T00:59:59Z"), 3600);
  EXPECT_EQ(OffsetAt("Europe/Berlin", "2026-03-29T01:00:00Z"), 7200);
  EXPECT_EQ(OffsetAt("Australia/Sydney", "2026-01-10T00:00:00Z"), 11 * 3600);
  EXPECT_EQ(OffsetAt("Asia/Kolkata", "2026-01-10T00:00:00Z"), 19800);
  EXPECT_EQ(OffsetAt("Europe/Moscow", "2012-01-10T00:00:00Z"), 4 * 3600);  // 2011-2014: UTC+4.
  EXPECT_EQ(OffsetAt("Europe/Moscow", "2016-01-10T00:00:00Z"), 3 * 3600);
  EXPECT_EQ(OffsetAt("US/Eastern", "2026-01-10T00:00:00Z"), -5 * 3600);  // A link.
  EXPECT_EQ(OffsetAt("UTC", "2026-01-10T00:00:00Z"), 0);
  EXPECT_EQ(FindBuiltinZone("Mars/Olympus_Mons"), nullptr);
}

TEST(TimeZone, WindowsNamesMapToIanaZones) {
  EXPECT_EQ(WindowsZoneToIana("Pacific Standard Time"), "America/Los_Angeles");
  EXPECT_EQ(WindowsZoneToIana("W. Europe Standard Time"), "Europe/Berlin");
  EXPECT_EQ(WindowsZoneToIana("India Standard Time"), "Asia/Calcutta");
  EXPECT_EQ(WindowsZoneToIana("Nowhere Standard Time"), "");
  EXPECT_EQ(OffsetAt("Pacific Standard Time", "2026-07-01T12:00:00Z"), -7 * 3600);
  EXPECT_EQ(OffsetAt("AUS Eastern Standard Time", "2026-07-01T12:00:00Z"), 10 * 3600);
  EXPECT_EQ(OffsetAt("/mozilla.org/20050126_1/Europe/Paris", "2026-07-01T12:00:00Z"), 7200);
}

TEST(TimeZone, EveryBuiltinRuleParsesAndEveryWindowsNameResolves) {
  const auto zones = BuiltinZones();
  EXPECT_GT(zones.size(), 300u);
  for (const BuiltinZoneInfo& z : zones) {
    EXPECT_TRUE(z.posix_rule.empty() || PosixTz::Parse(z.posix_rule).has_value())
        << z.name << ": " << z.posix_rule;
  }
  const auto windows = WindowsZoneNames();
  EXPECT_GT(windows.size(), 130u);
  for (std::string_view w : windows) {
    EXPECT_NE(FindBuiltinZone(WindowsZoneToIana(w)), nullptr) << w;
  }
}

TEST(TimeZone, OffsetSpansAreConsistent) {
  // Callers cache an answer over its span: the offset must hold across it.
  for (const char* name : {"America/New_York", "Australia/Sydney", "America/Nuuk", "Asia/Gaza",
                           "Africa/Casablanca", "Europe/Dublin", "Pacific/Chatham"}) {
    auto zone = FindBuiltinZone(name);
    ASSERT_NE(zone, nullptr) << name;
    int64_t last_from = 0, last_to = 0;
    int32_t last_offset = 0;
    for (int64_t t = Iso("1995-01-01T00:00:00Z"); t < Iso("2040-01-01T00:00:00Z");
         t += 6 * 3600 + 17) {
      int64_t from, to;
      const int32_t offset = zone->OffsetSpan(t, &from, &to);
      ASSERT_EQ(offset, zone->OffsetAt(t)) << name << " " << t;
      if (t >= last_from && t < last_to) ASSERT_EQ(offset, last_offset) << name << " " << t;
      last_from = from;
      last_to = to;
      last_offset = offset;
      ASSERT_LE(from, t);
      ASSERT_GT(to, t);
      if (from != INT64_MIN) ASSERT_EQ(zone->OffsetAt(from), offset) << name << " " << from;
      if (to != INT64_MAX) ASSERT_EQ(zone->OffsetAt(to - 1), offset) << name << " " << to;
    }
  }
}

TEST(TimeZone, LocalTimesInGapsAndOverlaps) {
  auto ny = FindBuiltinZone("America/New_York");
  ASSERT_NE(ny, nullptr);
  // 2026-03-08 02:30 does not exist: read with the offset before the gap.
  EXPECT_EQ(ny->LocalToUtc(LocalSeconds(2026, 3, 8, 2, 30, 0)), Iso("2026-03-08T07:30:00Z"));
  // 2026-11-01 01:30 happens twice: the first (daylight) one.
  EXPECT_EQ(ny->LocalToUtc(LocalSeconds(2026, 11, 1, 1, 30, 0)), Iso("2026-11-01T05:30:00Z"));
  EXPECT_EQ(ny->LocalToUtc(LocalSeconds(2026, 11, 1, 3, 0, 0)), Iso("2026-11-01T08:00:00Z"));
}

TEST(TimeZone, WeeklyMeetingKeepsItsWallClockAcrossDst) {
  auto cal = Expand(OneEvent("DTSTART;TZID=Europe/Berlin:20260319T100000\r\n"
                             "DTEND;TZID=Europe/Berlin:20260319T110000\r\n"
                             "RRULE:FREQ=WEEKLY;COUNT=3\r\n"),
                    "2026-03-01T00:00:00Z", "2026-05-01T00:00:00Z");
  EXPECT_EQ(Starts(cal), (std::vector<std::string>{"2026-03-19T10:00:00+01:00",
                                                   "2026-03-26T10:00:00+01:00",
                                                   "2026-04-02T10:00:00+02:00"}));
  ASSERT_EQ(cal.events.size(), 3u);
  EXPECT_EQ(cal.events[2].end - cal.events[2].start, 3600);
}

TEST(TimeZone, OutlookWindowsTzid) {
  auto cal = Expand(OneEvent("DTSTART;TZID=\"Eastern Standard Time\":20260706T090000\r\n"
                             "DTEND;TZID=\"Eastern Standard Time\":20260706T093000\r\n"),
                    "2026-07-01T00:00:00Z", "2026-08-01T00:00:00Z");
  EXPECT_EQ(Starts(cal), std::vector<std::string>{"2026-07-06T09:00:00-04:00"});
}

constexpr char kCustomZone[] =
    "BEGIN:VTIMEZONE\r\n"
    "TZID:Customized Time Zone\r\n"
    "BEGIN:STANDARD\r\n"
    "DTSTART:16010101T030000\r\n"
    "TZOFFSETFROM:+0200\r\n"
    "TZOFFSETTO:+0100\r\n"
    "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\n"
    "END:STANDARD\r\n"
    "BEGIN:DAYLIGHT\r\n"
    "DTSTART:16010101T020000\r\n"
    "TZOFFSETFROM:+0100\r\n"
    "TZOFFSETTO:+0200\r\n"
    "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r\n"
    "END:DAYLIGHT\r\n"
    "END:VTIMEZONE\r\n";

TEST(TimeZone, VTimezoneDefinitionWithRules) {
  auto cal = Expand(OneEvent("DTSTART;TZID=Customized Time Zone:20260326T100000\r\n"
                             "DURATION:PT1H\r\n"
                             "RRULE:FREQ=DAILY;COUNT=4\r\n",
                             kCustomZone),
                    "2026-03-01T00:00:00Z", "2026-05-01T00:00:00Z");
  EXPECT_EQ(Starts(cal), (std::vector<std::string>{
                             "2026-03-26T10:00:00+01:00", "2026-03-27T10:00:00+01:00",
                             "2026-03-28T10:00:00+01:00", "2026-03-29T10:00:00+02:00"}));
}

TEST(TimeZone, VTimezoneWithOnlyRdates) {
  const std::string zone =
      "BEGIN:VTIMEZONE\r\nTZID:Odd\r\n"
      "BEGIN:STANDARD\r\nDTSTART:20000101T000000\r\nTZOFFSETFROM:+0300\r\n"
      "TZOFFSETTO:+0300\r\nEND:STANDARD\r\n"
      "BEGIN:DAYLIGHT\r\nDTSTART:20260601T000000\r\nRDATE:20260601T000000,20270601T000000\r\n"
      "TZOFFSETFROM:+0300\r\nTZOFFSETTO:+0400\r\nEND:DAYLIGHT\r\n"
      "END:VTIMEZONE\r\n";
  auto cal = Expand(OneEvent("DTSTART;TZID=Odd:20260610T120000\r\n", zone),
                    "2026-06-01T00:00:00Z", "2026-07-01T00:00:00Z");
  EXPECT_EQ(Starts(cal), std::vector<std::string>{"2026-06-10T12:00:00+04:00"});
}

TEST(TimeZone, IanaTzidBeatsAStaleVTimezone) {
  // The calendar's definition claims Berlin is UTC+5; the built-in data wins
  // for an exact IANA name.
  const std::string zone =
      "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\n"
      "TZOFFSETFROM:+0500\r\nTZOFFSETTO:+0500\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n";
  auto cal = Expand(OneEvent("DTSTART;TZID=Europe/Berlin:20260110T120000\r\n", zone),
                    "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z");
  EXPECT_EQ(Starts(cal), std::vector<std::string>{"2026-01-10T12:00:00+01:00"});
}

TEST(TimeZone, FloatingTimesUseXWrTimezoneElseUtc) {
  auto utc = Expand(OneEvent("DTSTART:20260110T120000\r\n"), "2026-01-01T00:00:00Z",
                    "2026-02-01T00:00:00Z");
  EXPECT_EQ(Starts(utc), std::vector<std::string>{"2026-01-10T12:00:00Z"});
  auto tokyo = Expand(OneEvent("DTSTART:20260110T120000\r\n", "X-WR-TIMEZONE:Asia/Tokyo\r\n"),
                      "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z");
  EXPECT_EQ(Starts(tokyo), std::vector<std::string>{"2026-01-10T12:00:00+09:00"});
}

TEST(TimeZone, UnknownTzidIsReadAsFloatingWithAWarning) {
  auto cal = Expand(OneEvent("DTSTART;TZID=Atlantis/Lost:20260110T120000\r\n"),
                    "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z");
  EXPECT_EQ(Starts(cal), std::vector<std::string>{"2026-01-10T12:00:00Z"});
  ASSERT_EQ(cal.warnings.size(), 1u);
  EXPECT_NE(cal.warnings[0].find("Atlantis/Lost"), std::string::npos);
}

}  // namespace
}  // namespace ensemble::core::calendar
