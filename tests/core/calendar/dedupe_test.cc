#include "core/calendar/dedupe.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ensemble::core::calendar {
namespace {

constexpr int64_t kT0 = 1796137200;  // 2026-12-01T15:00:00Z.
constexpr int64_t kDec24 = 1798070400;
constexpr int64_t kDec25 = 1798156800;
constexpr int64_t kDay = 86400;
constexpr int64_t kMinute = 60;
constexpr int64_t kHour = 3600;

CalendarEvent Timed(std::string id, SourceKind source, std::string calendar, int64_t start,
                    int64_t end, std::string title) {
  CalendarEvent e;
  e.id = std::move(id);
  e.source = source;
  e.calendar = std::move(calendar);
  e.start = start;
  e.end = end;
  e.title = std::move(title);
  return e;
}

CalendarEvent AllDay(std::string id, std::string calendar, int64_t day, std::string title) {
  CalendarEvent e = Timed(std::move(id), SourceKind::kIcs, std::move(calendar), day, day + kDay,
                          std::move(title));
  e.all_day = true;
  return e;
}

// The row ids of a merged event's copies, best first.
std::vector<std::string> MemberIds(const MergedEvent& merged) {
  std::vector<std::string> ids;
  for (const MergedSource& s : merged.sources) ids.push_back(s.id);
  return ids;
}

// The set of member ids of each merged event, for order-free comparison.
std::set<std::set<std::string>> Groups(const std::vector<MergedEvent>& merged) {
  std::set<std::set<std::string>> out;
  for (const MergedEvent& m : merged) {
    const std::vector<std::string> ids = MemberIds(m);
    out.insert({ids.begin(), ids.end()});
  }
  return out;
}

// No merged event of `input` holds two copies of one calendar unless they
// share a UID.
void ExpectNoCalendarTwice(const std::vector<CalendarEvent>& input,
                           const std::vector<MergedEvent>& merged) {
  std::map<std::string, std::string> uid_by_id;
  for (const CalendarEvent& e : input) uid_by_id[e.id] = e.uid;
  for (const MergedEvent& m : merged) {
    std::map<std::string, std::string> uid_by_calendar;
    for (const MergedSource& s : m.sources) {
      ASSERT_TRUE(uid_by_id.count(s.id)) << s.id;
      const std::string& uid = uid_by_id[s.id];
      auto [it, added] = uid_by_calendar.try_emplace(s.calendar, uid);
      if (!added) {
        EXPECT_TRUE(!uid.empty() && it->second == uid)
            << "two copies of " << s.calendar << " in " << m.event.id;
      }
    }
  }
}

TEST(Dedupe, TeamsMeetingOnOutlookAndAForwardedGoogleInvite) {
  CalendarEvent outlook = Timed("outlook:AAMk1", SourceKind::kOutlook, "Calendar", kT0, kT0 + kHour,
                                "Quarterly planning");
  outlook.join_url =
      "https://teams.microsoft.com/l/meetup-join/19%3ameeting_NGQ3NmYx%40thread.v2/0"
      "?context=%7b%22Tid%22%3a%22abc%22%7d";
  outlook.organizer = "dana@example.com";
  // The forwarded copy has a mail prefix, another encoding of the link and
  // starts five minutes later: too far for rule 3, the same meeting for rule 2.
  CalendarEvent google = Timed("g_fwd1", SourceKind::kGoogle, "me@example.com", kT0 + 5 * kMinute,
                               kT0 + kHour, "Fwd: Quarterly planning (agenda inside)");
  google.description =
      "Join: <https://teams.microsoft.com/l/meetup-join/19%3Ameeting_NGQ3NmYx%40thread.v2/0>";
  google.join_url = "https://teams.microsoft.com/l/meetup-join/19:meeting_NGQ3NmYx@thread.v2/0";
  google.location = "Microsoft Teams Meeting";
  const std::vector<MergedEvent> merged = MergeCalendarEvents({outlook, google});
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].sources.size(), 2u);
  // Both rank first as sources; the Google copy has more fields.
  EXPECT_EQ(merged[0].sources[0].id, "g_fwd1");
  EXPECT_EQ(merged[0].event.title, "Quarterly planning (agenda inside)");
  EXPECT_EQ(merged[0].event.start, kT0 + 5 * kMinute);
  EXPECT_EQ(merged[0].event.organizer, "dana@example.com");
}

