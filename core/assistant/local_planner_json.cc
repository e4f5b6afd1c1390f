// The local planner's JSON edge (local_planner.h, PlanLocallyJson): one
// reader and one writer, so the wasm binding, the CLI and the vectors agree
// byte for byte.

#include <string>
#include <string_view>
#include <utility>

#include "core/assistant/local_planner.h"
#include "core/text/json_fields.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;

// Bounds on one request, so a hostile one cannot make planning slow. The
// planner reads at most kMaxLocalMessageChars of a message; a longer one
// is still answered (it needs a model), so the byte cap is generous.
constexpr std::size_t kMaxPlanMessageBytes = 64 * 1024;
constexpr std::size_t kMaxTimeZoneBytes = 100;
constexpr std::size_t kMaxCallNameBytes = 128;
constexpr std::size_t kMaxCallErrorBytes = 16 * 1024;
constexpr std::size_t kMaxMentionFieldBytes = 1024;

// The planner's errors start "plan request: " and quote a key as 'this'.
constexpr text::JsonFields kPlanRequest("plan request: ", '\'');

Result<LocalPlanInput> InputFromJson(const json& request) {
  ENSEMBLE_RETURN_IF_ERROR(kPlanRequest.CheckKnownKeys(
      request, "the request", {"message", "today", "timeZone", "calls", "mentions"}));
  LocalPlanInput input;
  ENSEMBLE_RETURN_IF_ERROR(kPlanRequest.ReadText(
      request, "message", "", {.max_bytes = kMaxPlanMessageBytes}, &input.message));
  ENSEMBLE_RETURN_IF_ERROR(
      kPlanRequest.ReadText(request, "today", "", {.max_bytes = 10}, &input.today));
  ENSEMBLE_RETURN_IF_ERROR(
      kPlanRequest.ReadText(request, "timeZone", "",
                            {.required = false, .max_bytes = kMaxTimeZoneBytes}, &input.time_zone));
  ENSEMBLE_RETURN_IF_ERROR(ReadLocalMentions(request, &input.mentions));
  auto calls = request.find("calls");
  if (calls == request.end()) return input;
  if (!calls->is_array()) return kPlanRequest.Invalid("calls must be an array");
  if (calls->size() > static_cast<std::size_t>(kMaxLocalPlannerSteps)) {
    return kPlanRequest.Invalid("calls has more than " + std::to_string(kMaxLocalPlannerSteps) +
                                " items");
  }
  for (std::size_t i = 0; i < calls->size(); ++i) {
    const json& call = (*calls)[i];
    const std::string where = "calls[" + std::to_string(i) + "]";
    ENSEMBLE_RETURN_IF_ERROR(
        kPlanRequest.CheckKnownKeys(call, where, {"name", "args", "result", "error"}));
    LocalCallRecord record;
    ENSEMBLE_RETURN_IF_ERROR(
        kPlanRequest.ReadText(call, "name", where, {.max_bytes = kMaxCallNameBytes}, &record.name));
    record.args = call.value("args", json::object());
    record.result = call.value("result", json());
    if (call.contains("error")) {
      std::string error;
      ENSEMBLE_RETURN_IF_ERROR(
          kPlanRequest.ReadText(call, "error", where, {.max_bytes = kMaxCallErrorBytes}, &error));
      record.error = std::move(error);
    }
    input.calls.push_back(std::move(record));
  }
  return input;
}

json StepToJson(const LocalPlanStep& step) {
  json calls = json::array();
  for (const LocalCall& call : step.calls)
    calls.push_back({{"name", call.name}, {"args", call.args}});
  return {{"step", step.step},         {"intent", step.intent}, {"final", step.final},
          {"calls", std::move(calls)}, {"reply", step.reply},   {"needsModel", step.needs_model}};
}

}  // namespace

Status ReadLocalMentions(const json& request, std::vector<LocalMention>* out) {
  auto mentions = request.find("mentions");
  if (mentions == request.end()) return Status::Ok();
  if (!mentions->is_array()) return kPlanRequest.Invalid("mentions must be an array");
  if (mentions->size() > kMaxLocalMentions) {
    return kPlanRequest.Invalid("mentions has more than " + std::to_string(kMaxLocalMentions) +
                                " items");
  }
  constexpr text::TextRule kField{.allow_empty = false, .max_bytes = kMaxMentionFieldBytes};
  std::vector<LocalMention> read;
  for (std::size_t i = 0; i < mentions->size(); ++i) {
    const json& m = (*mentions)[i];
    const std::string where = "mentions[" + std::to_string(i) + "]";
    ENSEMBLE_RETURN_IF_ERROR(kPlanRequest.CheckKnownKeys(m, where, {"kind", "id", "label"}));
    LocalMention mention;
    ENSEMBLE_RETURN_IF_ERROR(kPlanRequest.ReadText(m, "kind", where, kField, &mention.kind));
    ENSEMBLE_RETURN_IF_ERROR(kPlanRequest.ReadText(m, "id", where, kField, &mention.id));
    ENSEMBLE_RETURN_IF_ERROR(kPlanRequest.ReadText(m, "label", where, kField, &mention.label));
    read.push_back(std::move(mention));
  }
  *out = std::move(read);
  return Status::Ok();
}

Result<json> PlanLocallyJson(const tools::ToolRegistry& registry, const json& request) {
  ENSEMBLE_ASSIGN_OR_RETURN(LocalPlanInput input, InputFromJson(request));
  ENSEMBLE_ASSIGN_OR_RETURN(LocalPlanStep step, PlanLocalStep(registry, input));
  return StepToJson(step);
}

}  // namespace ensemble::core::assistant
