#include "core/text/unicode_normalize.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ensemble::core::text {
namespace {

#include "tests/core/text/normalization_sample.inc"

std::u32string ParseHex(const std::string& field) {
  std::u32string out;
  std::istringstream in(field);
  std::string word;
  while (in >> word) out.push_back(static_cast<char32_t>(std::stoul(word, nullptr, 16)));
  return out;
}

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ';')) out.push_back(field);
  return out;
}

std::u32string Nfkc(std::u32string s) {
  NfkcInPlace(&s);
  return s;
}

std::string Utf8(const std::u32string& s) {
  std::string out;
  for (char32_t c : s) AppendUtf8(c, &out);
  return out;
}

TEST(UnicodeNormalize, SampleOfTheConformanceFile) {
  int checked = 0;
  for (const char* line : kNormalizationSample) {
    const std::vector<std::string> cols = Split(line);
    ASSERT_EQ(cols.size(), 4u) << line;
    const std::u32string want = ParseHex(cols[1]);
    for (const std::string& col : cols) {
      EXPECT_EQ(Nfkc(ParseHex(col)), want) << line << " column " << col;
      // The UTF-8 entry point agrees with the code point one.
      EXPECT_EQ(ToNfkc(Utf8(ParseHex(col))), Utf8(want)) << line;
    }
    ++checked;
  }
  EXPECT_GT(checked, 1000);
}

// The whole NormalizationTest.txt (decompressed from the unicode-data
// package) when ENSEMBLE_NORMALIZATION_TEST names it.
TEST(UnicodeNormalize, WholeConformanceFileWhenPresent) {
  const char* path = std::getenv("ENSEMBLE_NORMALIZATION_TEST");
  if (path == nullptr) GTEST_SKIP() << "set ENSEMBLE_NORMALIZATION_TEST to NormalizationTest.txt";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::string line;
  int checked = 0, failed = 0;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    if (line.empty() || line[0] == '@') continue;
    const std::vector<std::string> cols = Split(line);
    ASSERT_GE(cols.size(), 5u) << line;
    const std::u32string want = ParseHex(cols[3]);
    for (int i = 0; i < 5; ++i) {
      if (Nfkc(ParseHex(cols[i])) != want && ++failed < 20) ADD_FAILURE() << line << " col " << i;
    }
    ++checked;
  }
  EXPECT_EQ(failed, 0);
  EXPECT_GT(checked, 18000);
}

TEST(UnicodeNormalize, CompatibilityFormsFold) {
  EXPECT_EQ(ToNfkc("\xEF\xBC\xA6\xEF\xBD\x97\xEF\xBD\x84"), "Fwd");  // Fullwidth "Ｆｗｄ".
  EXPECT_EQ(ToNfkc("\xEF\xAC\x81le"), "file");                       // The "ﬁ" ligature.
  EXPECT_EQ(ToNfkc("x\xC2\xB2"), "x2");                              // Superscript two.
  EXPECT_EQ(ToNfkc("e\xCC\x81"), "\xC3\xA9");                        // e + acute composes.
  EXPECT_EQ(ToNfkc("\xF0\x9D\x90\x80"), "A");                        // Mathematical bold A.
}

TEST(UnicodeNormalize, HangulDecomposesAndRecomposes) {
  // U+D4DB is LVT; its jamo U+1111 U+1171 U+11B6 compose back to it.
  EXPECT_EQ(Nfkc(U"\u1111\u1171\u11B6"), U"\uD4DB");
  EXPECT_EQ(Nfkc(U"\uD4DB"), U"\uD4DB");
  EXPECT_EQ(Nfkc(U"\u1100\u1161"), U"\uAC00");
}

TEST(UnicodeNormalize, CombiningMarksAreReordered) {
  // q + dot below (220) + dot above (230) in either order gives one order.
  EXPECT_EQ(Nfkc(U"q\u0307\u0323"), U"q\u0323\u0307");
  EXPECT_EQ(Nfkc(U"q\u0323\u0307"), U"q\u0323\u0307");
}

TEST(UnicodeNormalize, IllFormedUtf8BecomesReplacement) {
  std::u32string out;
  DecodeUtf8("a\xC0\xAFz\xED\xA0\x80", &out);
  EXPECT_EQ(out.front(), U'a');
  EXPECT_NE(out.find(U'z'), std::u32string::npos);
  EXPECT_NE(out.find(kReplacementCharacter), std::u32string::npos);
  DecodeUtf8("\xE2\x82", &out);  // Truncated.
  EXPECT_EQ(out.back(), kReplacementCharacter);
}

TEST(UnicodeNormalize, DecodeReplacesAsRepairUtf8Does) {
  // One U+FFFD per maximal subpart (text/utf8.h), not one per broken sequence.
  std::u32string out;
  DecodeUtf8("a\xE0\x80\x80z\xF0\x9F\x8E", &out);
  EXPECT_EQ(out, U"a\uFFFD\uFFFD\uFFFDz\uFFFD");
}

TEST(UnicodeNormalize, SimpleLowercase) {
  EXPECT_EQ(SimpleLowercase(U'A'), U'a');
  EXPECT_EQ(SimpleLowercase(U'\u00C9'), U'\u00E9');  // É
  EXPECT_EQ(SimpleLowercase(U'\u0100'), U'\u0101');  // Ā (a stride-2 run)
  EXPECT_EQ(SimpleLowercase(U'\u0101'), U'\u0101');
  EXPECT_EQ(SimpleLowercase(U'\u0394'), U'\u03B4');  // Δ
  EXPECT_EQ(SimpleLowercase(U'\u0416'), U'\u0436');  // Ж
  EXPECT_EQ(SimpleLowercase(U'1'), U'1');
}

TEST(UnicodeNormalize, WordCodePoints) {
  EXPECT_TRUE(IsWordCodePoint(U'a'));
  EXPECT_TRUE(IsWordCodePoint(U'7'));
  EXPECT_TRUE(IsWordCodePoint(U'\u00E9'));
  EXPECT_TRUE(IsWordCodePoint(U'\u4E2D'));  // CJK ideograph (a range in the data).
  EXPECT_TRUE(IsWordCodePoint(U'\u0301'));  // Combining mark.
  EXPECT_FALSE(IsWordCodePoint(U'!'));
  EXPECT_FALSE(IsWordCodePoint(U'\u2014'));      // Em dash.
  EXPECT_FALSE(IsWordCodePoint(U'\U0001F389'));  // Party popper emoji.
  EXPECT_FALSE(IsWordCodePoint(U'\uFE0F'));      // Variation selector-16.
  EXPECT_FALSE(IsWordCodePoint(U'\u20E3'));      // Combining enclosing keycap.
}

}  // namespace
}  // namespace ensemble::core::text
