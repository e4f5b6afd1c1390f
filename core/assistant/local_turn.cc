#include "core/assistant/local_turn.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "core/assistant/local_planner.h"
#include "core/refs/readable_preview.h"
#include "core/text/json_fields.h"
#include "core/tools/validate.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;
using State = LocalTurnCall::State;

bool AreaAllowed(const LocalTurnRequest& request, const tools::ToolDef& tool) {
  if (!tool.is_write || !request.allowed_write_areas) return true;
  const std::vector<std::string>& allowed = *request.allowed_write_areas;
  return std::find(allowed.begin(), allowed.end(), tool.area) != allowed.end();
}

// Checks, prepares and either runs the call or, when `hold`, previews it.
void Process(const tools::ToolRegistry& registry, tools::ToolContext& ctx, LocalTurnCall& call,
             bool hold) {
  Status valid = tools::ValidateToolCall(registry, call.name, call.input);
  const tools::ToolDef* def = registry.Find(call.name);
  if (!valid.ok() || !def) {
    call.state = State::kFailed;
    call.text = valid.ok() ? call.name + " is not a tool" : valid.message();
    return;
  }
  tools::ToolCall tool_call{call.name, call.input, &ctx};
  Status prepared = def->prepare ? def->prepare(tool_call) : Status::Ok();
  call.input = tool_call.input;
  if (!prepared.ok()) {
    call.state = State::kFailed;
    call.text = prepared.message();
    return;
  }
  if (hold) {
    Result<std::string> preview =
        def->preview ? def->preview(tool_call) : Result<std::string>(refs::ToolAction(call.name));
    call.state = preview.ok() ? State::kHeld : State::kFailed;
    call.text = preview.ok() ? *preview : preview.status().message();
    return;
  }
  if (!def->run) {
    call.state = State::kFailed;
    call.text = refs::ToolAction(call.name) + " cannot run on this device.";
    return;
  }
  Result<json> ran = def->run(tool_call);
  call.state = ran.ok() ? State::kSucceeded : State::kFailed;
  if (ran.ok()) {
    call.result = std::move(*ran);
  } else {
    call.text = ran.status().message();
  }
}

}  // namespace

LocalTurnLoop::LocalTurnLoop(const tools::ToolRegistry& registry, std::string message,
                             WritePolicy policy, std::function<bool(const tools::ToolDef&)> allowed,
                             std::string today, std::string time_zone,
                             std::vector<LocalMention> mentions)
    : registry_(registry), policy_(policy), allowed_(std::move(allowed)) {
  input_.message = std::move(message);
  input_.mentions = std::move(mentions);
  input_.today = std::move(today);
  input_.time_zone = std::move(time_zone);
}

Result<LocalTurnLoop::Step> LocalTurnLoop::Next() {
  Step out;
  if (!held_.empty()) {
    // The planner's reply reads results; a held write has none yet.
    out.final = true;
    out.reply = WaitingForApplyText(held_);
    return out;
  }
  if (plans_ > kMaxLocalPlannerSteps) {
    return Status(codes::kLimitReached, "The local planner did not finish this request.");
  }
  ++plans_;
  ENSEMBLE_ASSIGN_OR_RETURN(LocalPlanStep step, PlanLocalStep(registry_, input_));
  if (step.final) {
    out.final = true;
    out.reply = std::move(step.reply);
    out.needs_model = step.needs_model;
    return out;
  }
  pending_ = std::move(step.calls);
  reported_ = 0;
  for (size_t c = 0; c < pending_.size(); ++c) {
    Planned planned;
    planned.def = registry_.Find(pending_[c].name);
    if (!planned.def) return Status(codes::kInternal, "the local planner called an unknown tool");
    planned.call.id = "local_" + std::to_string(step.step) + "_" + std::to_string(c);
    planned.call.name = pending_[c].name;
    planned.call.input = pending_[c].args;
    if (!allowed_(*planned.def)) {
      // As a model would never have been offered the tool, the planner hears it is off.
      planned.action = Action::kRefused;
      planned.call.state = State::kFailed;
      planned.call.text = refs::ToolAction(planned.call.name) +
                          " is turned off in Settings (the assistant's allowed write areas).";
    } else {
      planned.action = HoldsWrite(policy_, *planned.def) ? Action::kHold : Action::kRun;
    }
    out.calls.push_back(std::move(planned));
  }
  return out;
}

