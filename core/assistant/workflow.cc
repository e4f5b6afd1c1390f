#include "core/assistant/workflow.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "core/text/trim.h"
#include "core/tools/validate.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;

// Inputs nest a few levels; the bound keeps the walk's recursion small
// whatever JSON a model sends.
constexpr std::size_t kMaxInputDepth = 64;
constexpr char kRefKey[] = "$ref";

constexpr std::pair<StepState, std::string_view> kStepStateNames[] = {
    {StepState::kPending, "pending"},         {StepState::kRunning, "running"},
    {StepState::kSucceeded, "succeeded"},     {StepState::kFailed, "failed"},
    {StepState::kUnattempted, "unattempted"}, {StepState::kInterrupted, "interrupted"}};

std::string Quoted(std::string_view s) {
  return "\"" + text::TruncateChars(s, kMaxWorkflowStepIdLength + 20) + "\"";
}

Status StepError(std::string_view code, std::string_view step_id, std::string_view message) {
  return Status(code, "step " + Quoted(step_id) + ": " + std::string(message));
}

Status Invalid(std::string_view step_id, std::string_view message) {
  return StepError(codes::kInvalidToolInput, step_id, message);
}

bool IsStepId(std::string_view id) {
  if (id.empty() || id.size() > kMaxWorkflowStepIdLength || id[0] < 'a' || id[0] > 'z') {
    return false;
  }
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// A parsed "<step>.<path>": the step id and the path's segments.
struct Ref {
  std::string text;
  std::string step;
  std::vector<std::string> path;
};

// The $ref in `value` if it is a {"$ref": ...} object: nullopt for any other
// value, an error for a malformed one.
Result<std::optional<Ref>> ParseRef(std::string_view step_id, const json& value) {
  if (!value.is_object() || !value.contains(kRefKey)) return std::optional<Ref>();
  const json& target = value[kRefKey];
  if (value.size() != 1 || !target.is_string()) {
    return Invalid(step_id,
                   "a $ref is an object with only \"$ref\": \"<step id>.<path>\", "
                   "such as {\"$ref\": \"tasks.tasks.0.id\"}");
  }
  Ref ref;
  ref.text = target.get<std::string>();
  std::size_t start = 0;
  std::vector<std::string> segments;
  while (true) {
    const std::size_t dot = ref.text.find('.', start);
    segments.push_back(ref.text.substr(start, dot == std::string::npos ? dot : dot - start));
    if (segments.back().empty() || segments.size() > kMaxRefPathSegments + 1) {
      return Invalid(step_id, "$ref " + Quoted(ref.text) +
                                  " is not \"<step id>.<path>\" (at most " +
                                  std::to_string(kMaxRefPathSegments) + " path parts)");
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  ref.step = segments.front();
  ref.path.assign(segments.begin() + 1, segments.end());
  return std::optional<Ref>(std::move(ref));
}

// Calls `visit(ref, slot)` for each $ref in `value`, depth first in document
// order; `visit` may replace the slot.
template <typename Visit>
Status WalkRefs(std::string_view step_id, json& value, std::size_t depth, Visit& visit) {
  if (depth > kMaxInputDepth) {
    return Invalid(step_id, "the input nests deeper than " + std::to_string(kMaxInputDepth));
  }
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<Ref> ref, ParseRef(step_id, value));
  if (ref) return visit(*ref, value);
  if (value.is_object() || value.is_array()) {
    for (json& child : value) {
      ENSEMBLE_RETURN_IF_ERROR(WalkRefs(step_id, child, depth + 1, visit));
    }
  }
  return Status::Ok();
}

// The value at `path` inside `root`, or null when there is none.
const json* Follow(const json& root, const std::vector<std::string>& path) {
  const json* at = &root;
  for (const std::string& segment : path) {
    if (at->is_object()) {
      auto it = at->find(segment);
      if (it == at->end()) return nullptr;
      at = &*it;
    } else if (at->is_array()) {
      if (segment.size() > 9 || !std::all_of(segment.begin(), segment.end(),
                                             [](char c) { return c >= '0' && c <= '9'; })) {
        return nullptr;
      }
      const std::size_t index = std::stoul(segment);
      if (index >= at->size()) return nullptr;
      at = &(*at)[index];
    } else {
      return nullptr;
    }
  }
  return at;
}

std::string JoinPath(const std::vector<std::string>& path) {
  std::string out;
  for (const std::string& s : path) out += (out.empty() ? "" : ".") + s;
  return out;
}

Status CheckStepShape(const json& step, std::size_t index) {
  const std::string where = "step " + std::to_string(index + 1);
  if (!step.is_object()) {
    return Status(codes::kInvalidToolInput, where + " is not an object {id, tool, input}");
  }
  auto id = step.find("id");
  if (id == step.end() || !id->is_string() || !IsStepId(id->get<std::string>())) {
    return Status(codes::kInvalidToolInput,
                  where + " needs an id of lower-case letters, digits and _ (at most " +
                      std::to_string(kMaxWorkflowStepIdLength) + ")");
  }
  auto tool = step.find("tool");
  auto input = step.find("input");
  if (tool == step.end() || !tool->is_string() || input == step.end() || !input->is_object()) {
    return Invalid(id->get<std::string>(), "needs a tool name and an input object");
  }
  return Status::Ok();
}

// Checks `resolved` against the step's tool schema, naming the step.
Status CheckInput(const tools::ToolRegistry& registry, const WorkflowStep& step,
                  const json& resolved) {
  Status st = tools::ValidateToolCall(registry, step.tool, resolved);
  if (st.ok()) return st;
  return StepError(st.code(), step.id, st.message());
}

}  // namespace

std::string_view StepStateName(StepState state) {
  for (const auto& [s, name] : kStepStateNames) {
    if (s == state) return name;
  }
  return "pending";
}

Result<WorkflowPlan> PlanWorkflow(const tools::ToolRegistry& registry, const json& input) {
  if (!input.is_object() || !input.contains("steps") || !input["steps"].is_array()) {
    return Status(codes::kInvalidToolInput, "a workflow needs a list of steps");
  }
  const json& steps = input["steps"];
  if (steps.size() < kMinWorkflowSteps || steps.size() > kMaxWorkflowSteps) {
    return Status(codes::kInvalidToolInput, "a workflow has " + std::to_string(kMinWorkflowSteps) +
                                                " to " + std::to_string(kMaxWorkflowSteps) +
                                                " steps; this one has " +
                                                std::to_string(steps.size()));
  }
  WorkflowPlan plan;
  if (input.contains("title") && input["title"].is_string()) {
    plan.title = input["title"].get<std::string>();
  }
  for (std::size_t i = 0; i < steps.size(); ++i) {
    ENSEMBLE_RETURN_IF_ERROR(CheckStepShape(steps[i], i));
    WorkflowStep step{steps[i]["id"].get<std::string>(), steps[i]["tool"].get<std::string>(),
                      steps[i]["input"]};
    for (const WorkflowStep& earlier : plan.steps) {
      if (earlier.id == step.id) return Invalid(step.id, "the id is used by an earlier step");
    }
    plan.steps.push_back(std::move(step));
  }
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    WorkflowStep& step = plan.steps[i];
    if (step.tool == kWorkflowToolName) {
      return Invalid(step.id, "a workflow cannot run another workflow; list its steps instead");
    }
    const tools::ToolDef* tool = registry.Find(step.tool);
    if (tool == nullptr) {
      return StepError(codes::kUnknownTool, step.id, "no tool called " + Quoted(step.tool));
    }
    if (!tool->is_write) {
      return Invalid(step.id, step.tool +
                                  " only reads; a workflow runs writes, so read before "
                                  "proposing it and put what you found in the inputs");
    }
    bool has_refs = false;
    auto check_ref = [&](const Ref& ref, json&) -> Status {
      has_refs = true;
      std::size_t target = plan.steps.size();
      for (std::size_t j = 0; j < plan.steps.size(); ++j) {
        if (plan.steps[j].id == ref.step) target = j;
      }
      if (target == plan.steps.size()) {
        return Invalid(step.id, "$ref " + Quoted(ref.text) + " names no step " + Quoted(ref.step));
      }
      if (target == i) {
        return Invalid(step.id, "$ref " + Quoted(ref.text) +
                                    " points at this step itself; a $ref points backward only");
      }
      if (target > i) {
        return Invalid(step.id, "$ref " + Quoted(ref.text) + " points at step " + Quoted(ref.step) +
                                    ", which runs later; a $ref points backward only");
      }
      return Status::Ok();
    };
    json walked = step.input;
    ENSEMBLE_RETURN_IF_ERROR(WalkRefs(step.id, walked, 0, check_ref));
    // Without refs the input is final now: refuse it before anything runs.
    if (!has_refs) ENSEMBLE_RETURN_IF_ERROR(CheckInput(registry, step, step.input));
  }
  return plan;
}

