#include "core/assistant/apply_calls.h"

#include <string>
#include <utility>

#include "core/assistant/hub_tools.h"
#include "core/assistant/workflow.h"
#include "core/tools/tool_permissions.h"
#include "core/tools/validate.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;

CallReceipt Failed(const std::string& call_id, const Status& status) {
  CallReceipt r;
  r.call_id = call_id;
  r.outcome = CallOutcome::kFailed;
  r.error_code = status.code();
  r.error_message = status.message();
  return r;
}

CallReceipt Unattempted(const std::string& call_id, std::string_view code = {},
                        std::string message = {}) {
  CallReceipt r;
  r.call_id = call_id;
  r.outcome = CallOutcome::kUnattempted;
  r.error_code = code;
  r.error_message = std::move(message);
  return r;
}

// The tool's definition if it may still run as a held write.
Result<const tools::ToolDef*> RecheckedTool(const tools::ToolRegistry& registry,
                                            const ProposedCall& call) {
  const tools::ToolDef* tool = registry.Find(call.tool);
  if (!tool) return Status(codes::kUnknownTool, "no tool called " + call.tool);
  if (!tool->is_write) {
    return Status(codes::kFailedPrecondition, call.tool + " is not a write; nothing to apply");
  }
  ENSEMBLE_RETURN_IF_ERROR(tools::ValidateToolCall(registry, call.tool, call.input));
  return tool;
}

// Prepares and runs one tool call; the caller has rechecked it.
Result<json> RunTool(const tools::ToolDef& tool, json input, tools::ToolContext& context) {
  if (!tool.run) return Status(codes::kFailedPrecondition, tool.name + " cannot run here yet");
  // The role may have changed since the proposal was made (spec 000 §7:
  // Apply rechecks permissions); a workflow's steps are each checked.
  ENSEMBLE_RETURN_IF_ERROR(CheckToolRole(*context.db, context.space_id, context.account_id, tool));
  tools::ToolCall call{tool.name, std::move(input), &context};
  if (tool.prepare) ENSEMBLE_RETURN_IF_ERROR(tool.prepare(call));
  return tool.run(call);
}

// One call in a savepoint of its own: a failure leaves nothing of it, except
// a workflow's steps that finished before a failed one.
Result<json> RunInSavepoint(const tools::ToolRegistry& registry, const tools::ToolDef& tool,
                            const ProposedCall& call, tools::ToolContext& context,
                            CallReceipt& receipt) {
  store::Transaction savepoint(*context.db);
  ENSEMBLE_RETURN_IF_ERROR(savepoint.status());
  Result<json> result = Status(codes::kInternal, "not run");
  if (tool.name == kWorkflowToolName) {
    ENSEMBLE_ASSIGN_OR_RETURN(WorkflowPlan plan, PlanWorkflow(registry, call.input));
    WorkflowOutcome outcome = RunWorkflow(
        registry, plan, WorkflowProgress::FromJson(plan, receipt.steps),
        [&](const WorkflowStep& step) -> Result<json> {
          const tools::ToolDef* step_tool = registry.Find(step.tool);
          if (!step_tool) return Status(codes::kUnknownTool, "no tool called " + step.tool);
          return RunTool(*step_tool, step.input, context);
        },
        [&](const WorkflowProgress& progress) {
          receipt.steps = progress.ToJson();
          return Status::Ok();
        });
    receipt.steps = outcome.progress.ToJson();
    // Steps that finished stay (each step's writes are whole on their own).
    ENSEMBLE_RETURN_IF_ERROR(savepoint.Commit());
    if (!outcome.status.ok()) return Status(outcome.status.code(), outcome.summary);
    return json{{"summary", outcome.summary}};
  } else {
    result = RunTool(tool, call.input, context);
  }
  if (!result.ok()) return result;
  ENSEMBLE_RETURN_IF_ERROR(savepoint.Commit());
  return result;
}

void Succeeded(CallReceipt& receipt, const json& result) {
  receipt.outcome = CallOutcome::kSucceeded;
  if (result.is_object()) {
    receipt.summary = result.value("summary", std::string());
    if (result.contains("undo") && !result["undo"].is_null()) receipt.undo = result["undo"];
  }
}

}  // namespace

bool IsOutsideWrite(const tools::ToolDef& tool) {
  return tool.outside_transaction || tool.area == areas::kApps;
}

