#include "core/calendar/meeting_key.h"

#include <gtest/gtest.h>

namespace ensemble::core::calendar {
namespace {

std::string Key(std::string_view text) { return ExtractMeetingKey(text).key; }

TEST(MeetingKey, TeamsIgnoresPercentEncodingAndQuery) {
  const std::string want = "teams:19:meeting_NGQ3@thread.v2";
  EXPECT_EQ(Key("https://teams.microsoft.com/l/meetup-join/19%3ameeting_NGQ3%40thread.v2/0"
                "?context=%7b%22Tid%22%7d"),
            want);
  EXPECT_EQ(Key("https://teams.microsoft.com/l/meetup-join/19%3Ameeting_NGQ3%40thread.v2/0"), want);
  EXPECT_EQ(Key("https://teams.microsoft.com/l/meetup-join/19:meeting_NGQ3@thread.v2/0"), want);
  EXPECT_EQ(Key("https://teams.microsoft.com/meet/2345678901?p=abc"), "teams:meet:2345678901");
}

TEST(MeetingKey, MeetZoomWebex) {
  EXPECT_EQ(Key("https://meet.google.com/abc-defg-hij?authuser=0"), "meet:abc-defg-hij");
  EXPECT_EQ(Key("meet.google.com/ABC-DEFG-HIJ"), "meet:abc-defg-hij");
  EXPECT_EQ(Key("https://us02web.zoom.us/j/85412345678?pwd=xyz"), "zoom:85412345678");
  EXPECT_EQ(Key("https://zoom.us/wc/join/85412345678"), "zoom:85412345678");
  EXPECT_EQ(Key("https://acme.webex.com/acme/j.php?MTID=m1a2b3c"), "webex:m1a2b3c");
  EXPECT_EQ(Key("https://acme.webex.com/wbxmjs/joinservice/sites/acme/meeting/download/ABC123?x=1"),
            "webex:abc123");
}

TEST(MeetingKey, PersonalRooms) {
  MeetingKey zoom = ExtractMeetingKey("https://zoom.us/my/JDoe?pwd=1");
  EXPECT_EQ(zoom.key, "zoom:my:jdoe");
  EXPECT_TRUE(zoom.personal_room);
  MeetingKey webex = ExtractMeetingKey("https://acme.webex.com/meet/jdoe");
  EXPECT_EQ(webex.key, "webex:acme.webex.com/meet/jdoe");
  EXPECT_TRUE(webex.personal_room);
  EXPECT_FALSE(ExtractMeetingKey("https://zoom.us/j/123456789").personal_room);
}

TEST(MeetingKey, FoundInsideTextAndOtherwiseEmpty) {
  EXPECT_EQ(Key("Join Zoom Meeting\n<https://acme.zoom.us/j/99887766>\nPasscode: 1"),
            "zoom:99887766");
  EXPECT_EQ(Key("Room 4, building B"), "");
  EXPECT_EQ(Key("https://example.com/j/123"), "");
  EXPECT_EQ(Key("https://notzoom.us.example.com/j/123"), "");
  EXPECT_EQ(Key("https://zoom.us/"), "");
}

}  // namespace
}  // namespace ensemble::core::calendar
