#include "core/assistant/answer_check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(AnswerCheck, ReadsAChecklist) {
  auto list = ParseVerifyHook(json::parse(R"({"checklist": ["  due dates ", "owners"]})"));
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  EXPECT_EQ(*list, (std::vector<std::string>{"due dates", "owners"}));
}

TEST(AnswerCheck, RefusesAMalformedHookNamingTheRule) {
  const char* bad[] = {
      R"([])",
      R"({})",
      R"({"checklist": []})",
      R"({"checklist": "due dates"})",
      R"({"checklist": ["ok", 3]})",
      R"({"checklist": ["ok", "   "]})",
      R"({"checklist": ["ok"], "rounds": 5})",
  };
  for (const char* body : bad) {
    auto list = ParseVerifyHook(json::parse(body));
    ASSERT_FALSE(list.ok()) << body;
    EXPECT_EQ(list.status().code(), codes::kInvalidArgument) << body;
    EXPECT_THAT(list.status().message(), HasSubstr("verify must be")) << body;
  }
  json many = {{"checklist", json::array()}};
  for (size_t i = 0; i <= kMaxChecklistItems; ++i) many["checklist"].push_back("item");
  EXPECT_FALSE(ParseVerifyHook(many).ok());
  json long_item = {{"checklist", {std::string(kMaxChecklistItemChars + 1, 'x')}}};
  EXPECT_FALSE(ParseVerifyHook(long_item).ok());
  long_item["checklist"][0] = std::string(kMaxChecklistItemChars, 'x');
  EXPECT_TRUE(ParseVerifyHook(long_item).ok());
}

TEST(AnswerCheck, TheRequestCarriesTheChecklistAndBothTextsWithoutTools) {
  model::ChatRequest r = AnswerCheckRequest({"due dates", "owners"}, "What is late?", "Two tasks.");
  ASSERT_EQ(r.messages.size(), 2u);
  EXPECT_TRUE(r.tools.empty());
  EXPECT_FALSE(r.stream);
  EXPECT_THAT(r.messages[0].content, HasSubstr("COMPLETE"));
  EXPECT_THAT(r.messages[1].content, HasSubstr("- due dates\n- owners\n"));
  EXPECT_THAT(r.messages[1].content, HasSubstr("What is late?"));
  EXPECT_THAT(r.messages[1].content, HasSubstr("Two tasks."));
}

TEST(AnswerCheck, CompleteOrNothingNamedMeansNothingIsMissing) {
  EXPECT_EQ(MissingFromCheck("COMPLETE"), "");
  EXPECT_EQ(MissingFromCheck("  complete \n"), "");
  EXPECT_EQ(MissingFromCheck(""), "");
  EXPECT_EQ(MissingFromCheck("-\n*\n"), "");
}

TEST(AnswerCheck, NamedItemsGoBackWithWhatToDo) {
  std::string missing = MissingFromCheck("- due dates\n* owners\nthe project\n");
  EXPECT_THAT(missing, HasSubstr("does not yet cover:\n- due dates\n- owners\n- the project\n"));
  EXPECT_THAT(missing, HasSubstr("give the whole answer again"));
}

TEST(AnswerCheck, ALongReplyIsCutToTheChecklistsLimits) {
  std::string reply;
  for (size_t i = 0; i < kMaxChecklistItems + 5; ++i) {
    reply += "- item" + std::to_string(i) + "\n";
  }
  reply = "- " + std::string(kMaxChecklistItemChars * 2, 'y') + "\n" + reply;
  std::string missing = MissingFromCheck(reply);
  EXPECT_THAT(missing, HasSubstr("item" + std::to_string(kMaxChecklistItems - 2)));
  EXPECT_THAT(missing, Not(HasSubstr("item" + std::to_string(kMaxChecklistItems - 1) + "\n")));
  EXPECT_THAT(missing, Not(HasSubstr(std::string(kMaxChecklistItemChars, 'y'))));
}

}  // namespace
}  // namespace ensemble::core::assistant
