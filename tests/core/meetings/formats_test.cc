// Every format of spec §2.4 recognised from its content, with the sample
// files in tests/data/transcripts/.

#include <gtest/gtest.h>

#include "core/meetings/transcript.h"
#include "tests/core/meetings/samples.h"

namespace ensemble::core::meetings {
namespace {

using ::ensemble::testing::ReadSample;

Transcript Parse(const std::string& sample, const std::string& file_name = "") {
  auto result = ParseTranscriptFile(ReadSample(sample), file_name);
  EXPECT_TRUE(result.ok()) << sample << ": " << result.status().ToString();
  return result.ok() ? std::move(result).value() : Transcript();
}

TEST(TranscriptFormats, TeamsVttUsesVoiceTags) {
  Transcript t = Parse("teams.vtt");
  EXPECT_EQ(t.format, "teams-vtt");
  ASSERT_EQ(t.speakers, (std::vector<std::string>{"Ana Silva", "Ben Okafor", "Chen Li"}));
  ASSERT_EQ(t.turns.size(), 5u);  // Ana's first two cues merge.
  EXPECT_EQ(t.turns[0].text,
            "Good morning everyone, thanks for joining. First item is the launch date for the mobile app.");
  EXPECT_EQ(t.turns[0].start_ms, 3120);
  EXPECT_EQ(t.turns[0].end_ms, 11040);
  EXPECT_EQ(t.turns[4].text, "Sure & I'll loop in design.");  // Entities decoded.
  EXPECT_TRUE(t.warnings.empty());
}

TEST(TranscriptFormats, ZoomVttHasNumberedSpeakerCues) {
  Transcript t = Parse("zoom.vtt");
  EXPECT_EQ(t.format, "zoom-vtt");
  EXPECT_EQ(t.speakers, (std::vector<std::string>{"Priya Raman", "Tom Becker"}));
  EXPECT_EQ(t.turns[1].text, "The cloud spend came in twelve percent over plan.");
}

TEST(TranscriptFormats, OtherVttHasNoSpeakers) {
  Transcript t = Parse("captions.vtt");
  EXPECT_EQ(t.format, "vtt");
  EXPECT_TRUE(t.speakers.empty());
  ASSERT_EQ(t.turns.size(), 3u);
  EXPECT_EQ(t.turns[1].text, "This quarter we grew the team to forty people.");
  EXPECT_EQ(t.turns[2].text, "Next, a word about the office move.");  // <c> tag removed.
  EXPECT_EQ(t.duration_seconds, 13);
}

TEST(TranscriptFormats, SrtNumberedCues) {
  Transcript t = Parse("interview.srt");
  EXPECT_EQ(t.format, "srt");
  EXPECT_EQ(t.speakers, (std::vector<std::string>{"Interviewer", "Dana Kim"}));
  EXPECT_EQ(t.turns[3].text, "Moving forty million records without downtime. We did it in three waves.");
  EXPECT_EQ(t.turns[3].start_ms, 14300);
}

TEST(TranscriptFormats, TeamsCopiedFromThePanel) {
  Transcript t = Parse("teams-copy.txt");
  EXPECT_EQ(t.format, "teams-copy");
  ASSERT_EQ(t.turns.size(), 4u);
  EXPECT_EQ(t.turns[0].speaker, "Ana Silva");
  EXPECT_EQ(t.turns[0].start_ms, 3000);
  EXPECT_EQ(t.turns[2].text, "I will draft the job descriptions this week.");
}

TEST(TranscriptFormats, TeamsHeadersInline) {
  Transcript t = Parse("teams-inline.txt");
  EXPECT_EQ(t.format, "teams-copy");
  ASSERT_EQ(t.turns.size(), 4u);
  EXPECT_EQ(t.turns[1].speaker, "Ben Okafor");
  EXPECT_EQ(t.turns[1].text, "Legal has the redlines and expects to finish Monday.");
}

TEST(TranscriptFormats, TeamsDocxReadFromTheZip) {
  Transcript t = Parse("Weekly_sync-20250314_100102-Meeting_Recording.docx",
                       "Weekly sync-20250314_100102-Meeting Recording.docx");
  EXPECT_EQ(t.format, "teams-docx");
  EXPECT_EQ(t.title, "Weekly sync");
  EXPECT_EQ(t.date, "2025-03-14");
  EXPECT_EQ(t.time, "10:01");
  EXPECT_EQ(t.duration_seconds, 42 * 60 + 10);
  ASSERT_EQ(t.turns.size(), 4u);
  EXPECT_EQ(t.turns[0].text, "Good morning everyone, the agenda is the Q2 budget & hiring.");
  // "started transcription" is not speech.
  for (const Turn& turn : t.turns) EXPECT_EQ(turn.text.find("started transcription"), std::string::npos);
}

TEST(TranscriptFormats, TeamsCopyBecomesDocxWithItsMarkers) {
  auto t = ParseTranscript("Ana Silva   started transcription\n\nAna Silva   0:03\nHello.\n\nBen Okafor   0:09\nHi.\n");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->format, "teams-docx");
  auto copy = ParseTranscript("Ana Silva   0:03\nHello.\n\nBen Okafor   0:09\nHi.\n");
  ASSERT_TRUE(copy.ok());
  EXPECT_EQ(copy->format, "teams-copy");
}

TEST(TranscriptFormats, ZoomSavedTranscript) {
  Transcript t = Parse("zoom-transcript.txt");
  EXPECT_EQ(t.format, "zoom-txt");
  ASSERT_EQ(t.turns.size(), 4u);  // Tom's two turns merge.
  EXPECT_EQ(t.turns[1].text,
            "The root cause was an expired certificate on the internal gateway. Renewal alerts went to a mailbox nobody reads.");
  EXPECT_EQ(t.duration_seconds, 97);  // Wall-clock stamps: last minus first.
}

TEST(TranscriptFormats, OtterWithItsSections) {
  Transcript t = Parse("otter.txt");
  EXPECT_EQ(t.format, "otter");
  EXPECT_EQ(t.title, "Design review");
  EXPECT_EQ(t.date, "2025-03-11");
  EXPECT_EQ(t.time, "14:30");
  EXPECT_EQ(t.duration_seconds, 31 * 60 + 5);
  EXPECT_EQ(t.attendees, (std::vector<std::string>{"Maya Cohen", "Luis Ortega"}));
  ASSERT_EQ(t.turns.size(), 4u);
  // Keywords and the otter.ai footer are not speech.
  EXPECT_EQ(t.turns.back().text, "I'll update the Figma file tonight.");
}

TEST(TranscriptFormats, GoogleMeetTranscriptDoc) {
  Transcript t = Parse("google-meet.txt");
  EXPECT_EQ(t.format, "google-meet");
  EXPECT_EQ(t.title, "Roadmap sync");
  EXPECT_EQ(t.date, "2025-03-12");
  EXPECT_EQ(t.time, "10:00");
  EXPECT_EQ(t.time_zone, "CET");
  EXPECT_EQ(t.attendees, (std::vector<std::string>{"Elena Petrova", "Marco Rossi", "Aisha Bello"}));
  ASSERT_EQ(t.turns.size(), 5u);
  EXPECT_EQ(t.turns[3].start_ms, 300'000);  // From the "00:05:00" line.
  EXPECT_EQ(t.turns[0].text, "Hi both, let's go through the Q2 roadmap.");
}

TEST(TranscriptFormats, GoogleMeetDocx) {
  Transcript t = Parse("meet-transcript.docx");
  EXPECT_EQ(t.format, "google-meet");
  EXPECT_EQ(t.attendees, (std::vector<std::string>{"Elena Petrova", "Marco Rossi"}));
  EXPECT_EQ(t.turns[0].text, "Let\xE2\x80\x99s check the launch checklist.");
}

TEST(TranscriptFormats, GeminiNotesBringSummaryAndNextSteps) {
  Transcript t = Parse("gemini-notes.txt");
  EXPECT_EQ(t.format, "google-meet");
  EXPECT_EQ(t.title, "Roadmap sync");
  EXPECT_EQ(t.date, "2025-03-12");
  EXPECT_NE(t.summary.find("put search filters first"), std::string::npos);
  ASSERT_EQ(t.action_items.size(), 2u);
  EXPECT_EQ(t.action_items[0].owner, "Marco Rossi");
  EXPECT_EQ(t.action_items[0].text, "Marco Rossi will schedule the index work for sprint 14.");
  EXPECT_FALSE(t.action_items[0].suggested);
  EXPECT_EQ(t.turns.size(), 3u);  // Details bullets are not turns.
}

TEST(TranscriptFormats, SpeakerLinesWithStampsAndMetadata) {
  Transcript t = Parse("speaker-lines.txt");
  EXPECT_EQ(t.format, "speaker-lines");
  EXPECT_EQ(t.title, "Weekly marketing sync");
  EXPECT_EQ(t.date, "2025-03-14");
  EXPECT_EQ(t.time, "16:00");
  EXPECT_EQ(t.attendees, (std::vector<std::string>{"Jo Park", "Rita Alves"}));
  ASSERT_EQ(t.turns.size(), 4u);
  EXPECT_EQ(t.turns[2].start_ms, 20'000);
}

TEST(TranscriptFormats, MarkdownNotesWithWrittenDecisionsAndActions) {
  Transcript t = Parse("markdown-notes.md");
  EXPECT_EQ(t.format, "speaker-lines");
  EXPECT_EQ(t.title, "Sprint planning");
  ASSERT_EQ(t.decisions.size(), 2u);
  EXPECT_EQ(t.decisions[0].text, "Search refactor is the first item of the sprint.");
  ASSERT_EQ(t.action_items.size(), 2u);
  EXPECT_EQ(t.action_items[1].owner, "Sam");
  EXPECT_EQ(t.action_items[1].text, "update the sprint board");
  EXPECT_FALSE(t.suggested);
  EXPECT_EQ(t.turns.size(), 4u);
}

TEST(TranscriptFormats, PlainTextWarns) {
  Transcript t = Parse("plain.txt");
  EXPECT_EQ(t.format, "plain");
  EXPECT_TRUE(t.speakers.empty());
  EXPECT_EQ(t.turns.size(), 3u);  // Paragraphs.
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_EQ(t.warnings[0], kPlainWarning);
}

TEST(TranscriptFormats, FirefliesJson) {
  Transcript t = Parse("fireflies.json");
  EXPECT_EQ(t.format, "fireflies-json");
  EXPECT_EQ(t.title, "Customer onboarding review");
  EXPECT_EQ(t.date, "2025-03-10");
  EXPECT_EQ(t.time, "15:00");
  EXPECT_EQ(t.time_zone, "UTC");
  EXPECT_EQ(t.summary, "Nina and Omar looked at onboarding drop-off and will test an optional card step.");
  ASSERT_EQ(t.action_items.size(), 2u);
  EXPECT_EQ(t.action_items[0].owner, "Omar Haddad");
  EXPECT_EQ(t.action_items[0].text, "Set up the optional-card experiment");
  EXPECT_EQ(t.turns[0].start_ms, 400);
}

TEST(TranscriptFormats, TldvJson) {
  Transcript t = Parse("tldv.json");
  EXPECT_EQ(t.format, "tldv-json");
  EXPECT_EQ(t.speakers, (std::vector<std::string>{"Grace Hall", "Victor Chen"}));
  EXPECT_EQ(t.turns[1].start_ms, 5000);
  EXPECT_EQ(t.turns[1].end_ms, 10000);
}

TEST(TranscriptFormats, GenericJsonSegmentsWithClockStarts) {
  Transcript t = Parse("segments.json");
  EXPECT_EQ(t.format, "json");
  ASSERT_EQ(t.turns.size(), 2u);
  EXPECT_EQ(t.turns[1].start_ms, 11'000);
}

TEST(TranscriptFormats, FileNameNeverDecidesTheFormat) {
  // Zoom captions saved with a .txt name, and a Teams paste named .vtt.
  Transcript zoom = Parse("zoom.vtt", "meeting_saved_closed_caption.txt");
  EXPECT_EQ(zoom.format, "zoom-vtt");
  EXPECT_EQ(zoom.title, "");  // Zoom's generic name is no title.
  Transcript teams = Parse("teams-copy.txt", "captions.vtt");
  EXPECT_EQ(teams.format, "teams-copy");
  EXPECT_EQ(teams.title, "");
}

}  // namespace
}  // namespace ensemble::core::meetings
