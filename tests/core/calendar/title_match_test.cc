#include "core/calendar/title_match.h"

#include <gtest/gtest.h>

namespace ensemble::core::calendar {
namespace {

TEST(TitleMatch, NormalizeDropsMailPrefixesEmojiAndPunctuation) {
  EXPECT_EQ(NormalizeTitle("Fwd: RE: Invitation: Weekly Sync \xF0\x9F\x8E\x89!"), "weekly sync");
  EXPECT_EQ(NormalizeTitle("Updated invitation: Design review @ Mon Dec 1"),
            "design review mon dec 1");
  EXPECT_EQ(NormalizeTitle("Accepted: Lunch"), "lunch");
  EXPECT_EQ(NormalizeTitle("Canceled: Standup"), "standup");
  EXPECT_EQ(NormalizeTitle("Cancelled event: Standup"), "standup");
  EXPECT_EQ(NormalizeTitle("  1:1 -- Sam / Lee  "), "1 1 sam lee");
  EXPECT_EQ(NormalizeTitle("New Year\xE2\x80\x99s Day"), "new years day");         // ’ joins.
  EXPECT_EQ(NormalizeTitle("\xE2\x9D\xA4\xEF\xB8\x8F Date night"), "date night");  // ❤️
  EXPECT_EQ(NormalizeTitle("\xF0\x9F\x8E\x89"), "");
  // "Re" without a colon is a word, not a prefix.
  EXPECT_EQ(NormalizeTitle("Re planning"), "re planning");
}

TEST(TitleMatch, NormalizeAppliesNfkcAndLowerCase) {
  // Fullwidth "ＦＷ：Ｒｅｖｉｅｗ" folds to "fw:review", whose prefix then goes.
  EXPECT_EQ(
      NormalizeTitle("\xEF\xBC\xA6\xEF\xBC\xB7\xEF\xBC\x9A\xEF\xBC\xB2\xEF\xBD\x85\xEF\xBD\x96"
                     "\xEF\xBD\x89\xEF\xBD\x85\xEF\xBD\x97"),
      "review");
  EXPECT_EQ(NormalizeTitle("\xEF\xAC\x81nance"), "finance");              // ﬁ ligature.
  EXPECT_EQ(NormalizeTitle("CAF\xC3\x89 Meetup"), "caf\xC3\xA9 meetup");  // É to é.
  EXPECT_EQ(NormalizeTitle("Cafe\xCC\x81"), "caf\xC3\xA9");               // Composed.
  EXPECT_EQ(NormalizeTitle("\xCE\x94\xCE\x95\xCE\x9B\xCE\xA4\xCE\x91"),
            "\xCE\xB4\xCE\xB5\xCE\xBB\xCF\x84\xCE\xB1");  // ΔΕΛΤΑ to δελτα.
}

TEST(TitleMatch, StripMailPrefixesKeepsTheRestAsWritten) {
  EXPECT_EQ(StripMailPrefixes("Fwd: Weekly Sync"), "Weekly Sync");
  EXPECT_EQ(StripMailPrefixes("FW: re: Budget"), "Budget");
  EXPECT_EQ(StripMailPrefixes("Re:"), "Re:");  // Nothing left: keep the title.
  EXPECT_EQ(StripMailPrefixes("Retro"), "Retro");
}

TEST(TitleMatch, EqualAndWholeWordContainment) {
  EXPECT_TRUE(TitlesMatch("Weekly sync", "Fwd: weekly SYNC!"));
  EXPECT_TRUE(TitlesMatch("Weekly sync", "Team weekly sync notes"));
  // Not whole words.
  EXPECT_FALSE(TitlesMatch("Sync", "Syncing up on launch"));
  // At least three characters: "AI" in "AI strategy" is not enough (and the
  // Jaccard is 0.5).
  EXPECT_FALSE(TitlesMatch("AI", "AI strategy"));
  EXPECT_TRUE(TitlesMatch("Ops", "Ops review"));
  EXPECT_FALSE(TitlesMatch("", ""));
  EXPECT_FALSE(TitlesMatch("\xF0\x9F\x8E\x89", "\xF0\x9F\x8E\x89"));  // No words.
}

TEST(TitleMatch, JaccardThreshold) {
  // 3 shared of 5 distinct words: exactly 0.6, not contiguous.
  EXPECT_TRUE(TitlesMatch("alpha beta gamma", "alpha delta beta epsilon gamma"));
  // 4 shared of 7: 0.57.
  EXPECT_FALSE(TitlesMatch("alpha beta gamma zeta", "alpha delta beta epsilon gamma zeta eta"));
  std::vector<uint64_t> a, b;
  AppendWordHashes("one two three", &a);
  AppendWordHashes("three two one one", &b);
  EXPECT_EQ(b.size(), 3u);  // Distinct.
  EXPECT_DOUBLE_EQ(WordJaccard(a, b), 1.0);
  EXPECT_EQ(SharedWords(a, b), 3u);
}

TEST(TitleMatch, ContainsWords) {
  EXPECT_TRUE(ContainsWords("a b c", "b c"));
  EXPECT_FALSE(ContainsWords("a bc", "b"));
  EXPECT_TRUE(ContainsWords("abc abc d", "abc d"));
  EXPECT_FALSE(ContainsWords("x", ""));
}

TEST(TitleMatch, HolidayVocabulary) {
  EXPECT_EQ(HolidayKey("christmas day"), "christmas");
  EXPECT_EQ(HolidayKey("xmas"), "christmas");
  EXPECT_EQ(HolidayKey("deepavali"), "diwali");
  EXPECT_EQ(HolidayKey(NormalizeTitle("New Year's Day")), "new year");
  EXPECT_EQ(HolidayKey(NormalizeTitle("Martin Luther King Jr. Day")), "martin luther king");
  EXPECT_EQ(HolidayKey(NormalizeTitle("MLK Day")), "martin luther king");
  EXPECT_EQ(HolidayKey(NormalizeTitle("Fourth of July")), HolidayKey("independence day"));
  EXPECT_TRUE(HolidayKeysMatch(HolidayKey("christmas day"), HolidayKey("christmas")));
  EXPECT_FALSE(HolidayKeysMatch(HolidayKey("christmas eve"), HolidayKey("christmas")));
  EXPECT_FALSE(HolidayKeysMatch(HolidayKey("new years eve"), HolidayKey("new years day")));
  EXPECT_TRUE(HolidayKeysMatch(HolidayKey("christmas eve"), HolidayKey("christmas eve observed")));
  EXPECT_TRUE(HolidayKeysMatch(HolidayKey("team offsite"), HolidayKey("offsite")));
}

}  // namespace
}  // namespace ensemble::core::calendar
