// The redaction pass on outside text (core/text/redact.h): the vectors in
// tests/vectors/context/redaction.json (the wasm build runs the same), then
// the cap and what a table cannot show well.

#include "core/text/redact.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/text/utf8.h"
#include "tests/support/source_file.h"

namespace ensemble::core::text {
namespace {

using nlohmann::json;

TEST(Redact, EveryVectorGivesItsText) {
  const json table = testing::LoadJsonFile("tests/vectors/context/redaction.json");
  ASSERT_TRUE(table.is_object()) << "tests/vectors/context/redaction.json is missing";
  int positive = 0;
  int negative = 0;
  for (const json& row : table.at("rows")) {
    SCOPED_TRACE(row.at("name").get<std::string>());
    const std::string text = row.at("text");
    const std::string expect =
        row.at("expect").is_null() ? text : row.at("expect").get<std::string>();
    EXPECT_EQ(RedactSecrets(text), expect);
    // A second pass finds nothing more: redacting twice is redacting once.
    EXPECT_EQ(RedactSecrets(expect), expect);
    (row.at("expect").is_null() ? negative : positive)++;
  }
  EXPECT_GE(positive, 15);
  EXPECT_GE(negative, 8);
}

TEST(Redact, IngestCapsTheTextAtTwentyThousandCharacters) {
  const std::string long_text = std::string(kMaxIngestTextChars - 10, 'a') + " \u00E9\u00E9" +
                                std::string(100, 'b') + " password=x";
  const std::string out = RedactForIngest(long_text);
  EXPECT_EQ(CountCodePoints(out), kMaxIngestTextChars);
  EXPECT_TRUE(IsValidUtf8(out));
  EXPECT_EQ(RedactForIngest("short password=x"), "short password=[redacted]");
}

TEST(Redact, ASecretAtEitherEndAndHostileBytesAreHandled) {
  EXPECT_EQ(RedactSecrets("password=x"), "password=[redacted]");
  EXPECT_EQ(RedactSecrets("AKIA0123456789ABCDEF"), "[redacted]");
  EXPECT_EQ(RedactSecrets(""), "");
  const std::string broken = "\xFF\xC3 token=\xFF\xFE x";
  EXPECT_EQ(RedactSecrets(broken), "\xFF\xC3 token=[redacted] x");
  EXPECT_EQ(RedactSecrets("-----BEGIN "), "-----BEGIN ");
  EXPECT_EQ(RedactSecrets(std::string(100000, '-')), std::string(100000, '-'));
}

}  // namespace
}  // namespace ensemble::core::text
