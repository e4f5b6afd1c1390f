// The native half of the transcript parity vectors: every sample in
// tests/data/transcripts/ must give exactly the preview, transcript and cues
// recorded in tests/vectors/transcripts/<sample>.json, which
// tests/wasm/transcript_parity.test.mjs checks against the wasm build.
// Regenerate with tests/data/transcripts/update_vectors.sh.

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/meetings/preview.h"
#include "core/meetings/transcript.h"
#include "tests/core/meetings/samples.h"

namespace ensemble::core::meetings {
namespace {

using nlohmann::json;

TEST(TranscriptVectors, EverySampleHasAVectorAndMatchesIt) {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::SampleDir())) {
    std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".sh" || entry.path().extension() == ".py") continue;
    SCOPED_TRACE(name);
    auto vector_path = testing::SourceDir() / "tests" / "vectors" / "transcripts" / (name + ".json");
    ASSERT_TRUE(std::filesystem::exists(vector_path)) << "run tests/data/transcripts/update_vectors.sh";
    json vector = json::parse(testing::ReadBytes(vector_path));
    std::string bytes = testing::ReadBytes(entry.path());
    auto transcript = ParseTranscriptFile(bytes, name);
    ASSERT_TRUE(transcript.ok()) << transcript.status().ToString();
    EXPECT_EQ(PreviewJson(*transcript).dump(), vector["preview"].dump());
    EXPECT_EQ(TranscriptJson(*transcript).dump(), vector["transcript"].dump());
    auto cues = ParseCaptionCues(bytes);
    EXPECT_EQ(cues.ok(), vector.contains("cues"));
    if (cues.ok()) {
      EXPECT_EQ(CuesJson(*cues).dump(), vector["cues"].dump());
    }
    ++checked;
  }
  EXPECT_GE(checked, 18);
}

}  // namespace
}  // namespace ensemble::core::meetings