TEST(Dedupe, SameMeetingLinkAtDifferentTimesStaysApart) {
  // A recurring Teams meeting reuses its link: occurrences must not join.
  const std::string link = "https://teams.microsoft.com/l/meetup-join/19%3ameeting_X%40thread.v2/0";
  CalendarEvent a = Timed("a", SourceKind::kOutlook, "Work", kT0, kT0 + kHour, "Standup");
  CalendarEvent b =
      Timed("b", SourceKind::kGoogle, "Home", kT0 + kDay, kT0 + kDay + kHour, "Standup");
  a.join_url = b.join_url = link;
  EXPECT_EQ(MergeCalendarEvents({a, b}).size(), 2u);
}

TEST(Dedupe, MeetingLinkFoundInTheDescription) {
  CalendarEvent google = Timed("g", SourceKind::kGoogle, "Work", kT0, kT0 + kHour, "Vendor call");
  google.join_url = "https://acme.zoom.us/j/99887766?pwd=q";
  CalendarEvent ics = Timed("i", SourceKind::kIcs, "Fastmail", kT0, kT0 + kHour, "Acme <> us");
  ics.description = "Join Zoom Meeting\nhttps://us06web.zoom.us/j/99887766\nPasscode: 1";
  EXPECT_EQ(MergeCalendarEvents({google, ics}).size(), 1u);
  ics.description = "Join Zoom Meeting\nhttps://us06web.zoom.us/j/11112222";
  EXPECT_EQ(MergeCalendarEvents({google, ics}).size(), 2u);
}

TEST(Dedupe, ChristmasFromTwoHolidayCalendars) {
  const std::vector<MergedEvent> merged = MergeCalendarEvents({
      AllDay("us1", "US Holidays", kDec25, "Christmas Day"),
      AllDay("uk1", "UK Holidays", kDec25, "Christmas"),
      AllDay("us0", "US Holidays", kDec24, "Christmas Eve"),
      AllDay("de0", "DE Feiertage", kDec24, "Christmas Eve (observed)"),
  });
  EXPECT_EQ(Groups(merged), (std::set<std::set<std::string>>{{"us1", "uk1"}, {"us0", "de0"}}));
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_TRUE(merged[1].event.all_day);
}

TEST(Dedupe, ChristmasEveNeverMatchesChristmas) {
  // Even on the same span, from two calendars.
  EXPECT_EQ(MergeCalendarEvents({AllDay("a", "One", kDec24, "Christmas Eve"),
                                 AllDay("b", "Two", kDec24, "Christmas")})
                .size(),
            2u);
}

TEST(Dedupe, DeepavaliIsDiwali) {
  EXPECT_EQ(MergeCalendarEvents({AllDay("a", "India", kDec24, "Deepavali"),
                                 AllDay("b", "Hindu", kDec24, "Diwali (Festival of Lights)")})
                .size(),
            1u);
}

TEST(Dedupe, AllDayEventsNeedTheSameSpan) {
  CalendarEvent two_days = AllDay("b", "Two", kDec24, "Offsite");
  two_days.end += kDay;
  EXPECT_EQ(MergeCalendarEvents({AllDay("a", "One", kDec24, "Offsite"), two_days}).size(), 2u);
  EXPECT_EQ(MergeCalendarEvents(
                {AllDay("a", "One", kDec24, "Offsite"), AllDay("c", "Two", kDec24, "Team offsite")})
                .size(),
            1u);
}

