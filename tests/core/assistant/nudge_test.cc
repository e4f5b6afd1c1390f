#include "core/assistant/nudge.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ensemble::core::assistant {
namespace {

const std::vector<std::string> kOffered = {"hub_create_tasks", "hub_list_tasks"};

NudgeReason Before(std::string_view reply) { return NudgeFor(reply, false, kOffered); }
NudgeReason After(std::string_view reply) { return NudgeFor(reply, true, kOffered); }

TEST(Nudge, APromisedLookupBeforeAnyToolRanGoesBack) {
  EXPECT_EQ(Before("Let me check your tasks."), NudgeReason::kPromisedLookup);
  EXPECT_EQ(Before("Sure! I\u2019ll look that up for you."), NudgeReason::kPromisedLookup);
  EXPECT_EQ(Before("One moment..."), NudgeReason::kPromisedLookup);
}

TEST(Nudge, QuestionsOffersAndPlainAnswersDoNot) {
  EXPECT_EQ(Before("Which project do you mean?"), NudgeReason::kNone);
  EXPECT_EQ(Before("If you like, I'll check the board too."), NudgeReason::kNone);
  EXPECT_EQ(Before("Paris is the capital of France."), NudgeReason::kNone);
  // After tools ran, a lookup promise is not the rule.
  EXPECT_EQ(After("Let me check: you have 3 open tasks."), NudgeReason::kNone);
}

TEST(Nudge, ACallWrittenAsTextGoesBack) {
  EXPECT_EQ(After("hub_create_tasks({\"tasks\": [{\"title\": \"Call Mira\"}]})"),
            NudgeReason::kCallAsText);
  EXPECT_EQ(After("```json\n{\"name\": \"hub_create_tasks\", \"arguments\": {}}\n```"),
            NudgeReason::kCallAsText);
  EXPECT_EQ(Before("<tool_call>{}</tool_call>"), NudgeReason::kCallAsText);
  // Naming a tool in prose is not a call; neither is a longer name.
  EXPECT_EQ(After("I used hub_list_tasks to find them."), NudgeReason::kNone);
  EXPECT_EQ(After("my_hub_create_tasks() is not ours"), NudgeReason::kNone);
}

TEST(Nudge, AnAnnouncedWriteAtTheEndGoesBack) {
  EXPECT_EQ(After("Found Mira. Proceeding to create the task."), NudgeReason::kAnnouncedWrite);
  EXPECT_EQ(After("I found both projects. Now I'll add the tasks."), NudgeReason::kAnnouncedWrite);
  EXPECT_EQ(After("I'll address that in the summary."), NudgeReason::kNone);  // Not "add".
  EXPECT_EQ(After("Want me to create a follow-up task?"), NudgeReason::kNone);
  EXPECT_EQ(After("Done: added 2 tasks."), NudgeReason::kNone);
}

TEST(Nudge, OnlyTheEndOfALongReplyCounts) {
  std::string reply = "Proceeding to create the task. " + std::string(400, 'x') + " All done.";
  EXPECT_EQ(After(reply), NudgeReason::kNone);
}

TEST(Nudge, EveryReasonHasAMessage) {
  for (NudgeReason r :
       {NudgeReason::kPromisedLookup, NudgeReason::kCallAsText, NudgeReason::kAnnouncedWrite}) {
    EXPECT_FALSE(NudgeMessage(r).empty());
  }
  EXPECT_TRUE(NudgeMessage(NudgeReason::kNone).empty());
}

}  // namespace
}  // namespace ensemble::core::assistant