void LocalTurnLoop::Report(const LocalTurnCall& call) {
  if (reported_ >= pending_.size()) return;
  // The planner checks its own calls, so it hears them as it made them
  // (not as prepare rewrote them).
  LocalCall& planned = pending_[reported_++];
  if (call.state == State::kHeld) {
    held_.push_back(call.text);
    return;
  }
  LocalCallRecord record{std::move(planned.name), std::move(planned.args), nullptr, std::nullopt};
  if (call.state == State::kSucceeded) {
    record.result = call.result;
  } else {
    record.error = call.text;
  }
  input_.calls.push_back(std::move(record));
}

Result<LocalTurnResult> RunLocalTurn(const tools::ToolRegistry& registry, tools::ToolContext& ctx,
                                     const LocalTurnRequest& request) {
  LocalTurnLoop loop(
      registry, request.message, request.policy,
      [&request](const tools::ToolDef& def) { return AreaAllowed(request, def); }, ctx.today,
      ctx.time_zone, request.mentions);
  LocalTurnResult out;
  while (true) {
    ENSEMBLE_ASSIGN_OR_RETURN(LocalTurnLoop::Step step, loop.Next());
    if (step.final) {
      out.reply = std::move(step.reply);
      out.needs_model = step.needs_model;
      return out;
    }
    for (LocalTurnLoop::Planned& planned : step.calls) {
      if (planned.action != LocalTurnLoop::Action::kRefused) {
        Process(registry, ctx, planned.call, planned.action == LocalTurnLoop::Action::kHold);
      }
      loop.Report(planned.call);
      out.calls.push_back(std::move(planned.call));
    }
  }
}

std::string WaitingForApplyText(const std::vector<std::string>& previews) {
  std::string text = "Waiting for your Apply: ";
  for (size_t i = 0; i < previews.size(); ++i) {
    std::string_view preview = previews[i];
    if (preview.ends_with('.')) preview.remove_suffix(1);
    text += (i ? "; " : "") + std::string(preview);
  }
  return text + ". Nothing changes until you apply it.";
}

std::vector<LocalTurnCall> ApplyLocalCalls(const tools::ToolRegistry& registry,
                                           tools::ToolContext& ctx,
                                           std::vector<LocalTurnCall> drafts) {
  for (LocalTurnCall& call : drafts) {
    call.result = nullptr;
    call.text.clear();
    Process(registry, ctx, call, /*hold=*/false);
  }
  return drafts;
}

json LocalCallJson(const LocalTurnCall& call) {
  json out = {{"id", call.id},
              {"name", call.name},
              {"input", call.input},
              {"state", call.state == State::kSucceeded ? "succeeded"
                        : call.state == State::kHeld    ? "held"
                                                        : "failed"}};
  if (call.state == State::kSucceeded) {
    out["result"] = call.result;
  } else {
    out["text"] = call.text;
  }
  return out;
}

json LocalTurnJson(const LocalTurnResult& result) {
  json calls = json::array();
  for (const LocalTurnCall& call : result.calls) calls.push_back(LocalCallJson(call));
  return {{"reply", result.reply}, {"needsModel", result.needs_model}, {"calls", std::move(calls)}};
}