TEST(Dedupe, TimeZonesCompareUtcInstants) {
  // 10:00 in New York and 16:00 in Paris are one instant.
  CalendarEvent ny = Timed("ny", SourceKind::kGoogle, "NY", kT0, kT0 + kHour, "Budget review");
  ny.start_offset = ny.end_offset = -5 * 3600;
  CalendarEvent paris =
      Timed("paris", SourceKind::kIcs, "Paris", kT0, kT0 + kHour, "Budget review");
  paris.start_offset = paris.end_offset = 3600;
  // The same wall-clock time read as UTC by mistake is another instant.
  CalendarEvent floating = Timed("floating", SourceKind::kIcs, "Floating", kT0 - 5 * kHour,
                                 kT0 - 4 * kHour, "Budget review");
  const std::vector<MergedEvent> merged = MergeCalendarEvents({ny, paris, floating});
  EXPECT_EQ(Groups(merged), (std::set<std::set<std::string>>{{"ny", "paris"}, {"floating"}}));
}

TEST(Dedupe, RecurringOccurrencesJoinOccurrenceByOccurrence) {
  std::vector<CalendarEvent> copies;
  for (int week = 0; week < 4; ++week) {
    const int64_t occurrence = kT0 + week * 7 * kDay;
    CalendarEvent g = Timed("g_" + std::to_string(week), SourceKind::kGoogle, "Work", occurrence,
                            occurrence + 30 * kMinute, "1:1 Sam");
    CalendarEvent ics = Timed("ics_" + std::to_string(week), SourceKind::kIcs, "iCloud", occurrence,
                              occurrence + 30 * kMinute, "Weekly 1:1");
    g.uid = ics.uid = "series-42@example.com";
    g.original_start = ics.original_start = occurrence;
    if (week == 2) {  // Moved by an hour in one copy only: still the same occurrence.
      ics.start += kHour;
      ics.end += kHour;
    }
    copies.push_back(g);
    copies.push_back(ics);
  }
  const std::vector<MergedEvent> merged = MergeCalendarEvents(std::move(copies));
  ASSERT_EQ(merged.size(), 4u);
  for (int week = 0; week < 4; ++week) {
    const std::vector<std::string> ids = MemberIds(merged[week]);
    EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()),
              (std::set<std::string>{"g_" + std::to_string(week), "ics_" + std::to_string(week)}));
    EXPECT_EQ(merged[week].sources[0].source, SourceKind::kGoogle);
  }
}

TEST(Dedupe, TheMergedEventKeepsTheFirstUidInSourceOrder) {
  // Rule 3 joins each pair; the Google copy ranks first.
  CalendarEvent google = Timed("g1", SourceKind::kGoogle, "Work", kT0, kT0 + kHour, "Budget");
  CalendarEvent ics = Timed("ics1", SourceKind::kIcs, "iCloud", kT0, kT0 + kHour, "Budget");
  ics.uid = "from-ics@example.com";
  std::vector<MergedEvent> merged = MergeCalendarEvents({google, ics});
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].sources[0].id, "g1");
  EXPECT_EQ(merged[0].event.uid, "from-ics@example.com");  // The best copy has none.
  google.uid = "from-google@example.com";
  merged = MergeCalendarEvents({google, ics});
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].event.uid, "from-google@example.com");
}

TEST(Dedupe, OccurrencesMoreThanTwoMinutesApartAreNotRuleOne) {
  CalendarEvent a = Timed("a", SourceKind::kIcs, "A", kT0, kT0 + kHour, "Alpha");
  CalendarEvent b = Timed("b", SourceKind::kIcs, "A", kT0 + 3 * kMinute, kT0 + kHour, "Beta");
  a.uid = b.uid = "u1";
  EXPECT_EQ(MergeCalendarEvents({a, b}).size(), 2u);
  b.start = kT0 + 2 * kMinute;  // Exactly the tolerance: the same occurrence.
  EXPECT_EQ(MergeCalendarEvents({a, b}).size(), 1u);
}

