// The pipeline's rules (spec §2.4): merging, the 400,000-character cap,
// file names, the preview, and refusals of malformed input.

#include "core/meetings/transcript.h"

#include <gtest/gtest.h>

#include <string>

#include "core/meetings/preview.h"
#include "tests/core/meetings/samples.h"

namespace ensemble::core::meetings {
namespace {

std::string Repeat(std::string_view s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

TEST(Transcript, SecretsSaidOrPastedAreRedacted) {
  auto t = ParseTranscript(
      "Ana: Use the key sk-proj-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9 for now.\n"
      "Ben: I will rotate it; the password=hunter2 goes too.\n");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->turns.size(), 2u);
  EXPECT_EQ(t->turns[0].text, "Use the key [redacted] for now.");
  EXPECT_EQ(t->turns[1].text, "I will rotate it; the password=[redacted] goes too.");
  // Items suggested from what was said quote the redacted words.
  for (const Item& item : t->action_items) {
    EXPECT_EQ(item.text.find("hunter2"), std::string::npos) << item.text;
  }
}

TEST(Transcript, ConsecutiveTurnsMergeUpToTheCap) {
  // 30 lines of 99 characters by one speaker: 100 each with the joining
  // space, so 24 fit in one 2,400-character turn (99 + 23 * 100 = 2,399).
  std::string sentence = Repeat("a", 98) + ".";
  std::string text;
  for (int i = 0; i < 30; ++i) text += "Ana Silva: " + sentence + "\n";
  text += "Ben Okafor: Done.\n";
  auto t = ParseTranscript(text);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->turns.size(), 3u);
  EXPECT_EQ(t->turns[0].text.size(), 2399u);
  EXPECT_LE(t->turns[0].text.size(), kMaxMergedTurnChars);
  EXPECT_EQ(t->turns[1].speaker, "Ana Silva");
  EXPECT_EQ(t->turns[1].text.size(), 6 * 99 + 5u);
  EXPECT_EQ(t->turns[2].speaker, "Ben Okafor");
}

TEST(Transcript, MergeCountsCharactersNotBytes) {
  // "é" is two bytes: 1,200 of them in two turns is 2,401 characters with the space.
  std::string half = Repeat("\xC3\xA9", 600);
  auto t = ParseTranscript("Ana: " + half + "\nAna: " + half + "\nAna: " + half + "\nAna: " + half + "\n");
  ASSERT_TRUE(t.ok());
  // 600 + 1 + 600 + 1 + 600 = 1,802 characters; a fourth would make 2,403.
  // Counting bytes instead, not even two would merge (2,401 bytes).
  ASSERT_EQ(t->turns.size(), 2u);
  EXPECT_EQ(t->turns[0].text.size(), 3 * 1200 + 2u);
}

TEST(Transcript, DifferentSpeakersNeverMerge) {
  auto t = ParseTranscript("Ana: One.\nBen: Two.\nAna: Three.\n");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->turns.size(), 3u);
}

TEST(Transcript, StopsAt400kCharactersWithAWarning) {
  // Alternating speakers, so no turns merge: each line is one turn.
  const std::string ana = "Ana: " + Repeat("word ", 19) + "end.\n";  // 104 characters.
  const std::string ben = "Ben: " + Repeat("word ", 19) + "end.\n";
  std::string text;
  for (size_t i = 0; text.size() < kMaxTranscriptChars + 50'000; ++i) text += i % 2 ? ben : ana;
  auto t = ParseTranscript(text);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->warnings.size(), 1u);
  EXPECT_EQ(t->warnings[0], kTruncatedWarning);
  // Whole lines up to the cap: 400,000 / 104 = 3,846 lines.
  EXPECT_EQ(t->turns.size(), kMaxTranscriptChars / ana.size());
  EXPECT_EQ(t->turns.back().text, Repeat("word ", 19) + "end.");
}

TEST(Transcript, UnderTheCapHasNoWarning) {
  std::string text;
  while (text.size() < kMaxTranscriptChars - 1'000) text += "Ana Silva: some words here.\n";
  auto t = ParseTranscript(text);
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->warnings.empty());
}

TEST(Transcript, JsonStopsAtTheCapToo) {
  std::string text = "[";
  for (int i = 0; i < 5'000; ++i) {
    if (i) text += ",";
    text += R"({"speaker":")" + std::string(i % 2 ? "Ana" : "Ben") + R"(","text":")" + Repeat("x", 99) +
            R"(","start":)" + std::to_string(i) + "}";
  }
  text += "]";
  auto t = ParseTranscript(text);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->warnings, std::vector<std::string>{std::string(kTruncatedWarning)});
  size_t chars = 0;
  for (const Turn& turn : t->turns) chars += turn.text.size();
  EXPECT_EQ(chars, kMaxTranscriptChars);
}

