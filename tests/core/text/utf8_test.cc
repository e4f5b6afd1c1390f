#include "core/text/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace ensemble::core::text {
namespace {

TEST(Utf8, AcceptsWellFormedText) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain"));
  EXPECT_TRUE(IsValidUtf8("Zoë — 日本 🎉"));
}

TEST(Utf8, RejectsMalformedText) {
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));          // Overlong '/'.
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));      // Surrogate.
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));  // Past U+10FFFF.
  EXPECT_FALSE(IsValidUtf8("\xE2\x82"));          // Truncated.
  EXPECT_FALSE(IsValidUtf8("\x80"));              // Lone continuation.
}

TEST(Utf8, FindsABadByteAtAnyOffsetInLongAsciiRuns) {
  // ASCII is skipped a word at a time: a bad or multi-byte sequence must be
  // seen wherever it falls relative to the words.
  for (size_t at = 0; at < 20; ++at) {
    std::string text(24, 'a');
    std::string bad = text, good = text, cut = text;
    bad.insert(at, "\xFF");
    good.insert(at, "\xE2\x9C\x93");
    cut.insert(cut.size() - at % 3, "\xE2\x9C");
    EXPECT_FALSE(IsValidUtf8(bad)) << at;
    EXPECT_TRUE(IsValidUtf8(good)) << at;
    EXPECT_FALSE(IsValidUtf8(cut)) << at;
  }
}

TEST(Utf8, CountsCodePointsNotBytes) { EXPECT_EQ(CountCodePoints("Zoë🎉"), 4u); }

TEST(Utf8, TrimsAsciiWhiteSpaceOnly) {
  EXPECT_EQ(Trim("  \t a b \n"), "a b");
  EXPECT_EQ(Trim("   "), "");
}

}  // namespace
}  // namespace ensemble::core::text
