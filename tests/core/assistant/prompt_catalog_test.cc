// Tests of core/assistant/prompt_catalog.h: every prompt Ensemble sends stays
// within its size budget, built by the real builders at their largest.

#include "core/assistant/prompt_catalog.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "core/assistant/instructions.h"
#include "core/assistant/turn_context.h"
#include "core/text/utf8.h"

namespace ensemble::core::assistant {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const PromptSample* Find(const std::vector<PromptSample>& catalog, const std::string& id) {
  for (const PromptSample& p : catalog) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

TEST(PromptCatalog, EveryPromptIsWithinItsBudget) {
  const std::vector<PromptSample> catalog = PromptCatalog();
  ASSERT_EQ(catalog.size(), 8u);
  std::set<std::string> ids;
  for (const PromptSample& p : catalog) {
    EXPECT_TRUE(ids.insert(p.id).second) << p.id;
    EXPECT_FALSE(p.title.empty()) << p.id;
    EXPECT_FALSE(p.purpose.empty()) << p.id;
    ASSERT_FALSE(p.text.empty()) << p.id;
    ASSERT_TRUE(text::IsValidUtf8(p.text)) << p.id;
    ASSERT_GT(p.budget_chars, 0u) << p.id;
    const size_t chars = text::CountCodePoints(p.text);
    EXPECT_LE(chars, p.budget_chars) << p.id << " is " << chars << " characters";
    RecordProperty(p.id, static_cast<int>(chars));
  }
}

TEST(PromptCatalog, CoversEveryPromptWithTheRealBuilders) {
  const std::vector<PromptSample> catalog = PromptCatalog();
  for (WritePolicy policy :
       {WritePolicy::kImmediate, WritePolicy::kPreview, WritePolicy::kNeedsMe}) {
    const std::string name(WritePolicyName(policy));
    const PromptSample* instructions = Find(catalog, "instructions." + name);
    ASSERT_NE(instructions, nullptr) << name;
    EXPECT_EQ(instructions->budget_chars, kInstructionsBudgetChars);
    EXPECT_THAT(instructions->text, HasSubstr(WriteModeNote(policy)));
    const PromptSample* note = Find(catalog, "write-mode-note." + name);
    ASSERT_NE(note, nullptr) << name;
    EXPECT_EQ(note->text, WriteModeNote(policy));
  }
  const PromptSample* guest = Find(catalog, "instructions.guest");
  ASSERT_NE(guest, nullptr);
  EXPECT_THAT(guest->text, Not(HasSubstr("\nConnected apps\n")));
  EXPECT_THAT(Find(catalog, "instructions.preview")->text, HasSubstr("\nConnected apps\n"));
  const PromptSample* context = Find(catalog, "turn-context");
  ASSERT_NE(context, nullptr);
  EXPECT_EQ(context->budget_chars, kTurnContextBudgetChars);
}

TEST(PromptCatalog, SamplesAreAtTheirLargest) {
  // The budgets only mean something if the samples reach every cap.
  const std::vector<PromptSample> catalog = PromptCatalog();
  const std::string& instructions = Find(catalog, "instructions.immediate")->text;
  EXPECT_THAT(instructions, HasSubstr("more are connected: hub_list_connections"));
  EXPECT_THAT(instructions, HasSubstr("more: hub_list_skills"));
  EXPECT_THAT(instructions, HasSubstr("- web-research: "));  // all 15 playbooks
  const std::string& context = Find(catalog, "turn-context")->text;
  for (const char* capped :
       {"the first 100 here", "(and ", "the rest was cut", "Page excerpt (the start",
        "Diagram source (its start)", "AI block's page (its start)", "hub_how_to apps.)",
        "\xE2\x80\xA6](ensemble://"}) {
    EXPECT_THAT(context, HasSubstr(capped));
  }
}

TEST(PromptCatalog, IsDeterministic) {
  const std::vector<PromptSample> a = PromptCatalog();
  const std::vector<PromptSample> b = PromptCatalog();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].id, b[i].id);
    EXPECT_EQ(a[i].text, b[i].text) << a[i].id;
  }
}

}  // namespace
}  // namespace ensemble::core::assistant
