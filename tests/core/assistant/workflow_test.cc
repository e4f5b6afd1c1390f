#include "core/assistant/workflow.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/assistant/hub_tools.h"
#include "core/hub/hub_tools.h"
#include "core/tools/validate.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;

const tools::ToolRegistry& Registry() { return hub::HubToolRegistry(); }

json Step(std::string id, std::string tool, json input) {
  return {{"id", std::move(id)}, {"tool", std::move(tool)}, {"input", std::move(input)}};
}

json Ref(std::string path) { return {{"$ref", std::move(path)}}; }

// Add a person, give them a task, finish the task: each step uses the one
// before it.
json Onboarding() {
  return {
      {"title", "Onboard Ana"},
      {"steps",
       {Step("person", "hub_create_person", {{"name", "Ana"}}),
        Step("tasks", "hub_create_tasks",
             {{"tasks", {{{"title", "Onboard Ana"}, {"personIds", {Ref("person.person.id")}}}}}}),
        Step("finish", "hub_update_task",
             {{"id", Ref("tasks.tasks.0.id")}, {"fields", {{"status", "done"}}}})}}};
}

WorkflowPlan Plan(const json& input) {
  auto plan = PlanWorkflow(Registry(), input);
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  return plan.ok() ? plan.value() : WorkflowPlan();
}

// A fake hub: records each call and answers like the real tools would.
struct FakeHub {
  std::vector<WorkflowStep> ran;
  std::string fail_step;  // This step's run fails.
  std::vector<json> saved;

  RunStepFn Run() {
    return [this](const WorkflowStep& step) -> Result<json> {
      ran.push_back(step);
      if (step.id == fail_step) return Status(codes::kSaveConflict, "the task changed meanwhile");
      if (step.tool == "hub_create_person") return json{{"person", {{"id", "person-7"}}}};
      if (step.tool == "hub_create_tasks") {
        return json{{"tasks", {{{"id", "task-3"}, {"title", "Onboard Ana"}}}}};
      }
      return json{{"ok", true}};
    };
  }
  SaveProgressFn Save() {
    return [this](const WorkflowProgress& p) {
      saved.push_back(p.ToJson());
      return Status::Ok();
    };
  }
};

std::vector<std::string> States(const WorkflowProgress& p) {
  std::vector<std::string> out;
  for (const StepProgress& s : p.steps) out.emplace_back(StepStateName(s.state));
  return out;
}

TEST(Workflow, LimitsAreTheToolSchemas) {
  const tools::ToolDef* tool = Registry().Find(kWorkflowToolName);
  ASSERT_NE(tool, nullptr);
  const json& steps = tool->input_schema["properties"]["steps"];
  EXPECT_EQ(steps["minItems"], kMinWorkflowSteps);
  EXPECT_EQ(steps["maxItems"], kMaxWorkflowSteps);
  EXPECT_TRUE(tools::ValidateToolCall(Registry(), kWorkflowToolName, Onboarding()).ok());
}

TEST(Workflow, PlansBackwardRefs) {
  WorkflowPlan plan = Plan(Onboarding());
  ASSERT_EQ(plan.steps.size(), 3u);
  EXPECT_EQ(plan.title, "Onboard Ana");
  EXPECT_EQ(plan.steps[2].tool, "hub_update_task");
}

TEST(Workflow, RefusesOneStepAndThirteen) {
  json one = Onboarding();
  one["steps"] = json::array({one["steps"][0]});
  EXPECT_EQ(PlanWorkflow(Registry(), one).status().code(), codes::kInvalidToolInput);
  json many = {{"steps", json::array()}};
  for (int i = 0; i < 13; ++i) {
    many["steps"].push_back(
        Step("s" + std::to_string(i), "hub_create_person", {{"name", "P" + std::to_string(i)}}));
  }
  auto plan = PlanWorkflow(Registry(), many);
  EXPECT_EQ(plan.status().message(), "a workflow has 2 to 12 steps; this one has 13");
  many["steps"].erase(12);
  EXPECT_TRUE(PlanWorkflow(Registry(), many).ok());
}