TEST(Dedupe, CancelledCopiesAreDropped) {
  CalendarEvent outlook =
      Timed("outlook:1", SourceKind::kOutlook, "Work", kT0, kT0 + kHour, "Sync");
  outlook.uid = "u-sync";
  outlook.status = "CANCELLED";
  CalendarEvent google = Timed("g1", SourceKind::kGoogle, "Personal", kT0, kT0 + kHour, "Sync");
  google.uid = "u-sync";
  CalendarEvent lonely =
      Timed("ics1", SourceKind::kIcs, "Link", kT0 + kDay, kT0 + kDay + kHour, "Gone");
  lonely.status = "CANCELLED";
  std::vector<CalendarEvent> copies = {outlook, google, lonely};
  EXPECT_EQ(GroupCalendarEvents(copies), (std::vector<int32_t>{-1, 0, -1}));
  const std::vector<MergedEvent> merged = MergeCalendarEvents(std::move(copies));
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(MemberIds(merged[0]), (std::vector<std::string>{"g1"}));
  EXPECT_EQ(merged[0].event.status, "");
}

TEST(Dedupe, ThreeCalendarChain) {
  // A-B and B-C are within two minutes; A-C are three minutes apart.
  const std::vector<MergedEvent> merged = MergeCalendarEvents({
      Timed("a", SourceKind::kOutlook, "Outlook", kT0, kT0 + kHour, "Design review"),
      Timed("b", SourceKind::kGoogle, "Google", kT0 + 90, kT0 + kHour + 90, "Fwd: Design review"),
      Timed("c", SourceKind::kIcs, "Fastmail", kT0 + 180, kT0 + kHour + 180, "design review!"),
  });
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].sources.size(), 3u);
  EXPECT_EQ(merged[0].sources.back().id, "c");  // A calendar link ranks last.
}

TEST(Dedupe, IcsDuplicatesInOneCalendarJoinByUid) {
  CalendarEvent a =
      Timed("ics:feed:1", SourceKind::kIcs, "Feed", kT0, kT0 + kHour, "Board meeting");
  CalendarEvent b = a;
  b.id = "ics:feed:2";
  a.uid = b.uid = "board@example.org";
  const std::vector<MergedEvent> merged = MergeCalendarEvents({a, b});
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].sources.size(), 2u);
}

TEST(Dedupe, NeverJoinsTwoCopiesOfOneCalendar) {
  // Same calendar, same time, same title, no shared UID: two events.
  EXPECT_EQ(MergeCalendarEvents({Timed("x1", SourceKind::kIcs, "A", kT0, kT0 + kHour, "Interview"),
                                 Timed("x2", SourceKind::kIcs, "A", kT0, kT0 + kHour, "Interview")})
                .size(),
            2u);
}

TEST(Dedupe, NeverJoinsTwoCopiesOfOneCalendarThroughAThird) {
  // B's copy matches both of A's; transitivity must not put A's two
  // interviews into one event.
  const std::vector<CalendarEvent> interviews = {
      Timed("a1", SourceKind::kIcs, "A", kT0, kT0 + kHour, "Interview"),
      Timed("a2", SourceKind::kIcs, "A", kT0 + 60, kT0 + kHour + 60, "Interview"),
      Timed("b1", SourceKind::kGoogle, "B", kT0 + 30, kT0 + kHour + 30, "Interview"),
  };
  const std::vector<MergedEvent> merged = MergeCalendarEvents(std::vector(interviews));
  EXPECT_EQ(merged.size(), 2u);
  ExpectNoCalendarTwice(interviews, merged);
  // The same through rule 2 and a shared Zoom link.
  std::vector<CalendarEvent> zoom = {
      Timed("z1", SourceKind::kIcs, "A", kT0, kT0 + kHour, "Interview one"),
      Timed("z2", SourceKind::kIcs, "A", kT0 + 10 * kMinute, kT0 + kHour, "Interview two"),
      Timed("z3", SourceKind::kGoogle, "B", kT0, kT0 + kHour, "Interviews"),
  };
  for (CalendarEvent& e : zoom) e.join_url = "https://us02web.zoom.us/j/85412345678?pwd=abc";
  const std::vector<MergedEvent> by_link = MergeCalendarEvents(std::vector(zoom));
  EXPECT_EQ(by_link.size(), 2u);
  ExpectNoCalendarTwice(zoom, by_link);
}

