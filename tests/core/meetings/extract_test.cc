// What comes along with a transcript: dates, durations, titles, written
// items and phrases (core/meetings/extract.h).

#include "core/meetings/dates.h"
#include "core/meetings/extract.h"

#include <gtest/gtest.h>

#include "core/meetings/detect.h"
#include "core/meetings/phrases.h"
#include "core/meetings/transcript.h"

namespace ensemble::core::meetings::internal {
namespace {

WhenFound When(std::string_view s) {
  WhenFound when;
  size_t b = 0, e = 0;
  EXPECT_TRUE(FindDateTime(s, &when, &b, &e)) << s;
  return when;
}

TEST(FindDateTime, ReadsTheFormsTranscriptsUse) {
  WhenFound a = When("March 14, 2025, 10:01AM");
  EXPECT_EQ(a.date, "2025-03-14");
  EXPECT_EQ(a.time, "10:01");
  EXPECT_EQ(a.zone, "");
  WhenFound b = When("Fri, Mar 14, 2025 2:30PM \xE2\x80\xA2 42:10");
  EXPECT_EQ(b.date, "2025-03-14");
  EXPECT_EQ(b.time, "14:30");
  WhenFound c = When("Roadmap sync - 2025/03/12 10:00 CET - Transcript");
  EXPECT_EQ(c.date, "2025-03-12");
  EXPECT_EQ(c.zone, "CET");
  WhenFound d = When("14 March 2025 at 09:15 (GMT+01:00)");
  EXPECT_EQ(d.date, "2025-03-14");
  EXPECT_EQ(d.time, "09:15");
  EXPECT_EQ(d.zone, "GMT+01:00");
  WhenFound e = When("2025-03-14T16:00 Europe/Berlin");
  EXPECT_EQ(e.time, "16:00");
  EXPECT_EQ(e.zone, "Europe/Berlin");
  WhenFound f = When("12:00 AM on Sept 3 2025 12:05 am");
  EXPECT_EQ(f.date, "2025-09-03");
  EXPECT_EQ(f.time, "00:05");
}

TEST(FindDateTime, IgnoresNumbersThatAreNotDates) {
  WhenFound when;
  size_t b = 0, e = 0;
  EXPECT_FALSE(FindDateTime("We shipped 20250399 units in 2025", &when, &b, &e));
  EXPECT_FALSE(FindDateTime("May I ask a question?", &when, &b, &e));
  EXPECT_FALSE(FindDateTime("2025-13-01", &when, &b, &e));
}

TEST(ParseDurationText, TeamsAndSpelledOutDurations) {
  int64_t s = 0;
  ASSERT_TRUE(ParseDurationText("42m 10s", &s));
  EXPECT_EQ(s, 2530);
  ASSERT_TRUE(ParseDurationText("1h 2m 3s", &s));
  EXPECT_EQ(s, 3723);
  ASSERT_TRUE(ParseDurationText("1 hour 5 minutes", &s));
  EXPECT_EQ(s, 3900);
  EXPECT_FALSE(ParseDurationText("42 people", &s));
  EXPECT_FALSE(ParseDurationText("m 10s", &s));
}

TEST(CleanTitle, DropsStampsAndGenericWords) {
  EXPECT_EQ(CleanTitle("Weekly sync - - Meeting Recording"), "Weekly sync");
  EXPECT_EQ(CleanTitle("Roadmap sync -  - Transcript"), "Roadmap sync");
  EXPECT_EQ(CleanTitle("meeting_saved_closed_caption"), "");
  EXPECT_EQ(CleanTitle("# Stand-up notes"), "Stand-up notes");
  EXPECT_EQ(CleanTitle("Fri, - "), "");
}

TEST(ApplyFileName, TitleAndDateFromTheName) {
  Transcript t;
  ApplyFileName("/uploads/Weekly sync-20250314_100102-Meeting Recording.docx", &t);
  EXPECT_EQ(t.title, "Weekly sync");
  EXPECT_EQ(t.date, "2025-03-14");
  EXPECT_EQ(t.time, "10:01");
  Transcript plain;
  ApplyFileName("transcript.vtt", &plain);
  EXPECT_EQ(plain.title, "");
  EXPECT_EQ(plain.date, "");
}

TEST(HeadingKind, RecognisesSectionsInMarkdownAndEmoji) {
  EXPECT_EQ(HeadingKind("## Action items"), SectionKind::kActions);
  EXPECT_EQ(HeadingKind("**Next steps:**"), SectionKind::kActions);
  EXPECT_EQ(HeadingKind("\xF0\x9F\x93\x96 Transcript"), SectionKind::kTranscript);
  EXPECT_EQ(HeadingKind("SUMMARY KEYWORDS"), SectionKind::kIgnored);
  EXPECT_EQ(HeadingKind("Decisions"), SectionKind::kDecisions);
  EXPECT_EQ(HeadingKind("Action items are late again"), SectionKind::kNone);
}

TEST(ParseWrittenItems, OwnersFromGroupsPrefixesAndWill) {
  std::vector<std::string_view> lines = {
      "**Omar Haddad**", "Set up the experiment (00:09)", "- [ ] [Nina Patel] Share the dashboard",
      "* Lee: pair with Noor", "1. Rita Alves will book the room", "- no owner here", ""};
  std::vector<Item> items;
  ParseWrittenItems(lines, &items);
  ASSERT_EQ(items.size(), 5u);
  EXPECT_EQ(items[0].owner, "Omar Haddad");
  EXPECT_EQ(items[0].text, "Set up the experiment");
  EXPECT_EQ(items[1].owner, "Nina Patel");
  EXPECT_EQ(items[1].text, "Share the dashboard");
  EXPECT_EQ(items[2].owner, "Lee");
  EXPECT_EQ(items[3].owner, "Rita Alves");
  EXPECT_EQ(items[4].owner, "Omar Haddad");  // Still under Omar's group.
  for (const Item& item : items) EXPECT_FALSE(item.suggested);
}

TEST(SplitNames, CommasAndAnd) {
  EXPECT_EQ(SplitNames("Ana Silva, Ben Okafor and Chen Li"),
            (std::vector<std::string>{"Ana Silva", "Ben Okafor", "Chen Li"}));
}

Transcript Said(std::vector<std::pair<std::string, std::string>> turns) {
  Transcript t;
  for (auto& [speaker, text] : turns) t.turns.push_back(Turn{speaker, kNoTime, kNoTime, text});
  return t;
}

TEST(SuggestItems, FindsThePhrasesOfTheSpec) {
  Transcript t = Said({{"Ana", "Thanks all. I'll send the deck tonight. Anything else?"},
                       {"Ben", "Chen, could you review the contract by Monday?"},
                       {"Chen", "Sure. So we agreed to launch in May."},
                       {"Ana", "Action item: book the venue."}});
  SuggestItems(&t);
  EXPECT_TRUE(t.suggested);
  ASSERT_EQ(t.action_items.size(), 3u);
  EXPECT_EQ(t.action_items[0].text, "I'll send the deck tonight.");
  EXPECT_EQ(t.action_items[0].owner, "Ana");
  EXPECT_TRUE(t.action_items[0].suggested);
  EXPECT_EQ(t.action_items[1].text, "Chen, could you review the contract by Monday?");
  EXPECT_EQ(t.action_items[1].owner, "Chen");
  EXPECT_EQ(t.action_items[2].text, "Action item: book the venue.");
  EXPECT_EQ(t.action_items[2].owner, "");
  ASSERT_EQ(t.decisions.size(), 1u);
  EXPECT_EQ(t.decisions[0].text, "So we agreed to launch in May.");
  EXPECT_TRUE(t.decisions[0].suggested);
}

TEST(SuggestItems, TypographicApostropheAndNoFalseFriends) {
  Transcript t = Said({{"Ana", "I\xE2\x80\x99ll share the notes."},
                       {"Ben", "I'll be honest, I will never understand this. Can you believe it?"},
                       {"Chen", "We agreeably disagreed."}});
  SuggestItems(&t);
  ASSERT_EQ(t.action_items.size(), 1u);
  EXPECT_EQ(t.action_items[0].text, "I\xE2\x80\x99ll share the notes.");
  EXPECT_TRUE(t.decisions.empty());
}

TEST(SuggestItems, WrittenItemsAreNotOverridden) {
  Transcript t = Said({{"Ana", "I'll send the deck. We agreed to ship."}});
  t.action_items.push_back(Item{"Written item", "", false});
  SuggestItems(&t);
  ASSERT_EQ(t.action_items.size(), 1u);
  EXPECT_EQ(t.action_items[0].text, "Written item");
  ASSERT_EQ(t.decisions.size(), 1u);  // None were written, so they are suggested.
  EXPECT_TRUE(t.decisions[0].suggested);
}

TEST(SuggestItems, Bounded) {
  Transcript t;
  for (int i = 0; i < 200; ++i) {
    t.turns.push_back(Turn{"Ana", kNoTime, kNoTime, "I'll send report " + std::to_string(i) + "."});
  }
  SuggestItems(&t);
  EXPECT_EQ(t.action_items.size(), kMaxSuggestedItems);
}

TEST(Names, PlausibleSpeakerNames) {
  EXPECT_TRUE(IsPlausibleName("Ana Silva"));
  EXPECT_TRUE(IsPlausibleName("Jan van der Berg"));
  EXPECT_TRUE(IsPlausibleName("Speaker 1"));
  EXPECT_TRUE(IsPlausibleName("Zo\xC3\xAB O'Neil (Guest)"));
  EXPECT_TRUE(IsPlausibleName("ana@example.com"));
  EXPECT_FALSE(IsPlausibleName("So here is the thing"));
  EXPECT_FALSE(IsPlausibleName("https"));
  EXPECT_FALSE(IsPlausibleName("Note, please"));
}

TEST(LineShapes, HeadersOfEachFormat) {
  std::string_view name, rest;
  int64_t ms = 0;
  ASSERT_TRUE(MatchTimedHeader("Ana Silva   1:02:03", &name, &ms, &rest));
  EXPECT_EQ(name, "Ana Silva");
  EXPECT_EQ(ms, 3'723'000);
  EXPECT_EQ(rest, "");
  ASSERT_TRUE(MatchZoomHeader("[Ana Silva] 09:01:03 Hello", &name, &ms, &rest));
  EXPECT_EQ(rest, "Hello");
  ASSERT_TRUE(MatchSpeakerLine("(00:12) Rita Alves: Hi there", &name, &ms, &rest));
  EXPECT_EQ(name, "Rita Alves");
  EXPECT_EQ(ms, 12'000);
  EXPECT_FALSE(MatchSpeakerLine("Date: 2025-03-14", &name, &ms, &rest));
  EXPECT_FALSE(MatchSpeakerLine("See https://example.com", &name, &ms, &rest));
  EXPECT_FALSE(MatchTimedHeader("Meeting at 10:30 works", &name, &ms, &rest));
}

}  // namespace
}  // namespace ensemble::core::meetings::internal