TEST(Transcript, ManySpeakersAndAttendeesStayLinear) {
  std::string text = "Attendees: ";
  for (int i = 0; i < 3'000; ++i) text += (i ? ", Person " : "Person ") + std::to_string(i);
  text += "\n\n";
  for (int i = 0; i < 20'000; ++i) text += "Speaker " + std::to_string(i) + ": hi\n";
  auto t = ParseTranscript(text);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->speakers.size(), 20'000u);
  EXPECT_EQ(t->attendees.size(), kMaxAttendees);
  nlohmann::json p = PreviewJson(*t);
  EXPECT_EQ(p["speakers"][19'999]["lines"], 1);
}

TEST(Transcript, FileNameSuppliesTitleAndDate) {
  auto t = ParseTranscript("Ana: Hello.\nBen: Hi.\n", "2025-03-14 Quarterly planning.txt");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->title, "Quarterly planning");
  EXPECT_EQ(t->date, "2025-03-14");
  auto zoom = ParseTranscript("Ana: Hello.\nBen: Hi.\n", "GMT20250314-090103_Recording.transcript.vtt");
  ASSERT_TRUE(zoom.ok());
  EXPECT_EQ(zoom->title, "");
  EXPECT_EQ(zoom->date, "2025-03-14");
  EXPECT_EQ(zoom->time, "09:01");
  EXPECT_EQ(zoom->time_zone, "UTC");  // Zoom's GMT stamp names the zone.
}

TEST(Transcript, WrittenMetadataWinsOverTheFileName) {
  auto t = ParseTranscript("Title: Board prep\nDate: 2025-01-02\n\nAna: Hello.\nBen: Hi.\n",
                           "2025-03-14 Something else.txt");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->title, "Board prep");
  EXPECT_EQ(t->date, "2025-01-02");
}

TEST(Transcript, PreviewFields) {
  auto t = ParseTranscriptFile(testing::ReadSample("teams.vtt"), "teams.vtt");
  ASSERT_TRUE(t.ok());
  nlohmann::json p = PreviewJson(*t);
  EXPECT_EQ(p["format"], "teams-vtt");
  EXPECT_EQ(p["lineCount"], 5);
  ASSERT_EQ(p["speakers"].size(), 3u);
  EXPECT_EQ(p["speakers"][0], (nlohmann::json{{"name", "Ana Silva"}, {"lines", 2}}));
  ASSERT_EQ(p["firstLines"].size(), 5u);
  EXPECT_EQ(p["firstLines"][2], "[00:17] Chen Li: I'll send the release notes to marketing by Friday.");
  EXPECT_EQ(p["decisions"], 1);
  EXPECT_EQ(p["actionItems"], 3);
  EXPECT_EQ(p["suggested"], true);
  EXPECT_EQ(p["warnings"], nlohmann::json::array());
  EXPECT_EQ(p["durationSeconds"], 30);
}

TEST(Transcript, PreviewShowsSixLinesAndShortensLongOnes) {
  std::string text;
  for (int i = 0; i < 10; ++i) text += std::string(i % 2 ? "Ana" : "Ben") + ": line " + std::to_string(i) + "\n";
  text += "Ana: " + Repeat("long ", 100) + "\n";
  auto t = ParseTranscript(text);
  ASSERT_TRUE(t.ok());
  nlohmann::json p = PreviewJson(*t);
  EXPECT_EQ(p["lineCount"], 10);  // Line 9 and the long line are both Ana's: merged.
  ASSERT_EQ(p["firstLines"].size(), kPreviewLines);
  EXPECT_EQ(p["firstLines"][0], "Ben: line 0");

  Turn longest{"Ana", 65'000, kNoTime, Repeat("x", 500)};
  Transcript one;
  one.turns.push_back(longest);
  std::string line = PreviewJson(one)["firstLines"][0];
  EXPECT_EQ(line.substr(0, 14), "[01:05] Ana: x");
  EXPECT_EQ(line.size(), kPreviewLineChars + 3);  // "…" is three bytes.
}

TEST(Transcript, RendersHoursInStamps) {
  EXPECT_EQ(RenderLine(Turn{"Ana", 3'723'000, kNoTime, "Hi"}), "[1:02:03] Ana: Hi");
  EXPECT_EQ(RenderLine(Turn{"", kNoTime, kNoTime, "Hi"}), "Hi");
}

TEST(Transcript, ByteOrderMarkAndWindowsLineEnds) {
  auto vtt = ParseTranscript("\xEF\xBB\xBFWEBVTT\r\n\r\n00:00:01.000 --> 00:00:02.000\r\n<v Ana>Hi</v>\r\n\r\n"
                             "00:00:03.000 --> 00:00:04.000\r\n<v Ben>Hello</v>\r\n");
  ASSERT_TRUE(vtt.ok()) << vtt.status().ToString();
  EXPECT_EQ(vtt->format, "teams-vtt");
  ASSERT_EQ(vtt->turns.size(), 2u);
  EXPECT_EQ(vtt->turns[1].text, "Hello");
  auto zoom = ParseTranscript("\xEF\xBB\xBF[Ana Silva] 00:00:01 Hi there\r\n[Ben Okafor] 00:00:04 Hello\r\n");
  ASSERT_TRUE(zoom.ok()) << zoom.status().ToString();
  EXPECT_EQ(zoom->format, "zoom-txt");
  EXPECT_EQ(zoom->turns[0].text, "Hi there");
  EXPECT_EQ(zoom->turns[1].start_ms, 4'000);
}

TEST(Transcript, RefusesEmptyInput) {
  for (const char* text : {"", "   \n\n\t", "\xEF\xBB\xBF\n"}) {
    auto t = ParseTranscript(text);
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.status().code(), "INVALID_ARGUMENT");
    EXPECT_EQ(t.status().message(), "The transcript is empty.");
  }
}

TEST(Transcript, RefusesBrokenJson) {
  auto t = ParseTranscript(R"({"sentences": [{"text": "hi", )");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), "MALFORMED_JSON");
  auto none = ParseTranscript(R"({"hello": "world"})");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), "INVALID_ARGUMENT");
  auto deep = ParseTranscript(std::string(10'000, '[') + std::string(10'000, ']'));
  EXPECT_FALSE(deep.ok());
}

