// The built-in model descriptions: which families take reasoning_effort, on
// the providers that pass it on.

#include "core/model/model_catalog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace ensemble::core::model {
namespace model_catalog_test {

using Efforts = std::vector<std::string>;

TEST(ModelCatalog, ReasoningFamiliesListTheirEffortsWhateverTheSnapshot) {
  const Efforts three = {"low", "medium", "high"};
  EXPECT_EQ(DescribeModel("openai", "o3").efforts, three);
  EXPECT_EQ(DescribeModel("openai", "o3-mini").efforts, three);
  EXPECT_EQ(DescribeModel("azure", "O4-Mini-2025-04-16").efforts, three);
  EXPECT_EQ(DescribeModel("openai", "o1").efforts, three);
  EXPECT_EQ(DescribeModel("openai", "gpt-5-mini").efforts,
            (Efforts{"minimal", "low", "medium", "high"}));
  const ModelInfo info = DescribeModel("openai", "gpt-5");
  EXPECT_EQ(info.id, "gpt-5");
  EXPECT_TRUE(info.supports_tools);
}

TEST(ModelCatalog, OtherModelsAndSelfHostedServersTakeNoEffort) {
  EXPECT_TRUE(DescribeModel("openai", "gpt-4.1-mini").efforts.empty());
  // A family is a whole leading name, not a prefix of letters.
  EXPECT_TRUE(DescribeModel("openai", "o30").efforts.empty());
  EXPECT_TRUE(DescribeModel("openai", "gpt-50").efforts.empty());
  // The early o1 variants never took the option.
  EXPECT_TRUE(DescribeModel("openai", "o1-mini").efforts.empty());
  EXPECT_TRUE(DescribeModel("openai", "o1-preview-2024-09-12").efforts.empty());
  // Ollama serves a model under any name; it takes no reasoning_effort.
  EXPECT_TRUE(DescribeModel("ollama", "o3").efforts.empty());
  EXPECT_TRUE(DescribeModel("vllm", "gpt-5").efforts.empty());
}

TEST(ModelCatalog, EveryFamilysEffortIsAKnownEffort) {
  const auto known = KnownEfforts();
  for (const char* id : {"gpt-5", "o4-mini", "o3", "o1"}) {
    for (const std::string& e : DescribeModel("openai", id).efforts) {
      EXPECT_NE(std::find(known.begin(), known.end(), e), known.end()) << id << " " << e;
    }
  }
}

}  // namespace model_catalog_test
}  // namespace ensemble::core::model