TEST(Dedupe, SameTimeDifferentTitlesOrSameTitleDifferentTimesStayApart) {
  EXPECT_EQ(MergeCalendarEvents({Timed("a", SourceKind::kGoogle, "A", kT0, kT0 + kHour, "Dentist"),
                                 Timed("b", SourceKind::kIcs, "B", kT0, kT0 + kHour, "Team lunch")})
                .size(),
            2u);
  EXPECT_EQ(MergeCalendarEvents({Timed("a", SourceKind::kGoogle, "A", kT0, kT0 + kHour, "Dentist"),
                                 Timed("b", SourceKind::kIcs, "B", kT0 + 3 * kMinute,
                                       kT0 + kHour + 3 * kMinute, "Dentist")})
                .size(),
            2u);
  // Start within two minutes but end more than two minutes off.
  EXPECT_EQ(MergeCalendarEvents(
                {Timed("a", SourceKind::kGoogle, "A", kT0, kT0 + kHour, "Dentist"),
                 Timed("b", SourceKind::kIcs, "B", kT0, kT0 + kHour + 5 * kMinute, "Dentist")})
                .size(),
            2u);
}

// Rule 3 turns a pair down early when the titles share no word; these pairs
// share words in each way a match can (whole-word containment, Jaccard,
// equal once normalized) and must still join.
TEST(Dedupe, RuleThreeJoinsEveryKindOfTitleMatch) {
  const std::pair<const char*, const char*> kMatching[] = {
      {"Budget review", "Fwd: Q3 budget review (draft)"},           // Containment.
      {"design sync mobile platform", "platform design sync web"},  // Jaccard 3/5.
      {"Roadmap \U0001F680 review!", "roadmap - REVIEW"},           // Equal normalized.
  };
  for (const auto& [a, b] : kMatching) {
    EXPECT_EQ(MergeCalendarEvents({Timed("a", SourceKind::kGoogle, "A", kT0, kT0 + kHour, a),
                                   Timed("b", SourceKind::kIcs, "B", kT0, kT0 + kHour, b)})
                  .size(),
              1u)
        << a << " / " << b;
  }
  // Thirty meetings at one time on two calendars, listed in opposite
  // orders, the second calendar's titles holding the first's among other
  // words: each copy joins its twin and nothing else.
  std::vector<CalendarEvent> copies;
  std::set<std::set<std::string>> expected;
  constexpr int kMeetings = 30;
  for (int i = 0; i < kMeetings; ++i) {
    const std::string title = "Topic" + std::to_string(i) + " item" + std::to_string(i);
    copies.push_back(
        Timed("x" + std::to_string(i), SourceKind::kGoogle, "X", kT0, kT0 + kHour, title));
    expected.insert({"x" + std::to_string(i), "y" + std::to_string(i)});
  }
  for (int i = kMeetings - 1; i >= 0; --i) {
    copies.push_back(
        Timed("y" + std::to_string(i), SourceKind::kOutlook, "Y", kT0 + kMinute, kT0 + kHour,
              "Fwd: Prep topic" + std::to_string(i) + " ITEM" + std::to_string(i) + " notes"));
  }
  EXPECT_EQ(Groups(MergeCalendarEvents(std::move(copies))), expected);
}

