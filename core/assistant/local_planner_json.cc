// The local planner's JSON edge (local_planner.h, PlanLocallyJson): one
// reader and one writer, so the wasm binding, the CLI and the vectors agree
// byte for byte.

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "core/assistant/local_planner.h"

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

Status RequestInvalid(std::string message) {
  return Status(codes::kInvalidArgument, "plan request: " + std::move(message));
}

Status CheckKeys(const json& object, const std::string& where,
                 std::initializer_list<std::string_view> known) {
  if (!object.is_object()) return RequestInvalid(where + " must be an object");
  for (const auto& [key, value] : object.items()) {
    bool ok = false;
    for (std::string_view k : known) ok = ok || key == k;
    if (!ok) return RequestInvalid(where + " has an unknown key '" + key + "'");
  }
  return Status::Ok();
}

Status ReadString(const json& object, const char* key, const std::string& where, std::size_t max,
                  bool required, std::string* out) {
  auto it = object.find(key);
  if (it == object.end()) {
    return required ? RequestInvalid(where + " is required") : Status::Ok();
  }
  if (!it->is_string()) return RequestInvalid(where + " must be a string");
  if (it->get_ref<const std::string&>().size() > max) {
    return RequestInvalid(where + " is longer than " + std::to_string(max) + " bytes");
  }
  *out = it->get<std::string>();
  return Status::Ok();
}

Result<LocalPlanInput> InputFromJson(const json& request) {
  ENSEMBLE_RETURN_IF_ERROR(
      CheckKeys(request, "the request", {"message", "today", "timeZone", "calls"}));
  LocalPlanInput input;
  ENSEMBLE_RETURN_IF_ERROR(
      ReadString(request, "message", "message", kMaxPlanMessageBytes, true, &input.message));
  ENSEMBLE_RETURN_IF_ERROR(ReadString(request, "today", "today", 10, true, &input.today));
  ENSEMBLE_RETURN_IF_ERROR(
      ReadString(request, "timeZone", "timeZone", kMaxTimeZoneBytes, false, &input.time_zone));
  auto calls = request.find("calls");
  if (calls == request.end()) return input;
  if (!calls->is_array()) return RequestInvalid("calls must be an array");
  if (calls->size() > static_cast<std::size_t>(kMaxLocalPlannerSteps)) {
    return RequestInvalid("calls has more than " + std::to_string(kMaxLocalPlannerSteps) +
                          " items");
  }
  for (std::size_t i = 0; i < calls->size(); ++i) {
    const json& call = (*calls)[i];
    const std::string where = "calls[" + std::to_string(i) + "]";
    ENSEMBLE_RETURN_IF_ERROR(CheckKeys(call, where, {"name", "args", "result", "error"}));
    LocalCallRecord record;
    ENSEMBLE_RETURN_IF_ERROR(
        ReadString(call, "name", where + ".name", kMaxCallNameBytes, true, &record.name));
    record.args = call.value("args", json::object());
    record.result = call.value("result", json());
    if (call.contains("error")) {
      std::string error;
      ENSEMBLE_RETURN_IF_ERROR(
          ReadString(call, "error", where + ".error", kMaxCallErrorBytes, true, &error));
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

Result<json> PlanLocallyJson(const json& request) {
  ENSEMBLE_ASSIGN_OR_RETURN(LocalPlanInput input, InputFromJson(request));
  ENSEMBLE_ASSIGN_OR_RETURN(LocalPlanStep step, PlanLocalStep(input));
  return StepToJson(step);
}

}  // namespace ensemble::core::assistant
