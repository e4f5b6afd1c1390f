#include "core/model/model_catalog.h"

#include <string>

#include "core/text/ascii.h"

namespace ensemble::core::model {
namespace {

constexpr std::string_view kAllEfforts[] = {"minimal", "low", "medium", "high"};
constexpr std::string_view kThreeEfforts[] = {"low", "medium", "high"};

// A family is its leading name: the id equals it or continues with '-'
// ("o3", "o3-mini", "o3-2025-04-16"; never "o30"). The first family that
// matches decides, so the early o1 variants, which take no effort, come
// before o1.
struct Family {
  std::string_view name;
  std::span<const std::string_view> efforts;
};

constexpr Family kFamilies[] = {
    {"gpt-5", kAllEfforts}, {"o4-mini", kThreeEfforts}, {"o3", kThreeEfforts},
    {"o1-mini", {}},        {"o1-preview", {}},         {"o1", kThreeEfforts},
};

// Servers that run open models under their own names and take no
// reasoning_effort, whatever the model is called.
constexpr std::string_view kSelfHostedProviders[] = {"ollama", "vllm", "llamacpp", "llama-cpp"};

bool InFamily(std::string_view id, std::string_view family) {
  return id.substr(0, family.size()) == family &&
         (id.size() == family.size() || id[family.size()] == '-');
}

}  // namespace

std::span<const std::string_view> KnownEfforts() { return kAllEfforts; }

ModelInfo DescribeModel(std::string_view provider, std::string_view model_id) {
  ModelInfo info;
  info.id = std::string(model_id);
  for (std::string_view self_hosted : kSelfHostedProviders) {
    if (provider == self_hosted) return info;
  }
  const std::string id = text::AsciiLowered(std::string(model_id));
  for (const Family& family : kFamilies) {
    if (!InFamily(id, family.name)) continue;
    info.efforts.assign(family.efforts.begin(), family.efforts.end());
    break;
  }
  return info;
}

ModelChoice ChooseModel(std::string_view provider, std::string_view model_id) {
  return {std::string(provider), DescribeModel(provider, model_id)};
}

}  // namespace ensemble::core::model