TEST(Dedupe, PersonalRoomsAlsoNeedMatchingTitles) {
  CalendarEvent a = Timed("a", SourceKind::kGoogle, "A", kT0, kT0 + kHour, "Coffee with Lee");
  CalendarEvent b =
      Timed("b", SourceKind::kIcs, "B", kT0 + 15 * kMinute, kT0 + kHour, "Hiring sync");
  a.join_url = "https://zoom.us/my/jdoe?pwd=1";
  b.join_url = "https://us02web.zoom.us/my/JDoe";
  EXPECT_EQ(MergeCalendarEvents({a, b}).size(), 2u);
  b.title = "Coffee with Lee and Ana";  // Now the titles match (containment).
  EXPECT_EQ(MergeCalendarEvents({a, b}).size(), 1u);
  // Webex personal rooms likewise.
  a.join_url = "https://acme.webex.com/meet/jdoe";
  b.join_url = "https://acme.webex.com/meet/jdoe";
  b.title = "Hiring sync";
  EXPECT_EQ(MergeCalendarEvents({a, b}).size(), 2u);
  // A meeting id (not a personal room) needs no title match.
  a.join_url = "https://zoom.us/j/111222333";
  b.join_url = "https://acme.zoom.us/j/111222333?pwd=x";
  EXPECT_EQ(MergeCalendarEvents({a, b}).size(), 1u);
}

TEST(Dedupe, MergedEventFields) {
  CalendarEvent ics =
      Timed("ics:feed:9", SourceKind::kIcs, "Feed", kT0 + 60, kT0 + kHour + 60, "Planning");
  ics.created = 100;  // Earliest created: its id is kept.
  ics.location = "Room 4";
  ics.description = "Agenda";
  ics.organizer = "lee@example.com";
  ics.attendees = {{"Ana@Example.com", ""}, {"bo@example.com", "Bo"}};
  CalendarEvent google = Timed("g9", SourceKind::kGoogle, "Work", kT0, kT0 + kHour, "Re: Planning");
  google.created = 200;
  google.attendees = {{"ana@example.com", "Ana"}};
  const std::vector<MergedEvent> merged = MergeCalendarEvents({ics, google});
  ASSERT_EQ(merged.size(), 1u);
  const MergedEvent& m = merged[0];
  EXPECT_EQ(m.event.id, "ics:feed:9");
  EXPECT_EQ(m.event.start, kT0);  // Time from the best copy (Google).
  EXPECT_EQ(m.event.title, "Planning");
  EXPECT_EQ(m.event.location, "Room 4");
  ASSERT_EQ(m.event.attendees.size(), 2u);
  EXPECT_EQ(m.event.attendees[0].email, "ana@example.com");
  EXPECT_EQ(m.event.attendees[0].name, "Ana");
  EXPECT_EQ(MemberIds(m), (std::vector<std::string>{"g9", "ics:feed:9"}));
  const nlohmann::json json = ToJson(m);
  EXPECT_EQ(json["id"], "ics:feed:9");
  EXPECT_EQ(json["title"], "Planning");
  EXPECT_EQ(json["hasDescription"], true);
  EXPECT_EQ(json["sources"][0]["connector"], "google");
  EXPECT_EQ(json["sources"][1]["calendar"], "Feed");
  EXPECT_EQ(json["memberIds"], nlohmann::json::array({"g9", "ics:feed:9"}));
  EXPECT_EQ(json["start"], "2026-12-01T15:00:00Z");
}

TEST(Dedupe, JsonListsAtMostFiftyAttendees) {
  CalendarEvent e = Timed("g", SourceKind::kGoogle, "Work", kT0, kT0 + kHour, "All hands");
  for (int i = 0; i < 70; ++i) e.attendees.push_back({"p" + std::to_string(i) + "@x.com", ""});
  const std::vector<MergedEvent> merged = MergeCalendarEvents({e});
  EXPECT_EQ(merged[0].event.attendees.size(), 70u);
  EXPECT_EQ(ToJson(merged[0])["attendees"].size(), kMaxJsonAttendees);
}