TEST(Workflow, RefusesARepeatedStepId) {
  json input = Onboarding();
  input["steps"][1]["id"] = "person";
  auto plan = PlanWorkflow(Registry(), input);
  EXPECT_EQ(plan.status().message(), "step \"person\": the id is used by an earlier step");
}

TEST(Workflow, RefusesAForwardRef) {
  json input = Onboarding();
  input["steps"][0]["input"]["name"] = Ref("tasks.tasks.0.title");
  auto plan = PlanWorkflow(Registry(), input);
  EXPECT_EQ(plan.status().code(), codes::kInvalidToolInput);
  EXPECT_EQ(plan.status().message(),
            "step \"person\": $ref \"tasks.tasks.0.title\" points at step \"tasks\", which runs "
            "later; a $ref points backward only");
}

TEST(Workflow, RefusesASelfRef) {
  json input = Onboarding();
  input["steps"][2]["input"]["id"] = Ref("finish.id");
  auto plan = PlanWorkflow(Registry(), input);
  EXPECT_EQ(plan.status().message(),
            "step \"finish\": $ref \"finish.id\" points at this step itself; a $ref points "
            "backward only");
}

TEST(Workflow, RefusesARefToNoStepAndAMalformedRef) {
  json input = Onboarding();
  input["steps"][2]["input"]["id"] = Ref("nobody.id");
  EXPECT_EQ(PlanWorkflow(Registry(), input).status().message(),
            "step \"finish\": $ref \"nobody.id\" names no step \"nobody\"");
  input["steps"][2]["input"]["id"] = Ref("tasks..id");
  EXPECT_EQ(PlanWorkflow(Registry(), input).status().code(), codes::kInvalidToolInput);
  input["steps"][2]["input"]["id"] = json{{"$ref", "tasks.tasks.0.id"}, {"extra", 1}};
  EXPECT_EQ(PlanWorkflow(Registry(), input).status().code(), codes::kInvalidToolInput);
  input["steps"][2]["input"]["id"] = json{{"$ref", 3}};
  EXPECT_EQ(PlanWorkflow(Registry(), input).status().code(), codes::kInvalidToolInput);
}

TEST(Workflow, RefusesReadSteps) {
  json input = Onboarding();
  input["steps"][1] = Step("look", "hub_list_tasks", json::object());
  auto plan = PlanWorkflow(Registry(), input);
  EXPECT_EQ(plan.status().code(), codes::kInvalidToolInput);
  EXPECT_EQ(plan.status().message().rfind("step \"look\": hub_list_tasks only reads", 0), 0u)
      << plan.status().message();
}

TEST(Workflow, RefusesNestedWorkflows) {
  json input = Onboarding();
  input["steps"][1] = Step("inner", "hub_run_workflow", Onboarding());
  auto plan = PlanWorkflow(Registry(), input);
  EXPECT_EQ(plan.status().message(),
            "step \"inner\": a workflow cannot run another workflow; list its steps instead");
}

TEST(Workflow, RefusesAnUnknownTool) {
  json input = Onboarding();
  input["steps"][1]["tool"] = "hub_fly_to_the_moon";
  auto plan = PlanWorkflow(Registry(), input);
  EXPECT_EQ(plan.status().code(), codes::kUnknownTool);
  EXPECT_EQ(plan.status().message(), "step \"tasks\": no tool called \"hub_fly_to_the_moon\"");
}

TEST(Workflow, RefusesAnInputWithoutRefsItsSchemaRefusesBeforeAnythingRuns) {
  json input = Onboarding();
  input["steps"][0]["input"] = json::object();  // hub_create_person needs a name.
  auto plan = PlanWorkflow(Registry(), input);
  EXPECT_EQ(plan.status().code(), codes::kInvalidToolInput);
  EXPECT_EQ(plan.status().message().rfind("step \"person\": ", 0), 0u);
}

