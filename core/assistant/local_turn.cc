#include "core/assistant/local_turn.h"

#include <algorithm>
#include <initializer_list>
#include <string_view>
#include <utility>

#include "core/assistant/local_planner.h"
#include "core/refs/readable_preview.h"
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

Result<LocalTurnResult> RunLocalTurn(const tools::ToolRegistry& registry, tools::ToolContext& ctx,
                                     const LocalTurnRequest& request) {
  LocalPlanInput input;
  input.message = request.message;
  input.today = ctx.today;
  input.time_zone = ctx.time_zone;
  LocalTurnResult out;
  for (int i = 0; i <= kMaxLocalPlannerSteps; ++i) {
    ENSEMBLE_ASSIGN_OR_RETURN(LocalPlanStep step, PlanLocalStep(input));
    if (step.final) {
      out.reply = std::move(step.reply);
      out.needs_model = step.needs_model;
      return out;
    }
    std::vector<std::string> held;
    for (size_t c = 0; c < step.calls.size(); ++c) {
      LocalTurnCall call;
      call.id = "local_" + std::to_string(step.step) + "_" + std::to_string(c);
      call.name = step.calls[c].name;
      call.input = step.calls[c].args;
      LocalCallRecord record{call.name, call.input, nullptr, std::nullopt};
      const tools::ToolDef* def = registry.Find(call.name);
      if (!def) return Status(codes::kInternal, "the local planner called an unknown tool");
      if (!AreaAllowed(request, *def)) {
        // As the server says it: the planner hears the area is off.
        call.text = refs::ToolAction(call.name) +
                    " is turned off in Settings (the assistant's allowed write areas).";
      } else {
        Process(registry, ctx, call, HoldsWrite(request.policy, *def));
      }
      if (call.state == State::kHeld) {
        held.push_back(call.text);
      } else if (call.state == State::kSucceeded) {
        record.result = call.result;
        input.calls.push_back(std::move(record));
      } else {
        record.error = call.text;
        input.calls.push_back(std::move(record));
      }
      out.calls.push_back(std::move(call));
    }
    if (!held.empty()) {
      // The planner's reply reads results; a draft has none yet.
      out.reply = WaitingForApplyText(held);
      return out;
    }
  }
  return Status(codes::kLimitReached, "The local planner did not finish this request.");
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

// Reads the keys both edges share into `ctx`; INVALID_ARGUMENT for a key not
// in `extra` or the shared ones.
Status ReadContext(const json& request, tools::ToolContext& ctx,
                   std::initializer_list<std::string_view> extra) {
  if (!request.is_object()) return InvalidArgument("the request must be an object");
  for (const auto& [key, value] : request.items()) {
    const bool known = key == "spaceId" || key == "today" || key == "timeZone" ||
                       std::find(extra.begin(), extra.end(), key) != extra.end();
    if (!known) return InvalidArgument("unknown key \"" + key.substr(0, 40) + "\"");
  }
  for (const char* key : {"spaceId", "today"}) {
    if (!request.contains(key) || !request[key].is_string() ||
        request[key].get_ref<const std::string&>().empty()) {
      return InvalidArgument(std::string(key) + " is required and must be a string");
    }
  }
  if (request.contains("timeZone") && !request["timeZone"].is_string()) {
    return InvalidArgument("timeZone must be a string");
  }
  ctx.space_id = request["spaceId"].get<std::string>();
  ctx.today = request["today"].get<std::string>();
  ctx.time_zone = request.value("timeZone", ctx.time_zone);
  return Status::Ok();
}

}  // namespace

Result<json> RunLocalTurnJson(const tools::ToolRegistry& registry, tools::ToolContext& ctx,
                              const json& request) {
  ENSEMBLE_RETURN_IF_ERROR(ReadContext(request, ctx, {"message", "policy", "allowedWriteAreas"}));
  LocalTurnRequest turn;
  if (!request.contains("message") || !request["message"].is_string()) {
    return InvalidArgument("message is required and must be a string");
  }
  turn.message = request["message"].get<std::string>();
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
  ENSEMBLE_RETURN_IF_ERROR(ReadContext(request, ctx, {"calls"}));
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