std::vector<CallReceipt> RunClaimedCalls(const tools::ToolRegistry& registry,
                                         const ApplyClaim& claim, tools::ToolContext& context,
                                         const std::function<bool()>& out_of_time) {
  std::vector<CallReceipt> receipts;
  const std::vector<ProposedCall>& calls = claim.to_run;
  bool stopped = false;
  std::string stop_code;
  std::string stop_message;
  for (const ProposedCall& call : calls) {
    const tools::ToolDef* found = registry.Find(call.tool);
    if (found && IsOutsideWrite(*found)) continue;
    if (stopped) {
      receipts.push_back(Unattempted(call.call_id, stop_code, stop_message));
      continue;
    }
    if (out_of_time && out_of_time()) {
      stopped = true;
      stop_code = codes::kApplyTimeout;
      stop_message = "Apply ran out of time before this change; nothing of it was made.";
      receipts.push_back(Unattempted(call.call_id, stop_code, stop_message));
      continue;
    }
    Result<const tools::ToolDef*> tool = RecheckedTool(registry, call);
    CallReceipt receipt;
    receipt.call_id = call.call_id;
    // A workflow resumes after the steps an earlier Apply finished.
    if (const CallReceipt* before = claim.proposal.Receipt(call.call_id)) {
      receipt.steps = before->steps;
    }
    Result<json> result =
        tool.ok() ? RunInSavepoint(registry, **tool, call, context, receipt) : tool.status();
    if (!result.ok()) {
      CallReceipt failed = Failed(call.call_id, result.status());
      failed.steps = std::move(receipt.steps);
      receipts.push_back(std::move(failed));
      stopped = true;  // The rest wait for Retry.
      continue;
    }
    Succeeded(receipt, *result);
    receipts.push_back(std::move(receipt));
  }
  return receipts;
}

std::vector<CallReceipt> RunOutsideCalls(const tools::ToolRegistry& registry,
                                         std::span<const ProposedCall> calls,
                                         std::span<const CallReceipt> hub_receipts,
                                         tools::ToolContext& context) {
  bool stopped = false;
  for (const CallReceipt& r : hub_receipts) {
    if (r.outcome != CallOutcome::kSucceeded) stopped = true;
  }
  std::vector<CallReceipt> receipts;
  for (const ProposedCall& call : calls) {
    const tools::ToolDef* found = registry.Find(call.tool);
    if (!found || !IsOutsideWrite(*found)) continue;
    if (stopped) {
      receipts.push_back(Unattempted(call.call_id));
      continue;
    }
    Result<const tools::ToolDef*> tool = RecheckedTool(registry, call);
    Result<json> result = tool.ok() ? RunTool(**tool, call.input, context) : tool.status();
    if (!result.ok()) {
      receipts.push_back(Failed(call.call_id, result.status()));
      stopped = true;
      continue;
    }
    CallReceipt receipt;
    receipt.call_id = call.call_id;
    Succeeded(receipt, *result);
    receipt.undo = nullptr;  // Connected-app writes have no Hub Undo.
    receipts.push_back(std::move(receipt));
  }
  return receipts;
}

Status RunUndo(std::span<const UndoItem> items, tools::ToolContext& context) {
  if (!context.write) return Status(codes::kFailedPrecondition, "this Undo cannot write");
  for (const UndoItem& item : items) {
    const json& entry = item.receipt.undo;
    if (!entry.is_array()) {
      return Status(codes::kFailedPrecondition, item.call.tool + " has no Undo");
    }
    std::vector<tools::Mutation> mutations;
    for (const json& m : entry) {
      if (!m.is_object() || !m.contains("name") || !m["name"].is_string()) {
        return Status(codes::kInternal, "a saved Undo entry is malformed");
      }
      mutations.push_back({m["name"].get<std::string>(), m.value("args", json::object())});
    }
    Status st = context.write(mutations);
    if (!st.ok()) {
      return Status(st.code(), "Undo of " + item.call.tool + " failed: " + st.message());
    }
  }
  return Status::Ok();
}

Result<std::vector<CallReceipt>> RunRedo(const tools::ToolRegistry& registry,
                                         std::span<const UndoItem> items,
                                         tools::ToolContext& context) {
  std::vector<CallReceipt> receipts;
  for (const UndoItem& item : items) {
    ENSEMBLE_ASSIGN_OR_RETURN(const tools::ToolDef* tool, RecheckedTool(registry, item.call));
    Result<json> result = RunTool(*tool, item.call.input, context);
    if (!result.ok()) {
      return Status(result.status().code(),
                    "Redo of " + item.call.tool + " failed: " + result.status().message());
    }
    CallReceipt receipt = item.receipt;
    receipt.undo = nullptr;
    Succeeded(receipt, *result);
    receipts.push_back(std::move(receipt));
  }
  return receipts;
}

}  // namespace ensemble::core::assistant
