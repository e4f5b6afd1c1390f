// The iCalendar reader: syntax (unfolding, escaping, parameters), refusal of
// non-calendars, events and their fields, all-day dates, overrides, EXDATE,
// RDATE periods, the window and its cap, and sample feeds from
// tests/data/calendar.

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/calendar/ics_calendar.h"
#include "core/calendar/ics_parser.h"
#include "core/calendar/join_url.h"
#include "core/text/redact.h"
#include "core/text/utf8.h"
#include "tests/core/calendar/ics_test_util.h"

namespace ensemble::core::calendar {
namespace {

using testing::Expand;
using testing::Iso;
using testing::OneEvent;
using testing::Starts;
using Strings = std::vector<std::string>;

std::string ReadData(const std::string& name) {
  const char* root = std::getenv("ENSEMBLE_SOURCE_DIR");
  std::ifstream in(std::string(root ? root : ".") + "/tests/data/calendar/" + name,
                   std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST(IcsParser, UnfoldsLinesAndReadsParameters) {
  auto cals = ParseIcs(
      "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY;LANGUAGE=en:Long ti\n tle\nATTENDEE;CN=\"Lee, "
      "Dana\";ROLE=REQ-PARTICIPANT;DELEGATED-TO=\"mailto:a@x\",\"mailto:b@x\":mailto:d@x\n"
      "X-NOTE;X-Q=\"say ^'hi^' ^^ok\":v\nEND:VEVENT\nEND:VCALENDAR");
  ASSERT_TRUE(cals.ok()) << cals.status().ToString();
  ASSERT_EQ(cals->size(), 1u);
  const IcsComponent& event = (*cals)[0].children.at(0);
  EXPECT_EQ(event.Find("SUMMARY")->value, "Long title");
  const IcsProperty* attendee = event.Find("ATTENDEE");
  EXPECT_EQ(*attendee->Param("CN"), "Lee, Dana");
  EXPECT_EQ(attendee->params[2].values, (Strings{"mailto:a@x", "mailto:b@x"}));
  EXPECT_EQ(attendee->value, "mailto:d@x");
  EXPECT_EQ(*event.Find("X-NOTE")->Param("X-Q"), "say \"hi\" ^ok");
}

TEST(IcsParser, UnescapesText) {
  EXPECT_EQ(UnescapeText("a\\, b\\; c\\\\d\\nline\\Nx"), "a, b; c\\d\nline\nx");
}

TEST(IcsParser, AcceptsCrLineEndingsAndAByteOrderMark) {
  auto cals = ParseIcs(
      "\xEF\xBB\xBF"
      "BEGIN:VCALENDAR\rBEGIN:VEVENT\rUID:1\rEND:VEVENT\rEND:VCALENDAR\r");
  ASSERT_TRUE(cals.ok());
  EXPECT_EQ((*cals)[0].children.at(0).Find("UID")->value, "1");
}

TEST(IcsParser, RefusesAnythingThatIsNotACalendar) {
  for (const char* text : {"", "\r\n\r\n", "<html><body>Sign in</body></html>",
                           "BEGIN:VCARD\r\nFN:Dana\r\nEND:VCARD\r\n", "{\"events\": []}",
                           "SUMMARY:x\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"}) {
    auto cals = ParseIcs(text);
    ASSERT_FALSE(cals.ok()) << text;
    EXPECT_EQ(cals.status().code(), codes::kNotICalendar);
  }
  ExpandOptions options;
  options.window = {0, 1};
  auto expanded = ExpandIcs("BEGIN:VCARD\r\nEND:VCARD\r\n", "x", options);
  ASSERT_FALSE(expanded.ok());
  EXPECT_EQ(expanded.status().code(), codes::kNotICalendar);
}

TEST(IcsParser, BoundsSizeAndNesting) {
  std::string big = "BEGIN:VCALENDAR\r\n" + std::string(kMaxIcsBytes, 'x');
  EXPECT_EQ(ParseIcs(big).status().code(), core::codes::kBodyTooLarge);
  std::string deep = "BEGIN:VCALENDAR\r\n";
  for (int i = 0; i < 20; ++i) deep += "BEGIN:X\r\n";
  EXPECT_EQ(ParseIcs(deep).status().code(), codes::kMalformedICalendar);
  std::string long_line =
      "BEGIN:VCALENDAR\r\nDESCRIPTION:" + std::string(kMaxContentLineBytes, 'a');
  EXPECT_EQ(ParseIcs(long_line).status().code(), codes::kMalformedICalendar);
}

TEST(IcsParser, ToleratesJunkLinesAndTruncation) {
  auto cals = ParseIcs(
      "BEGIN:VCALENDAR\r\nthis is not a line\r\nBEGIN:VEVENT\r\nUID:1\r\n"
      "END:VTODO\r\n;;;\r\nSUMMARY:ok");
  ASSERT_TRUE(cals.ok());
  EXPECT_EQ((*cals)[0].children.at(0).Find("SUMMARY")->value, "ok");
}

TEST(JoinUrl, FindsMeetTeamsZoomAndWebex) {
  EXPECT_EQ(FindJoinUrl("Join: https://meet.google.com/abc-defg-hij."),
            "https://meet.google.com/abc-defg-hij");
  EXPECT_EQ(FindJoinUrl("<https://teams.microsoft.com/l/meetup-join/19%3ameeting_x%40thread.v2/0>"),
            "https://teams.microsoft.com/l/meetup-join/19%3ameeting_x%40thread.v2/0");
  EXPECT_EQ(FindJoinUrl("docs https://example.com/j/1 then https://us02web.zoom.us/j/123?pwd=z"),
            "https://us02web.zoom.us/j/123?pwd=z");
  EXPECT_EQ(FindJoinUrl("(https://acme.webex.com/acme/j.php?MTID=m1)"),
            "https://acme.webex.com/acme/j.php?MTID=m1");
  EXPECT_EQ(FindJoinUrl("https://zoom.us/pricing and https://notzoom.us/j/1"), "");
  EXPECT_EQ(FindJoinUrl("no link"), "");
}

TEST(IcsCalendar, DescriptionsComeInRedactedAndCappedButTheJoinLinkWhole) {
  const std::string filler(30000, 'x');
  auto cal = Expand(
      OneEvent("DTSTART:20260310T150000Z\r\nDTEND:20260310T160000Z\r\n"
               "DESCRIPTION:Join https://zoom.us/j/123?pwd=Ab12\\nMeeting password: 998877\\n"
               "key AKIAIOSFODNN7EXAMPLE\\n" +
               filler + "\r\nLOCATION:Room secret=blue\r\n"),
      "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z");
  ASSERT_EQ(cal.events.size(), 1u);
  const CalendarEvent& e = cal.events[0];
  // The link joins the meeting, passcode and all; the text keeps no passcode.
  EXPECT_EQ(e.join_url, "https://zoom.us/j/123?pwd=Ab12");
  EXPECT_TRUE(e.description.starts_with(
      "Join https://zoom.us/j/123?pwd=[redacted]\nMeeting password: [redacted]\nkey "
      "[redacted]\nxxx"))
      << e.description.substr(0, 120);
  EXPECT_EQ(text::CountCodePoints(e.description), text::kMaxIngestTextChars);
  EXPECT_EQ(e.location, "Room secret=[redacted]");
}

TEST(IcsCalendar, ReadsEventFields) {
  auto cal = Expand(OneEvent("DTSTART:20260310T150000Z\r\nDTEND:20260310T160000Z\r\n"
                             "DESCRIPTION:Line one\\nLine two\\, with comma\r\n"
                             "LOCATION:Room 4 / https://meet.google.com/xyz-abcd-efg\r\n"
                             "ORGANIZER;CN=Dana:MAILTO:dana@example.com\r\n"
                             "ATTENDEE;CN=Sam:mailto:sam@example.com\r\n"
                             "CREATED:20260101T000000Z\r\nSTATUS:tentative\r\n"),
                    "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z");
  ASSERT_EQ(cal.events.size(), 1u);
  const CalendarEvent& e = cal.events[0];
  EXPECT_EQ(e.uid, "event-1");
  EXPECT_EQ(e.title, "Test");
  EXPECT_EQ(e.description, "Line one\nLine two, with comma");
  EXPECT_EQ(e.join_url, "https://meet.google.com/xyz-abcd-efg");
  EXPECT_EQ(e.organizer, "dana@example.com");
  ASSERT_EQ(e.attendees.size(), 1u);
  EXPECT_EQ(e.attendees[0].email, "sam@example.com");
  EXPECT_EQ(e.attendees[0].name, "Sam");
  EXPECT_EQ(e.created, Iso("2026-01-01T00:00:00Z"));
  EXPECT_EQ(e.status, "TENTATIVE");
  EXPECT_EQ(e.start, Iso("2026-03-10T15:00:00Z"));
  EXPECT_EQ(e.end, Iso("2026-03-10T16:00:00Z"));
  EXPECT_EQ(e.original_start, 0);
  EXPECT_EQ(e.id.rfind("ics:test:", 0), 0u);
  EXPECT_EQ(e.calendar, "test");
}

TEST(IcsCalendar, AllDayEventsEndExclusive) {
  auto cal = Expand(ReadData("holidays.ics"), "2026-12-01T00:00:00Z", "2027-01-15T00:00:00Z");
  EXPECT_EQ(Starts(cal), (Strings{"2026-12-01", "2026-12-08", "2026-12-15", "2026-12-24",
                                  "2026-12-25", "2026-12-31"}));
  for (const CalendarEvent& e : cal.events) EXPECT_TRUE(e.all_day);
  EXPECT_EQ(FormatIsoDate(cal.events[3].end), "2026-12-25");  // Eve: no DTEND, one day.
  EXPECT_EQ(FormatIsoDate(cal.events[5].end), "2027-01-02");
  EXPECT_EQ(ToJson(cal.events[4]).dump(),
            R"({"allDay":true,"calendar":"test","end":"2026-12-26","recurrenceId":"2026-12-25",)"
            R"("start":"2026-12-25","summary":"Christmas Day","uid":"christmas@holidays"})");
}

TEST(IcsCalendar, AllDayEventTouchingTheWindowEdgeIsOut) {
  auto cal = Expand(OneEvent("DTSTART;VALUE=DATE:20260309\r\nDTEND;VALUE=DATE:20260310\r\n"),
                    "2026-03-10T00:00:00Z", "2026-03-11T00:00:00Z");
  EXPECT_TRUE(cal.events.empty());
}

TEST(IcsCalendar, GoogleFeedWithOverridesExdateAndCancellation) {
  auto cal = Expand(ReadData("google_work.ics"), "2026-03-01T00:00:00Z", "2026-03-21T00:00:00Z");
  Strings summaries;
  for (const auto& e : cal.events)
    summaries.push_back(FormatIsoTime(e.start, e.start_offset) + " " + e.title);
  EXPECT_EQ(summaries, (Strings{
                           "2026-03-02T09:30:00-05:00 Team standup",
                           // 03-04 removed by EXDATE.
                           "2026-03-05T17:00:00Z Quarterly review",
                           "2026-03-06T09:30:00-05:00 Team standup",
                           "2026-03-09T09:30:00-04:00 Team standup",  // After the DST change.
                           "2026-03-11T11:00:00-04:00 Team standup (moved)",
                           // 03-13 cancelled.
                           "2026-03-16T09:30:00-04:00 Team standup",
                           "2026-03-18T09:30:00-04:00 Team standup",
                           "2026-03-20T09:30:00-04:00 Team standup",
                       }));
  const CalendarEvent& first = cal.events[0];
  EXPECT_EQ(first.join_url, "https://meet.google.com/abc-defg-hij");
  EXPECT_NE(first.description.find("Notes, agenda and links"), std::string::npos);
  ASSERT_EQ(first.attendees.size(), 2u);
  EXPECT_EQ(first.attendees[0].name, "Lee, Dana");
  EXPECT_EQ(first.original_start, first.start);
  EXPECT_EQ(cal.events[1].join_url, "https://acme.zoom.us/j/98765432100?pwd=abc");
  const CalendarEvent& moved = cal.events[4];
  EXPECT_EQ(moved.original_start, Iso("2026-03-11T13:30:00Z"));
  EXPECT_EQ(ToJson(moved)["recurrenceId"], "2026-03-11T09:30:00-04:00");
  EXPECT_NE(moved.id, cal.events[3].id);
}

TEST(IcsCalendar, OutlookFeedWithWindowsZoneAndTeams) {
  auto cal = Expand(ReadData("outlook.ics"), "2026-03-01T00:00:00Z", "2026-05-01T00:00:00Z");
  EXPECT_EQ(Starts(cal), (Strings{"2026-03-03T14:00:00+01:00", "2026-03-10T08:00:00+01:00",
                                  "2026-04-07T14:00:00+02:00"}));
  EXPECT_EQ(cal.events[0].join_url.rfind("https://teams.microsoft.com/l/meetup-join/", 0), 0u);
  EXPECT_EQ(cal.events[0].title, "Monthly planning");
  EXPECT_EQ(cal.events[1].join_url, "https://acme.webex.com/meet/jdoe");
}

TEST(IcsCalendar, RdatePeriodsAndDurations) {
  auto cal = Expand(OneEvent("DTSTART;TZID=Europe/London:20260601T100000\r\n"
                             "DURATION:PT30M\r\n"
                             "RDATE;VALUE=PERIOD:20260602T120000Z/20260602T150000Z,"
                             "20260603T090000Z/PT2H\r\n"
                             "RDATE;TZID=Europe/London:20260604T080000\r\n"),
                    "2026-06-01T00:00:00Z", "2026-06-30T00:00:00Z");
  ASSERT_EQ(cal.events.size(), 4u);
  EXPECT_EQ(Starts(cal), (Strings{"2026-06-01T10:00:00+01:00", "2026-06-02T13:00:00+01:00",
                                  "2026-06-03T10:00:00+01:00", "2026-06-04T08:00:00+01:00"}));
  EXPECT_EQ(cal.events[0].end - cal.events[0].start, 1800);
  EXPECT_EQ(cal.events[1].end - cal.events[1].start, 3 * 3600);
  EXPECT_EQ(cal.events[2].end - cal.events[2].start, 2 * 3600);
  EXPECT_EQ(cal.events[3].end - cal.events[3].start, 1800);
}

TEST(IcsCalendar, OverridesMatchByZoneOrFloatingWallClock) {
  const std::string ics =
      "BEGIN:VCALENDAR\r\n"
      "BEGIN:VEVENT\r\nUID:m\r\nSUMMARY:Daily\r\nDTSTART;TZID=Europe/Paris:20260601T100000\r\n"
      "DURATION:PT1H\r\nRRULE:FREQ=DAILY;COUNT=4\r\nEND:VEVENT\r\n"
      "BEGIN:VEVENT\r\nUID:m\r\nSUMMARY:Moved\r\nRECURRENCE-ID:20260602T100000\r\n"
      "DTSTART;TZID=Europe/Paris:20260602T150000\r\nDURATION:PT1H\r\nEND:VEVENT\r\n"
      "BEGIN:VEVENT\r\nUID:m\r\nSUMMARY:Gone\r\nRECURRENCE-ID:20260603T080000Z\r\n"
      "DTSTART;TZID=Europe/Paris:20260603T100000\r\nSTATUS:CANCELLED\r\nEND:VEVENT\r\n"
      "END:VCALENDAR\r\n";
  auto cal = Expand(ics, "2026-06-01T00:00:00Z", "2026-06-30T00:00:00Z");
  EXPECT_EQ(Starts(cal), (Strings{"2026-06-01T10:00:00+02:00", "2026-06-02T15:00:00+02:00",
                                  "2026-06-04T10:00:00+02:00"}));
  ASSERT_EQ(cal.events.size(), 3u);
  EXPECT_EQ(cal.events[1].title, "Moved");
}

TEST(IcsCalendar, ExdateInUtcAndAsDate) {
  auto cal = Expand(OneEvent("DTSTART;TZID=America/Chicago:20260601T090000\r\n"
                             "RRULE:FREQ=DAILY;COUNT=5\r\n"
                             "EXDATE:20260602T140000Z\r\nEXDATE;VALUE=DATE:20260604\r\n"),
                    "2026-06-01T00:00:00Z", "2026-06-30T00:00:00Z");
  EXPECT_EQ(Starts(cal), (Strings{"2026-06-01T09:00:00-05:00", "2026-06-03T09:00:00-05:00",
                                  "2026-06-05T09:00:00-05:00"}));
}

TEST(IcsCalendar, OnlyOccurrencesOverlappingTheWindow) {
  // A weekly 2-hour meeting; the window starts in the middle of one.
  auto cal = Expand(OneEvent("DTSTART:20200106T090000Z\r\nDTEND:20200106T110000Z\r\n"
                             "RRULE:FREQ=WEEKLY\r\n"),
                    "2026-03-02T10:00:00Z", "2026-03-16T09:00:00Z");
  EXPECT_EQ(Starts(cal), (Strings{"2026-03-02T09:00:00Z", "2026-03-09T09:00:00Z"}));
}

TEST(IcsCalendar, CapsEventsPerWindow) {
  auto cal = Expand(OneEvent("DTSTART:20260301T000000Z\r\nRRULE:FREQ=MINUTELY\r\n"
                             "DURATION:PT1M\r\n"),
                    "2026-03-01T00:00:00Z", "2026-03-08T00:00:00Z");
  EXPECT_EQ(cal.events.size(), kMaxEventsPerWindow);
  EXPECT_TRUE(cal.truncated);
  EXPECT_EQ(Starts(cal).front(), "2026-03-01T00:00:00Z");
}

TEST(IcsCalendar, CancelledEventsAreDroppedUnlessAsked) {
  const std::string ics = OneEvent("DTSTART:20260310T150000Z\r\nSTATUS:CANCELLED\r\n");
  EXPECT_TRUE(Expand(ics, "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z").events.empty());
  ExpandOptions options;
  options.window = {Iso("2026-03-01T00:00:00Z"), Iso("2026-04-01T00:00:00Z")};
  options.keep_cancelled = true;
  auto kept = ExpandIcs(ics, "x", options);
  ASSERT_TRUE(kept.ok());
  ASSERT_EQ(kept->events.size(), 1u);
  EXPECT_TRUE(kept->events[0].cancelled());
}

TEST(IcsCalendar, SkipsBrokenEventsWithWarnings) {
  auto cal = Expand(
      "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nSUMMARY:no start\r\nEND:VEVENT\r\n"
      "BEGIN:VEVENT\r\nUID:b\r\nDTSTART:2026-03-10\r\nEND:VEVENT\r\n"
      "BEGIN:VEVENT\r\nUID:c\r\nDTSTART:20260310T100000Z\r\nRRULE:FREQ=SOMETIMES\r\n"
      "END:VEVENT\r\nEND:VCALENDAR\r\n",
      "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z");
  ASSERT_EQ(cal.events.size(), 1u);  // c: its DTSTART still happens.
  EXPECT_EQ(cal.events[0].uid, "c");
  EXPECT_EQ(cal.warnings.size(), 3u);
}

TEST(IcsCalendar, DefaultWindowIsFourteenDaysBackAndFortyTwoAhead) {
  const TimeWindow w = DefaultWindow(Iso("2026-03-15T12:00:00Z"));
  EXPECT_EQ(w.from, Iso("2026-03-01T12:00:00Z"));
  EXPECT_EQ(w.to, Iso("2026-04-26T12:00:00Z"));
}

TEST(IcsCalendar, ParsesIsoInstants) {
  EXPECT_EQ(*ParseIsoInstant("2026-03-08T09:00:00-05:00"), Iso("2026-03-08T14:00:00Z"));
  EXPECT_EQ(*ParseIsoInstant("2026-03-08"), Iso("2026-03-08T00:00:00Z"));
  EXPECT_EQ(*ParseIsoInstant("2026-03-08T09:00"), Iso("2026-03-08T09:00:00Z"));
  for (const char* bad : {"", "2026", "2026-13-01", "2026-02-30", "2026-03-08T25:00", "tomorrow",
                          "2026-03-08T09:00:00+5"}) {
    EXPECT_FALSE(ParseIsoInstant(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace ensemble::core::calendar
