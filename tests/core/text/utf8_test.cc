#include "core/text/utf8.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

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

// Decodes all of `s`, one step at a time.
std::u32string DecodeAll(std::string_view s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    const Utf8Step step = DecodeUtf8Step(s, i);
    EXPECT_GE(step.length, 1u);
    out.push_back(step.code_point);
    i += step.length;
  }
  return out;
}

TEST(Utf8, StepDecodesEachLengthOfSequence) {
  EXPECT_EQ(DecodeAll("a\xC3\xAB\xE2\x80\x94\xF0\x9F\x8E\x89"), U"a\u00EB\u2014\U0001F389");
  const Utf8Step step = DecodeUtf8Step("\xF0\x9F\x8E\x89", 0);
  EXPECT_TRUE(step.ok);
  EXPECT_EQ(step.length, 4u);
}

TEST(Utf8, StepReplacesEachMaximalSubpartOnce) {
  // Unicode 15, table 3-8: the recommended U+FFFD substitutions.
  EXPECT_EQ(DecodeAll("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"),
            U"a\uFFFD\uFFFD\uFFFDb\uFFFDc\uFFFD\uFFFDd");
  // An overlong, a surrogate and a value past U+10FFFF: every byte alone.
  EXPECT_EQ(DecodeAll("\xC0\xAF"), U"\uFFFD\uFFFD");
  EXPECT_EQ(DecodeAll("\xED\xA0\x80"), U"\uFFFD\uFFFD\uFFFD");
  EXPECT_EQ(DecodeAll("\xF4\x90\x80\x80"), U"\uFFFD\uFFFD\uFFFD\uFFFD");
  // A sequence cut off by the end of the text is one replacement.
  const Utf8Step cut = DecodeUtf8Step("\xE2\x82", 0);
  EXPECT_FALSE(cut.ok);
  EXPECT_EQ(cut.length, 2u);
}

TEST(Utf8, AppendEncodesWhatTheStepDecodesAndReplacesNonCharacters) {
  for (char32_t c : {U'\0', U'A', U'\u00EB', U'\u20AC', U'\U0001F389', U'\U0010FFFF'}) {
    std::string out;
    AppendUtf8(c, &out);
    ASSERT_FALSE(out.empty());
    const Utf8Step step = DecodeUtf8Step(out, 0);
    EXPECT_TRUE(step.ok) << static_cast<uint32_t>(c);
    EXPECT_EQ(step.code_point, c);
    EXPECT_EQ(step.length, out.size());
  }
  for (char32_t bad : {char32_t{0xD800}, char32_t{0xDFFF}, char32_t{0x110000}}) {
    std::string out;
    AppendUtf8(bad, &out);
    EXPECT_EQ(out, "\uFFFD") << static_cast<uint32_t>(bad);
  }
}

TEST(Utf8, CountsCodePointsNotBytes) { EXPECT_EQ(CountCodePoints("Zoë🎉"), 4u); }

TEST(Utf8, TrimsAsciiWhiteSpaceOnly) {
  EXPECT_EQ(Trim("  \t a b \n"), "a b");
  EXPECT_EQ(Trim("   "), "");
}

}  // namespace
}  // namespace ensemble::core::text