TEST(Workflow, ResolvesRefsFromEarlierResults) {
  WorkflowPlan plan = Plan(Onboarding());
  StepResults results = {{"person", {{"person", {{"id", "person-7"}}}}},
                         {"tasks", {{"tasks", {{{"id", "task-3"}}}}}}};
  auto second = ResolveRefs(plan.steps[1], results);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ((*second)["tasks"][0]["personIds"][0], "person-7");
  auto third = ResolveRefs(plan.steps[2], results);
  ASSERT_TRUE(third.ok());
  EXPECT_EQ((*third)["id"], "task-3");
  EXPECT_EQ((*third)["fields"]["status"], "done");
}

TEST(Workflow, AMissingPathIsAReadableError) {
  WorkflowPlan plan = Plan(Onboarding());
  StepResults results = {{"tasks", {{"tasks", json::array()}}}};
  auto third = ResolveRefs(plan.steps[2], results);
  EXPECT_EQ(third.status().code(), codes::kInvalidToolInput);
  EXPECT_EQ(third.status().message(),
            "step \"finish\": $ref \"tasks.tasks.0.id\" finds nothing at \"tasks.0.id\" in the "
            "result of step \"tasks\"");
  auto before = ResolveRefs(plan.steps[2], {});
  EXPECT_EQ(before.status().message(),
            "step \"finish\": $ref \"tasks.tasks.0.id\" needs step \"tasks\", which has not "
            "succeeded");
}

TEST(Workflow, RunsEveryStepInOrderWithResolvedInputs) {
  WorkflowPlan plan = Plan(Onboarding());
  FakeHub hub;
  WorkflowOutcome out = RunWorkflow(Registry(), plan, WorkflowProgress::FromJson(plan, json()),
                                    hub.Run(), hub.Save());
  ASSERT_TRUE(out.status.ok()) << out.status.ToString();
  ASSERT_EQ(hub.ran.size(), 3u);
  EXPECT_EQ(hub.ran[1].input["tasks"][0]["personIds"][0], "person-7");
  EXPECT_EQ(hub.ran[2].input["id"], "task-3");
  EXPECT_EQ(States(out.progress),
            (std::vector<std::string>{"succeeded", "succeeded", "succeeded"}));
  EXPECT_EQ(out.summary, "3 of 3 steps done");
  // Saved before and after each step.
  EXPECT_EQ(hub.saved.size(), 6u);
  EXPECT_EQ(hub.saved[0][0]["state"], "running");
}

TEST(Workflow, AFailureStopsTheRestAndRetrySkipsSucceededSteps) {
  WorkflowPlan plan = Plan(Onboarding());
  FakeHub hub;
  hub.fail_step = "tasks";
  WorkflowOutcome first = RunWorkflow(Registry(), plan, WorkflowProgress::FromJson(plan, json()),
                                      hub.Run(), hub.Save());
  EXPECT_EQ(first.status.code(), codes::kSaveConflict);
  EXPECT_EQ(first.status.message(), "step \"tasks\": the task changed meanwhile");
  EXPECT_EQ(States(first.progress),
            (std::vector<std::string>{"succeeded", "failed", "unattempted"}));
  EXPECT_EQ(
      first.summary,
      "1 of 3 steps done; step \"tasks\" failed: the task changed meanwhile; 1 not attempted");
  EXPECT_EQ(hub.ran.size(), 2u);

  // Retry from what was saved: the person is not created twice.
  FakeHub again;
  WorkflowOutcome retry =
      RunWorkflow(Registry(), plan, WorkflowProgress::FromJson(plan, first.progress.ToJson()),
                  again.Run(), again.Save());
  ASSERT_TRUE(retry.status.ok()) << retry.status.ToString();
  ASSERT_EQ(again.ran.size(), 2u);
  EXPECT_EQ(again.ran[0].id, "tasks");
  EXPECT_EQ(again.ran[0].input["tasks"][0]["personIds"][0], "person-7");
  EXPECT_EQ(again.ran[1].id, "finish");
}