TEST(Dedupe, GroupsAreNumberedInInputOrder) {
  std::vector<CalendarEvent> copies = {
      Timed("a", SourceKind::kIcs, "A", kT0 + kDay, kT0 + kDay + kHour, "Later"),
      Timed("b", SourceKind::kIcs, "A", kT0, kT0 + kHour, "Earlier"),
      Timed("c", SourceKind::kGoogle, "B", kT0 + kDay, kT0 + kDay + kHour, "Later"),
  };
  EXPECT_EQ(GroupCalendarEvents(copies), (std::vector<int32_t>{0, 1, 0}));
  const std::vector<MergedEvent> merged = MergeCalendarEvents(std::move(copies));
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].event.title, "Earlier");  // Output in start order.
}

TEST(Dedupe, ManyCalendarsUseTheListPath) {
  // 70 calendars (more than a 64-bit mask holds) with one shared event and
  // one calendar holding it twice.
  std::vector<CalendarEvent> copies;
  for (int c = 0; c < 70; ++c) {
    copies.push_back(Timed("e" + std::to_string(c), SourceKind::kIcs, "cal" + std::to_string(c),
                           kT0, kT0 + kHour, "Launch"));
  }
  copies.push_back(Timed("dup", SourceKind::kIcs, "cal5", kT0, kT0 + kHour, "Launch"));
  const std::vector<MergedEvent> merged = MergeCalendarEvents(std::vector(copies));
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].sources.size() + merged[1].sources.size(), 71u);
  ExpectNoCalendarTwice(copies, merged);
}

TEST(Dedupe, SixThousandEvents) {
  // 2,000 meetings, each on three calendars: a Google copy with a Meet link,
  // an Outlook copy with a mail prefix and no link, an ICS copy with the
  // Google copy's UID; plus 300 holidays on two calendars.
  std::vector<CalendarEvent> copies;
  for (int i = 0; i < 2000; ++i) {
    const int64_t start = kT0 + (i / 8) * kHour + (i % 8) * 5 * kMinute;
    const std::string title = "Project " + std::to_string(i) + " review";
    CalendarEvent g = Timed("g" + std::to_string(i), SourceKind::kGoogle, "Google", start,
                            start + 30 * kMinute, title);
    g.uid = "uid" + std::to_string(i);
    g.join_url = "https://meet.google.com/abc-" + std::to_string(1000 + i) + "-xyz";
    CalendarEvent o = Timed("outlook:" + std::to_string(i), SourceKind::kOutlook, "Outlook",
                            start + 60, start + 30 * kMinute + 60, "Accepted: " + title);
    CalendarEvent ics = Timed("ics:" + std::to_string(i), SourceKind::kIcs, "iCloud", start,
                              start + 30 * kMinute, title);
    ics.uid = g.uid;
    copies.push_back(o);
    copies.push_back(g);
    copies.push_back(ics);
  }
  for (int d = 0; d < 300; ++d) {
    copies.push_back(AllDay("h1-" + std::to_string(d), "Holidays 1", kDec25 + d * kDay,
                            "Holiday " + std::to_string(d)));
    copies.push_back(AllDay("h2-" + std::to_string(d), "Holidays 2", kDec25 + d * kDay,
                            "Holiday " + std::to_string(d) + " (observed)"));
  }
  ASSERT_EQ(copies.size(), 6600u);
  const std::vector<MergedEvent> merged = MergeCalendarEvents(std::vector(copies));
  ASSERT_EQ(merged.size(), 2300u);
  for (const MergedEvent& m : merged) {
    ASSERT_EQ(m.sources.size(), m.event.all_day ? 2u : 3u) << m.event.title;
    if (!m.event.all_day) EXPECT_EQ(m.event.title.rfind("Project ", 0), 0u);
  }
  ExpectNoCalendarTwice(copies, merged);
}

}  // namespace
}  // namespace ensemble::core::calendar