namespace {

// The local turn's errors carry no prefix and quote a key as "this".
constexpr text::JsonFields kLocalTurnFields;

// Reads the fields both edges share into `ctx`, which is left as it was on an
// error.
Status ReadContext(const json& request, tools::ToolContext& ctx) {
  constexpr text::TextRule kNonEmpty{.allow_empty = false};
  std::string space_id;
  std::string today;
  std::string time_zone = ctx.time_zone;
  ENSEMBLE_RETURN_IF_ERROR(kLocalTurnFields.ReadText(request, "spaceId", "", kNonEmpty, &space_id));
  ENSEMBLE_RETURN_IF_ERROR(kLocalTurnFields.ReadText(request, "today", "", kNonEmpty, &today));
  ENSEMBLE_RETURN_IF_ERROR(
      kLocalTurnFields.ReadText(request, "timeZone", "", {.required = false}, &time_zone));
  ctx.space_id = std::move(space_id);
  ctx.today = std::move(today);
  ctx.time_zone = std::move(time_zone);
  return Status::Ok();
}

}  // namespace

Result<json> RunLocalTurnJson(const tools::ToolRegistry& registry, tools::ToolContext& ctx,
                              const json& request) {
  ENSEMBLE_RETURN_IF_ERROR(kLocalTurnFields.CheckKnownKeys(
      request, "the request",
      {"spaceId", "today", "timeZone", "message", "policy", "allowedWriteAreas", "mentions"}));
  ENSEMBLE_RETURN_IF_ERROR(ReadContext(request, ctx));
  LocalTurnRequest turn;
  ENSEMBLE_RETURN_IF_ERROR(kLocalTurnFields.ReadText(request, "message", "", {}, &turn.message));
  ENSEMBLE_RETURN_IF_ERROR(ReadLocalMentions(request, &turn.mentions));
  if (request.contains("policy")) {
    std::optional<WritePolicy> policy = request["policy"].is_string()
                                            ? ParseWritePolicy(request["policy"].get<std::string>())
                                            : std::nullopt;
    if (!policy) return InvalidArgument("policy must be immediate, preview or needs-me");
    turn.policy = *policy;
  }
  if (request.contains("allowedWriteAreas")) {
    const json& areas = request["allowedWriteAreas"];
    bool strings = areas.is_array();
    for (const json& a : areas) strings = strings && a.is_string();
    if (!strings) return InvalidArgument("allowedWriteAreas must be a list of areas");
    turn.allowed_write_areas = areas.get<std::vector<std::string>>();
  }
  ENSEMBLE_ASSIGN_OR_RETURN(LocalTurnResult result, RunLocalTurn(registry, ctx, turn));
  return LocalTurnJson(result);
}

Result<json> ApplyLocalCallsJson(const tools::ToolRegistry& registry, tools::ToolContext& ctx,
                                 const json& request) {
  ENSEMBLE_RETURN_IF_ERROR(kLocalTurnFields.CheckKnownKeys(
      request, "the request", {"spaceId", "today", "timeZone", "calls"}));
  ENSEMBLE_RETURN_IF_ERROR(ReadContext(request, ctx));
  if (!request.contains("calls") || !request["calls"].is_array() || request["calls"].empty() ||
      request["calls"].size() > static_cast<size_t>(kMaxLocalPlannerSteps) * 10) {
    return InvalidArgument("calls must be a list of a turn's held calls");
  }
  std::vector<LocalTurnCall> drafts;
  for (const json& c : request["calls"]) {
    if (!c.is_object() || !c.contains("name") || !c["name"].is_string() || !c.contains("input") ||
        !c["input"].is_object()) {
      return InvalidArgument("each call needs a name and an input object");
    }
    LocalTurnCall call;
    call.id = c.value("id", std::string());
    call.name = c["name"].get<std::string>();
    call.input = c["input"];
    drafts.push_back(std::move(call));
  }
  json calls = json::array();
  for (const LocalTurnCall& call : ApplyLocalCalls(registry, ctx, std::move(drafts))) {
    calls.push_back(LocalCallJson(call));
  }
  return json{{"calls", std::move(calls)}};
}

}  // namespace ensemble::core::assistant
