// Ordered workflows (hub_run_workflow, spec 000 §6 "Ordered workflows"):
// 2-12 writes proposed together and run in order under one Apply, a later
// step's input taking values from earlier steps' results through
// {"$ref": "<step id>.<path>"} (e.g. "person.person.id", "tasks.tasks.0.id").
//
// PlanWorkflow checks the whole plan before anything runs: step count, unique
// ids, each step a registered write (read steps and nested workflows are
// refused: reads happen before proposing), every $ref pointing backward, and
// each input without refs valid against its tool's schema. RunWorkflow then
// runs the steps through a caller's callback, one at a time: each step's
// $refs are resolved from earlier results and its input checked against the
// schema again just before it runs; a failure stops the rest; a retry skips
// steps that succeeded; a step found running (the apply was cut off) is
// never run again unless the person says so.
//
// The plan is bound to its saved proposal by the proposal's hash
// (proposal_store.h), which covers the steps and their inputs; the per-step
// state travels as JSON in the workflow call's receipt (CallReceipt::steps).
//
// Thread-safety: pure functions over a read-only registry; RunWorkflow calls
// its callbacks on the calling thread.

#ifndef ENSEMBLE_CORE_ASSISTANT_WORKFLOW_H_
#define ENSEMBLE_CORE_ASSISTANT_WORKFLOW_H_

#include <cstddef>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::assistant {

// hub_run_workflow: 2-12 ordered writes under one Apply (spec 000 §6).
inline constexpr std::size_t kMinWorkflowSteps = 2;
inline constexpr std::size_t kMaxWorkflowSteps = 12;
// A step id is what a $ref starts with; the tool schema says the same.
inline constexpr std::size_t kMaxWorkflowStepIdLength = 40;
// Segments after the step id in one $ref; deeper is not a result anyone reads.
inline constexpr std::size_t kMaxRefPathSegments = 16;

inline constexpr std::string_view kWorkflowToolName = "hub_run_workflow";

struct WorkflowStep {
  std::string id;
  std::string tool;
  nlohmann::json input = nlohmann::json::object();  // May hold {"$ref": ...} values.
};

struct WorkflowPlan {
  std::string title;
  std::vector<WorkflowStep> steps;
};

// Checks hub_run_workflow's `input` ({title?, steps: [{id, tool, input}]})
// against `registry` and returns the plan. Errors name the step:
// UNKNOWN_TOOL `step "x": no tool called "y"`; INVALID_TOOL_INPUT for a count
// outside 2-12, a repeated or malformed id, a read tool, a nested workflow,
// a malformed, self, forward or dangling $ref, or an input (without $refs)
// its tool's schema refuses.
Result<WorkflowPlan> PlanWorkflow(const tools::ToolRegistry& registry, const nlohmann::json& input);

// The earlier steps' results, by step id.
using StepResults = std::map<std::string, nlohmann::json, std::less<>>;

// `step.input` with each {"$ref": "<id>.<path>"} replaced by the value at
// <path> in results[<id>] (array indexes as numbers). INVALID_TOOL_INPUT when
// the step has not run or the path finds nothing, naming both.
Result<nlohmann::json> ResolveRefs(const WorkflowStep& step, const StepResults& results);

enum class StepState { kPending, kRunning, kSucceeded, kFailed, kUnattempted, kInterrupted };

std::string_view StepStateName(StepState state);

struct StepProgress {
  std::string id;
  StepState state = StepState::kPending;
  nlohmann::json result;      // kSucceeded: the step's result (later $refs read it).
  std::string error_code;     // kFailed.
  std::string error_message;  // kFailed.
};

// Every step's state, in plan order.
struct WorkflowProgress {
  std::vector<StepProgress> steps;

  // [{id, state, result?, error?: {code, message}}]: saved in the receipt.
  nlohmann::json ToJson() const;
  // The progress saved for `plan`; a step missing or unreadable in `saved`
  // (or `saved` null: never run) is pending.
  static WorkflowProgress FromJson(const WorkflowPlan& plan, const nlohmann::json& saved);
};

// Runs one step with its resolved, schema-checked input; returns its result.
using RunStepFn = std::function<Result<nlohmann::json>(const WorkflowStep& resolved)>;
// Persists progress; called before a step runs (it is then kRunning) and
// after it ends. A failure stops the workflow before the next step runs.
using SaveProgressFn = std::function<Status(const WorkflowProgress&)>;

struct WorkflowRunOptions {
  // Steps the person chose to run again after they were interrupted.
  std::set<std::string, std::less<>> rerun_interrupted;
};

struct WorkflowOutcome {
  WorkflowProgress progress;
  // OK when every step succeeded; else the failed step's error (prefixed
  // with its id), or FAILED_PRECONDITION for an interrupted step that waits
  // for the person.
  Status status;
  // For the receipt row: "3 of 5 steps done; step \"b\" failed: ...".
  std::string summary;
};

// Runs `plan` from `progress` (WorkflowProgress::FromJson of what was saved):
// succeeded steps are skipped and their results serve later $refs; a step
// saved as kRunning becomes kInterrupted and, unless named in
// options.rerun_interrupted, stops the run before any step runs; each other
// step is resolved, checked against its tool's schema, saved as kRunning,
// run and saved with its outcome. The first failure marks every later step
// not yet succeeded kUnattempted and stops; nothing is rolled back.
WorkflowOutcome RunWorkflow(const tools::ToolRegistry& registry, const WorkflowPlan& plan,
                            WorkflowProgress progress, const RunStepFn& run,
                            const SaveProgressFn& save, const WorkflowRunOptions& options = {});

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_WORKFLOW_H_