TEST(Transcript, BracketTextThatIsNotJsonIsReadAsText) {
  auto t = ParseTranscript("[Ana Silva] 00:00:01\nHello.\n[Ben Okafor] 00:00:05\nHi.\n");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->format, "zoom-txt");
}

TEST(Transcript, RefusesBinaryAndLegacyWord) {
  auto doc = ParseTranscriptFile(std::string("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8) + std::string(100, '\0'), "x.doc");
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.status().message().find(".docx"), std::string::npos);
  auto binary = ParseTranscriptFile(std::string("\x89PNG\r\n\x1A\n\0\0\0\rIHDR", 16), "x.png");
  ASSERT_FALSE(binary.ok());
  EXPECT_EQ(binary.status().code(), "INVALID_ARGUMENT");
  auto big = ParseTranscriptFile(std::string(kMaxFileBytes + 1, 'a'), "big.txt");
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), "BODY_TOO_LARGE");
}

TEST(Transcript, InvalidUtf8IsReplacedNotPassedOn) {
  auto t = ParseTranscript("Ana: caf\xE9 ok\nBen: fine\n");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->turns[0].text, "caf\xEF\xBF\xBD ok");
  EXPECT_NO_THROW(PreviewJson(*t).dump());
}

TEST(Transcript, CaptionsWithBadTimesWarn) {
  auto t = ParseTranscript("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Ana>Hi</v>\n\n"
                           "00:00:xx --> 00:00:03.000\n<v Ben>Lost</v>\n\n"
                           "00:00:04.000 --> 00:00:05.000\n<v Ben>Hello</v>\n");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->turns.size(), 2u);
  EXPECT_EQ(t->warnings, std::vector<std::string>{std::string(kUnreadableCuesWarning)});
  auto empty = ParseTranscript("WEBVTT\n\n");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), "INVALID_ARGUMENT");
}

TEST(CaptionCues, EveryCueBeforeMerging) {
  auto cues = ParseCaptionCues(testing::ReadSample("teams.vtt"));
  ASSERT_TRUE(cues.ok());
  ASSERT_EQ(cues->size(), 6u);
  EXPECT_EQ((*cues)[0].voice, "Ana Silva");
  EXPECT_EQ((*cues)[1].voice, "Ana Silva");
  EXPECT_EQ((*cues)[1].start_ms, 6480);
  nlohmann::json json = CuesJson(*cues);
  EXPECT_EQ(json[0], (nlohmann::json{{"start", 3.12}, {"end", 6.48}, {"voice", "Ana Silva"},
                                     {"text", "Good morning everyone, thanks for joining."}}));
}

TEST(CaptionCues, RefusesOtherFormatsNamingThem) {
  auto cues = ParseCaptionCues(testing::ReadSample("otter.txt"));
  ASSERT_FALSE(cues.ok());
  EXPECT_EQ(cues.status().message(), "Not a captions file (vtt or srt): this reads as otter.");
}

}  // namespace
}  // namespace ensemble::core::meetings
