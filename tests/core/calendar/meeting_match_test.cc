#include "core/calendar/meeting_match.h"

#include <gtest/gtest.h>

namespace ensemble::core::calendar {
namespace {

constexpr int64_t kMeetingStart = 1796137200;  // 2026-12-01T15:00:00Z.
constexpr int64_t kOneMinute = 60;
constexpr int64_t kOneHour = 3600;

MergedEvent Event(std::string id, int64_t start, int64_t end, std::string title,
                  std::vector<std::string> attendees = {}) {
  CalendarEvent e;
  e.id = id;
  e.source = SourceKind::kGoogle;
  e.calendar = "Work";
  e.start = start;
  e.end = end;
  e.title = std::move(title);
  for (std::string& a : attendees) e.attendees.push_back({std::move(a), ""});
  MergedEvent m;
  m.event = e;
  m.sources = {{e.id, e.source, e.calendar}};
  return m;
}

Meeting At(int64_t start, int64_t end, std::string title, std::vector<std::string> attendees = {}) {
  Meeting m;
  m.start = start;
  m.end = end;
  m.title = std::move(title);
  m.attendees = std::move(attendees);
  m.my_addresses = {"me@example.com"};
  return m;
}

TEST(MeetingMatch, VendorEventIdWins) {
  std::vector<MergedEvent> events = {
      Event("g1", kMeetingStart, kMeetingStart + kOneHour, "Roadmap"),
      Event("g2", kMeetingStart + 5 * kOneHour, kMeetingStart + 6 * kOneHour, "Unrelated"),
  };
  // The second event has an Outlook copy whose Graph id the vendor names.
  CalendarEvent outlook = events[1].event;
  outlook.id = "outlook:AAMkGraph";
  events[1].sources.push_back({outlook.id, outlook.source, outlook.calendar});
  Meeting m = At(kMeetingStart, kMeetingStart + kOneHour, "Roadmap");
  m.vendor_event_id = "AAMkGraph";
  MeetingMatch match = MatchMeeting(m, events);
  EXPECT_EQ(match.index, 1);
  EXPECT_EQ(match.via, "vendorId");
  // An id naming no event falls back to scoring.
  m.vendor_event_id = "nope";
  match = MatchMeeting(m, events);
  EXPECT_EQ(match.index, 0);
  EXPECT_EQ(match.via, "score");
}

TEST(MeetingMatch, ScoreParts) {
  const MergedEvent e = Event("g", kMeetingStart, kMeetingStart + kOneHour, "Design review",
                              {"ana@example.com", "me@example.com", "bo@x.com"});
  // Starts 15 minutes late, ends on time; shares Ana with the event.
  const Meeting m = At(kMeetingStart + 15 * kOneMinute, kMeetingStart + kOneHour,
                       "Design review notes", {"ana@example.com", "ME@example.com", "cy@x.com"});
  const MatchScore s = ScoreMeetingAgainstEvent(m, e.event);
  EXPECT_TRUE(s.fits);  // Overlaps all of the shorter one.
  EXPECT_DOUBLE_EQ(s.time, 0.5 * 1.0 + 0.5 * (1.0 - 15.0 / 30.0));
  EXPECT_EQ(s.shared_attendees, 1);
  EXPECT_DOUBLE_EQ(s.attendees, 1.0 / 2.0);  // Me excluded: {ana, cy} and {ana, bo}.
  EXPECT_DOUBLE_EQ(s.title, 2.0 * 2 / (3 + 2));
  EXPECT_DOUBLE_EQ(s.total(), 0.5 * s.time + 0.3 * s.attendees + 0.2 * s.title);
}

TEST(MeetingMatch, FitsInTimeOrNotACandidate) {
  const MergedEvent e = Event("g", kMeetingStart, kMeetingStart + kOneHour, "Sync");
  // Overlaps 20 minutes of a 60-minute meeting and starts 40 minutes late.
  EXPECT_FALSE(
      ScoreMeetingAgainstEvent(
          At(kMeetingStart + 40 * kOneMinute, kMeetingStart + 100 * kOneMinute, "Sync"), e.event)
          .fits);
  // No overlap at all but a start within 10 minutes (a zero-length event).
  MergedEvent point = Event("p", kMeetingStart, kMeetingStart, "Sync");
  EXPECT_TRUE(ScoreMeetingAgainstEvent(
                  At(kMeetingStart + 5 * kOneMinute, kMeetingStart + kOneHour, "Sync"), point.event)
                  .fits);
  // More than 12 hours away.
  EXPECT_FALSE(
      ScoreMeetingAgainstEvent(
          At(kMeetingStart + 13 * kOneHour, kMeetingStart + 14 * kOneHour, "Sync"), e.event)
          .fits);
  const MeetingMatch none =
      MatchMeeting(At(kMeetingStart + 3 * kOneHour, kMeetingStart + 4 * kOneHour, "Sync"), {e});
  EXPECT_EQ(none.index, -1);
  EXPECT_EQ(none.reason, "noCandidate");
  const nlohmann::json json = ToJson(none, {e});
  EXPECT_EQ(json["matched"], false);
  EXPECT_TRUE(json["eventId"].is_null());
  // All-day events are never candidates.
  MergedEvent all_day = Event("d", kMeetingStart, kMeetingStart + kOneHour, "Sync");
  all_day.event.all_day = true;
  EXPECT_FALSE(
      ScoreMeetingAgainstEvent(At(kMeetingStart, kMeetingStart + kOneHour, "Sync"), all_day.event)
          .fits);
}

TEST(MeetingMatch, OnlyCloseFitMatchesWithoutAttendeesOrTitle) {
  const MeetingMatch match =
      MatchMeeting(At(kMeetingStart, kMeetingStart + kOneHour, "Zoom meeting"),
                   {Event("g", kMeetingStart, kMeetingStart + kOneHour, "Roadmap")});
  EXPECT_EQ(match.index, 0);
  EXPECT_EQ(match.candidates, 1);
}

TEST(MeetingMatch, BestWithoutAnyQualifierStaysUnmatched) {
  // Two candidates: the exact one scores 0.5, the other 0.25; neither shares
  // an attendee or title words.
  const std::vector<MergedEvent> events = {
      Event("a", kMeetingStart, kMeetingStart + kOneHour, "Roadmap"),
      Event("b", kMeetingStart + 15 * kOneMinute, kMeetingStart + 75 * kOneMinute, "Hiring"),
  };
  const MeetingMatch match =
      MatchMeeting(At(kMeetingStart, kMeetingStart + 30 * kOneMinute, "Zoom meeting"), events);
  EXPECT_EQ(match.candidates, 2);
  EXPECT_EQ(match.index, -1);
  EXPECT_EQ(match.reason, "weak");
}

TEST(MeetingMatch, RunnerUpWithinATenthLeavesItUnmatched) {
  // Back-to-back-ish events with the same attendees and similar titles.
  const std::vector<MergedEvent> events = {
      Event("a", kMeetingStart, kMeetingStart + kOneHour, "Planning", {"ana@example.com"}),
      Event("b", kMeetingStart + 5 * kOneMinute, kMeetingStart + kOneHour, "Planning",
            {"ana@example.com"}),
  };
  const MeetingMatch match = MatchMeeting(
      At(kMeetingStart + 2 * kOneMinute, kMeetingStart + kOneHour, "Planning", {"ana@example.com"}),
      events);
  EXPECT_EQ(match.index, -1);
  EXPECT_EQ(match.reason, "ambiguous");
  EXPECT_LE(match.score - match.runner_up, kMatchRunnerUpMargin);
  // Far enough apart, the better one wins.
  const std::vector<MergedEvent> apart = {
      Event("a", kMeetingStart, kMeetingStart + kOneHour, "Planning", {"ana@example.com"}),
      Event("b", kMeetingStart + 9 * kOneMinute, kMeetingStart + 2 * kOneHour, "Hiring",
            {"bo@example.com"}),
  };
  const MeetingMatch clear = MatchMeeting(
      At(kMeetingStart, kMeetingStart + kOneHour, "Planning", {"ana@example.com"}), apart);
  EXPECT_EQ(clear.index, 0);
  EXPECT_GT(clear.score - clear.runner_up, kMatchRunnerUpMargin);
  EXPECT_EQ(ToJson(clear, apart)["eventId"], "a");
}

TEST(MeetingMatch, MyOwnAddressIsNotASharedAttendee) {
  const std::vector<MergedEvent> events = {
      Event("a", kMeetingStart, kMeetingStart + kOneHour, "Roadmap", {"me@example.com"}),
      Event("b", kMeetingStart + 30 * kOneMinute, kMeetingStart + 90 * kOneMinute, "Budget",
            {"me@example.com"}),
  };
  const MeetingMatch match =
      MatchMeeting(At(kMeetingStart, kMeetingStart + kOneHour, "Call", {"Me@Example.com"}), events);
  EXPECT_EQ(match.index, -1);
  EXPECT_EQ(match.reason, "weak");
}

}  // namespace
}  // namespace ensemble::core::calendar
