// PeopleInCalendar (core/connections/calendar_people.h): the people on a
// calendar's events, one per address, without the asker, rooms, cancelled
// events or events outside the Today window; at most kMaxImportPeople, those
// met most often kept.

#include "core/connections/calendar_people.h"

#include <gtest/gtest.h>

#include "core/people/person.h"
#include "core/text/utf8.h"
#include "tests/core/connections/calendar_feed.h"

namespace ensemble::core::connections {
namespace {

using calendar_feed_test::Feed;
using calendar_feed_test::Meeting;

// Monday 30 November 2026, 09:00 UTC.
constexpr int64_t kPeopleNow = 1'796'029'200'000;

TEST(CalendarPeople, OnePerAddressWithTheFirstNameGiven) {
  std::string feed = Feed({
      {"20261201T100000Z",
       "lead@example.com",
       {{"Ana@Example.com", "Ana Ruiz"}, {"me@example.com", "Me"}, {"bo@example.com", ""}}},
      {"20261202T100000Z", "", {{"ana@example.com", "Ana R."}, {"bo@example.com", "Bo Li"}}},
  });
  auto found = PeopleInCalendar(feed, kPeopleNow, "ME@example.com");
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  ASSERT_EQ(found->people.size(), 3u);
  EXPECT_EQ(found->people[0].name, "Ana Ruiz");
  EXPECT_EQ(found->people[0].email, "ana@example.com");
  EXPECT_EQ(found->people[0].events, 2u);
  EXPECT_EQ(found->people[1].name, "Bo Li");             // Named on the second event.
  EXPECT_EQ(found->people[2].name, "lead@example.com");  // No name anywhere: the address.
  EXPECT_EQ(found->left_out, 0u);
}

TEST(CalendarPeople, ANameIsRedactedAndCutOnWholeCharacters) {
  const std::string long_name = std::string(people::kMaxNameChars - 1, 'a') + "\u00E9\u00E9";
  std::string feed = Feed({{"20261201T100000Z",
                            "",
                            {{"ana@example.com", "Ana token=abc123"},
                             {"bo@example.com", long_name}}}});
  auto found = PeopleInCalendar(feed, kPeopleNow, "");
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  ASSERT_EQ(found->people.size(), 2u);
  EXPECT_EQ(found->people[0].name, "Ana token=[redacted]");
  EXPECT_EQ(text::CountCodePoints(found->people[1].name), people::kMaxNameChars);
  EXPECT_TRUE(text::IsValidUtf8(found->people[1].name));
}

TEST(CalendarPeople, LeavesOutRoomsCancelledAndFarEvents) {
  std::string feed = Feed({
      {"20261201T100000Z",
       "",
       {{"c_1889@resource.calendar.google.com", "Room 4"},
        {"team@group.calendar.google.com", ""},
        {"not-an-address", "Nobody"},
        {"kept@example.com", "Kept"}}},
      {"20261202T100000Z", "", {{"gone@example.com", "Gone"}}, /*cancelled=*/true},
      {"20270301T100000Z", "", {{"later@example.com", "Later"}}},      // Past 42 days ahead.
      {"20261001T100000Z", "", {{"earlier@example.com", "Earlier"}}},  // Before 14 days back.
  });
  auto found = PeopleInCalendar(feed, kPeopleNow, "");
  ASSERT_TRUE(found.ok());
  ASSERT_EQ(found->people.size(), 1u);
  EXPECT_EQ(found->people[0].email, "kept@example.com");
}

TEST(CalendarPeople, KeepsThoseMetMostOftenPastTheCap) {
  std::vector<Meeting> meetings;
  Meeting big{"20261201T100000Z", "", {}};
  for (size_t i = 0; i < kMaxImportPeople + 5; ++i) {
    big.attendees.push_back({"p" + std::to_string(i) + "@example.com", ""});
  }
  meetings.push_back(big);
  // Five people met twice: they must survive the cut.
  Meeting again{"20261203T100000Z", "", {}};
  for (size_t i = kMaxImportPeople; i < kMaxImportPeople + 5; ++i) {
    again.attendees.push_back({"p" + std::to_string(i) + "@example.com", ""});
  }
  meetings.push_back(again);
  auto found = PeopleInCalendar(Feed(meetings), kPeopleNow, "");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->people.size(), kMaxImportPeople);
  EXPECT_EQ(found->left_out, 5u);
  size_t twice = 0;
  for (const AppPerson& p : found->people) twice += p.events == 2;
  EXPECT_EQ(twice, 5u);
}

TEST(CalendarPeople, RefusesWhatIsNotACalendar) {
  auto found = PeopleInCalendar("<html>Sign in</html>", kPeopleNow, "");
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.status().code(), "ICS_NOT_CALENDAR");
}

}  // namespace
}  // namespace ensemble::core::connections