Result<json> ResolveRefs(const WorkflowStep& step, const StepResults& results) {
  json resolved = step.input;
  auto substitute = [&](const Ref& ref, json& slot) -> Status {
    auto result = results.find(ref.step);
    if (result == results.end()) {
      return Invalid(step.id, "$ref " + Quoted(ref.text) + " needs step " + Quoted(ref.step) +
                                  ", which has not succeeded");
    }
    const json* value = Follow(result->second, ref.path);
    if (value == nullptr) {
      return Invalid(step.id, "$ref " + Quoted(ref.text) + " finds nothing at " +
                                  Quoted(JoinPath(ref.path)) + " in the result of step " +
                                  Quoted(ref.step));
    }
    slot = *value;
    return Status::Ok();
  };
  ENSEMBLE_RETURN_IF_ERROR(WalkRefs(step.id, resolved, 0, substitute));
  return resolved;
}

json WorkflowProgress::ToJson() const {
  json out = json::array();
  for (const StepProgress& s : steps) {
    json row = {{"id", s.id}, {"state", StepStateName(s.state)}};
    if (s.state == StepState::kSucceeded) row["result"] = s.result;
    if (!s.error_code.empty())
      row["error"] = {{"code", s.error_code}, {"message", s.error_message}};
    out.push_back(std::move(row));
  }
  return out;
}

