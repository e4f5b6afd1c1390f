// The model call's limit (spec 000 §5): the variable's default and clamp, a
// caller's shorter limit, and the chat's exact message.

#include "core/model/model_timeout.h"

#include <gtest/gtest.h>

namespace ensemble::core::model {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

TEST(ModelTimeout, DefaultsToFifteenMinutes) {
  EXPECT_EQ(*ParseModelCallTimeout(std::nullopt), minutes(15));
  EXPECT_EQ(*ParseModelCallTimeout(""), minutes(15));
  EXPECT_EQ(*ParseModelCallTimeout("  "), minutes(15));
}

TEST(ModelTimeout, ClampsToThirtySecondsThroughThirtyMinutes) {
  EXPECT_EQ(*ParseModelCallTimeout("120000"), minutes(2));
  EXPECT_EQ(*ParseModelCallTimeout(" 45000 "), seconds(45));
  EXPECT_EQ(*ParseModelCallTimeout("1"), seconds(30));
  EXPECT_EQ(*ParseModelCallTimeout("0"), seconds(30));
  EXPECT_EQ(*ParseModelCallTimeout("29999"), seconds(30));
  EXPECT_EQ(*ParseModelCallTimeout("1800001"), minutes(30));
  EXPECT_EQ(*ParseModelCallTimeout("999999999999999"), minutes(30));
}

TEST(ModelTimeout, RefusesAValueThatIsNotWholeMilliseconds) {
  for (const char* bad : {"15m", "-1", "1.5", "abc", "1e6", "9999999999999999"}) {
    auto r = ParseModelCallTimeout(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), codes::kInvalidArgument);
    EXPECT_NE(r.status().message().find("ENSEMBLE_MODEL_CALL_TIMEOUT_MS"), std::string::npos);
  }
}

TEST(ModelTimeout, ACallersShorterLimitWins) {
  EXPECT_EQ(EffectiveModelCallTimeout(minutes(15), minutes(2)), minutes(2));
  // The answer checklist's 20 seconds is not clamped up to 30.
  EXPECT_EQ(EffectiveModelCallTimeout(minutes(15), seconds(20)), seconds(20));
  EXPECT_EQ(EffectiveModelCallTimeout(minutes(1), minutes(2)), minutes(1));
  EXPECT_EQ(EffectiveModelCallTimeout(minutes(15), std::nullopt), minutes(15));
  EXPECT_EQ(EffectiveModelCallTimeout(minutes(15), milliseconds(0)), minutes(15));
}

TEST(ModelTimeout, WordsDurations) {
  EXPECT_EQ(WordDuration(minutes(15)), "15 minutes");
  EXPECT_EQ(WordDuration(minutes(1)), "1 minute");
  EXPECT_EQ(WordDuration(minutes(2)), "2 minutes");
  EXPECT_EQ(WordDuration(seconds(30)), "30 seconds");
  EXPECT_EQ(WordDuration(seconds(1)), "1 second");
  EXPECT_EQ(WordDuration(seconds(90)), "1 minute 30 seconds");
  EXPECT_EQ(WordDuration(seconds(121)), "2 minutes 1 second");
  EXPECT_EQ(WordDuration(milliseconds(200)), "1 second");
  EXPECT_EQ(WordDuration(milliseconds(20'400)), "20 seconds");
  EXPECT_EQ(WordDuration(minutes(30)), "30 minutes");
}

TEST(ModelTimeout, MessageIsTheSpecs) {
  EXPECT_EQ(ModelTimeoutMessage("GPT-6.1 Sol", minutes(15)),
            "GPT-6.1 Sol did not answer within 15 minutes, so I stopped waiting. Ask again, or "
            "try a narrower question.");
  Status st = ModelTimeoutError("llama3", minutes(1));
  EXPECT_EQ(st.code(), codes::kModelTimeout);
  EXPECT_EQ(st.message(),
            "llama3 did not answer within 1 minute, so I stopped waiting. Ask again, or try a "
            "narrower question.");
}

}  // namespace
}  // namespace ensemble::core::model