TEST(Workflow, AnInterruptedStepIsNotReplayedAutomatically) {
  WorkflowPlan plan = Plan(Onboarding());
  // Saved mid-run: the person exists, the task step was running when the
  // process died.
  json saved = json::array(
      {{{"id", "person"}, {"state", "succeeded"}, {"result", {{"person", {{"id", "person-7"}}}}}},
       {{"id", "tasks"}, {"state", "running"}},
       {{"id", "finish"}, {"state", "pending"}}});
  FakeHub hub;
  WorkflowOutcome out =
      RunWorkflow(Registry(), plan, WorkflowProgress::FromJson(plan, saved), hub.Run(), hub.Save());
  EXPECT_EQ(out.status.code(), codes::kFailedPrecondition);
  EXPECT_TRUE(hub.ran.empty());
  EXPECT_EQ(States(out.progress),
            (std::vector<std::string>{"succeeded", "interrupted", "pending"}));
  EXPECT_EQ(out.summary, "1 of 3 steps done; step \"tasks\" was interrupted and waits for you");
  ASSERT_EQ(hub.saved.size(), 1u);
  EXPECT_EQ(hub.saved[0][1]["state"], "interrupted");

  // Asked again without the person's choice: still nothing runs.
  FakeHub retry;
  WorkflowOutcome again =
      RunWorkflow(Registry(), plan, WorkflowProgress::FromJson(plan, out.progress.ToJson()),
                  retry.Run(), retry.Save());
  EXPECT_EQ(again.status.code(), codes::kFailedPrecondition);
  EXPECT_TRUE(retry.ran.empty());

  // The person chose to run it again.
  FakeHub chosen;
  WorkflowRunOptions options;
  options.rerun_interrupted.insert("tasks");
  WorkflowOutcome done =
      RunWorkflow(Registry(), plan, WorkflowProgress::FromJson(plan, out.progress.ToJson()),
                  chosen.Run(), chosen.Save(), options);
  ASSERT_TRUE(done.status.ok()) << done.status.ToString();
  ASSERT_EQ(chosen.ran.size(), 2u);
  EXPECT_EQ(chosen.ran[0].id, "tasks");
}

TEST(Workflow, AResolvedInputItsSchemaRefusesFailsThatStepWithoutRunningIt) {
  WorkflowPlan plan = Plan(Onboarding());
  FakeHub hub;
  // The person step "returns" a number id; personIds items must be strings.
  RunStepFn run = [&](const WorkflowStep& step) -> Result<json> {
    hub.ran.push_back(step);
    return json{{"person", {{"id", 7}}}};
  };
  WorkflowOutcome out =
      RunWorkflow(Registry(), plan, WorkflowProgress::FromJson(plan, json()), run, hub.Save());
  EXPECT_EQ(out.status.code(), codes::kInvalidToolInput);
  EXPECT_EQ(hub.ran.size(), 1u);
  EXPECT_EQ(States(out.progress), (std::vector<std::string>{"succeeded", "failed", "unattempted"}));
}

TEST(Workflow, AFailedSaveStopsBeforeTheStepRuns) {
  WorkflowPlan plan = Plan(Onboarding());
  FakeHub hub;
  SaveProgressFn save = [](const WorkflowProgress&) {
    return Status(codes::kStorage, "disk full");
  };
  WorkflowOutcome out =
      RunWorkflow(Registry(), plan, WorkflowProgress::FromJson(plan, json()), hub.Run(), save);
  EXPECT_EQ(out.status.code(), codes::kStorage);
  EXPECT_TRUE(hub.ran.empty());
  EXPECT_EQ(States(out.progress), (std::vector<std::string>{"pending", "pending", "pending"}));
}

TEST(Workflow, ProgressRoundTripsThroughJson) {
  WorkflowPlan plan = Plan(Onboarding());
  WorkflowProgress p = WorkflowProgress::FromJson(plan, json());
  p.steps[0].state = StepState::kSucceeded;
  p.steps[0].result = {{"person", {{"id", "person-7"}}}};
  p.steps[1].state = StepState::kFailed;
  p.steps[1].error_code = "SAVE_CONFLICT";
  p.steps[1].error_message = "changed";
  p.steps[2].state = StepState::kUnattempted;
  WorkflowProgress back = WorkflowProgress::FromJson(plan, p.ToJson());
  EXPECT_EQ(back.ToJson(), p.ToJson());
  EXPECT_EQ(back.steps[1].error_code, "SAVE_CONFLICT");
}

}  // namespace
}  // namespace ensemble::core::assistant