WorkflowProgress WorkflowProgress::FromJson(const WorkflowPlan& plan, const json& saved) {
  WorkflowProgress progress;
  for (const WorkflowStep& step : plan.steps) {
    StepProgress p;
    p.id = step.id;
    if (saved.is_array()) {
      for (const json& row : saved) {
        if (!row.is_object() || row.value("id", "") != step.id) continue;
        const std::string state = row.value("state", "");
        for (const auto& [s, name] : kStepStateNames) {
          if (name == state) p.state = s;
        }
        if (row.contains("result")) p.result = row["result"];
        if (auto e = row.find("error"); e != row.end() && e->is_object()) {
          p.error_code = e->value("code", "");
          p.error_message = e->value("message", "");
        }
      }
    }
    progress.steps.push_back(std::move(p));
  }
  return progress;
}

namespace {

std::string Summarize(const WorkflowProgress& progress) {
  std::size_t done = 0;
  std::size_t unattempted = 0;
  std::string tail;
  for (const StepProgress& s : progress.steps) {
    if (s.state == StepState::kSucceeded) ++done;
    if (s.state == StepState::kUnattempted) ++unattempted;
    if (s.state == StepState::kFailed) {
      tail += "; step " + Quoted(s.id) + " failed: " + s.error_message;
    }
    if (s.state == StepState::kInterrupted) {
      tail += "; step " + Quoted(s.id) + " was interrupted and waits for you";
    }
  }
  std::string out =
      std::to_string(done) + " of " + std::to_string(progress.steps.size()) + " steps done" + tail;
  if (unattempted > 0) out += "; " + std::to_string(unattempted) + " not attempted";
  return out;
}

}  // namespace

WorkflowOutcome RunWorkflow(const tools::ToolRegistry& registry, const WorkflowPlan& plan,
                            WorkflowProgress progress, const RunStepFn& run,
                            const SaveProgressFn& save, const WorkflowRunOptions& options) {
  // Progress of another plan (or none) is read afresh for this one.
  bool matches = progress.steps.size() == plan.steps.size();
  for (std::size_t i = 0; matches && i < plan.steps.size(); ++i) {
    matches = progress.steps[i].id == plan.steps[i].id;
  }
  if (!matches) progress = WorkflowProgress::FromJson(plan, progress.ToJson());

  WorkflowOutcome out;
  auto finish = [&](Status status) {
    out.status = std::move(status);
    out.progress = std::move(progress);
    out.summary = Summarize(out.progress);
    return std::move(out);
  };

  // A step saved as running was cut off: it may or may not have happened.
  for (StepProgress& s : progress.steps) {
    if (s.state == StepState::kRunning) s.state = StepState::kInterrupted;
  }
  for (const StepProgress& s : progress.steps) {
    if (s.state == StepState::kInterrupted && !options.rerun_interrupted.contains(s.id)) {
      Status saved = save(progress);
      if (!saved.ok()) return finish(saved);
      return finish(StepError(codes::kFailedPrecondition, s.id,
                              "was interrupted while running, so it may or may not have "
                              "happened; check it, then choose to run the remaining steps"));
    }
  }

  StepResults results;
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    const WorkflowStep& step = plan.steps[i];
    StepProgress& state = progress.steps[i];
    if (state.state == StepState::kSucceeded) {
      results[step.id] = state.result;
      continue;
    }
    Status failure;
    Result<json> resolved = ResolveRefs(step, results);
    if (!resolved.ok()) failure = resolved.status();
    if (failure.ok()) failure = CheckInput(registry, step, resolved.value());
    if (failure.ok()) {
      const StepProgress before = state;
      state = StepProgress{step.id, StepState::kRunning, json(), "", ""};
      if (Status saved = save(progress); !saved.ok()) {
        state = before;  // It did not run.
        return finish(saved);
      }
      Result<json> result = run(WorkflowStep{step.id, step.tool, resolved.value()});
      if (result.ok()) {
        state.state = StepState::kSucceeded;
        state.result = std::move(result).value();
        results[step.id] = state.result;
        if (Status saved = save(progress); !saved.ok()) return finish(saved);
        continue;
      }
      failure = StepError(result.status().code(), step.id, result.status().message());
    }
    state.state = StepState::kFailed;
    state.result = json();
    state.error_code = failure.code();
    // The row is already the step's: keep the message without its name.
    const std::string prefix = "step " + Quoted(step.id) + ": ";
    state.error_message = failure.message().starts_with(prefix)
                              ? failure.message().substr(prefix.size())
                              : failure.message();
    for (std::size_t j = i + 1; j < plan.steps.size(); ++j) {
      StepProgress& later = progress.steps[j];
      if (later.state != StepState::kSucceeded) {
        later = StepProgress{later.id, StepState::kUnattempted, json(), "", ""};
      }
    }
    Status saved = save(progress);
    return finish(saved.ok() ? failure : saved);
  }
  return finish(Status::Ok());
}

}  // namespace ensemble::core::assistant
