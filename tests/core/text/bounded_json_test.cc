#include "core/text/bounded_json.h"

#include <gtest/gtest.h>

#include <string>

namespace ensemble::core::text {
namespace {

std::string Nested(int depth) { return std::string(depth, '[') + "1" + std::string(depth, ']'); }

TEST(BoundedJson, ParsesUpToTheLimit) {
  // The innermost value of 64 arrays sits at depth 64.
  auto ok = ParseBoundedJson(Nested(kMaxJsonDepth));
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_TRUE(ok->is_array());
  auto deep = ParseBoundedJson(Nested(kMaxJsonDepth + 1));
  EXPECT_EQ(deep.status().code(), codes::kMalformedJson);
  EXPECT_EQ(deep.status().message(), "nests deeper than 64 levels");
}

TEST(BoundedJson, TwoHundredThousandOpenBracketsAreRefusedNotACrash) {
  for (const std::string& text : {std::string(200000, '['), std::string(200000, '{'),
                                  Nested(200000), "{\"a\":" + std::string(200000, '[')}) {
    auto r = ParseBoundedJson(text);
    EXPECT_EQ(r.status().code(), codes::kMalformedJson);
  }
}

TEST(BoundedJson, SaysWhenTheTextIsNotJsonWithoutQuotingIt) {
  auto r = ParseBoundedJson("{\"password\": \"hunter2\"");
  EXPECT_EQ(r.status().code(), codes::kMalformedJson);
  EXPECT_EQ(r.status().message(), "is not valid JSON");
  EXPECT_EQ(ParseBoundedJson("[1,2]", 1)->size(), 2u);
  EXPECT_FALSE(ParseBoundedJson("[[1]]", 1).ok());
}

}  // namespace
}  // namespace ensemble::core::text
