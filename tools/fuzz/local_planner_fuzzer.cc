// Fuzzes the local planner (core/assistant/local_planner.h). Input that
// parses as JSON is a planLocally request; anything else is the person's
// message, and the fuzzer then drives the whole turn like the loop would,
// answering each call with rows made from the message (none, one or several
// by the input's size). Whatever comes in: no crash, no INTERNAL error (an
// invalid call), every call valid against the hub's registry, at most
// kMaxLocalPlannerSteps steps, and no reply that prints a row's id.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/assistant/hub_tools.h"
#include "core/assistant/local_planner.h"
#include "core/hub/hub_tools.h"
#include "core/tools/validate.h"

namespace {

namespace assistant = ensemble::core::assistant;
namespace hub = ensemble::core::hub;
using nlohmann::json;

constexpr const char* kIds[] = {"01JFAZZ0000000000000000001", "01JFAZZ0000000000000000002",
                                "01JFAZZ0000000000000000003"};
constexpr const char* kTodays[] = {"2026-11-30", "2026-12-31", "2028-02-29",
                                   "0001-01-01", "9999-12-31", "2027-06-15"};

void CheckCalls(const json& step) {
  for (const json& call : step["calls"]) {
    if (!ensemble::core::tools::ValidateToolCall(hub::HubToolRegistry(),
                                                 call["name"].get<std::string>(), call["args"])
             .ok()) {
      std::abort();
    }
  }
}

// Rows answering `call`: titles from the call's own text, so exact and
// partial matches both happen.
json Answer(const json& call, std::size_t rows, const std::string& message) {
  json list = json::array();
  std::string title = call["args"].value("query", message.substr(0, 40));
  if (call["args"].contains("tasks") && !call["args"]["tasks"].empty()) {
    title = call["args"]["tasks"][0].value("title", title);
  }
  const char* statuses[] = {"todo", "doing", "done"};
  for (std::size_t i = 0; i < rows; ++i) {
    list.push_back({{"id", kIds[i]},
                    {"title", i == 1 ? title + " 2" : title},
                    {"status", statuses[(message.size() + i) % 3]},
                    {"due", kTodays[(message.size() + i) % 6]}});
  }
  return {{"tasks", std::move(list)}};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  json request = json::parse(input, nullptr, /*allow_exceptions=*/false);
  if (!request.is_discarded()) {
    auto step = assistant::PlanLocallyJson(hub::HubToolRegistry(), request);
    if (!step.ok()) {
      if (step.status().code() == ensemble::core::codes::kInternal) std::abort();
      return 0;
    }
    CheckCalls(*step);
    return 0;
  }
  request = {{"message", input}, {"today", kTodays[size % 6]}, {"calls", json::array()}};
  const std::size_t rows = size % 4;
  for (int turn = 1;; ++turn) {
    if (turn > assistant::kMaxLocalPlannerSteps) std::abort();
    auto step = assistant::PlanLocallyJson(hub::HubToolRegistry(), request);
    if (!step.ok()) std::abort();
    CheckCalls(*step);
    if ((*step)["final"].get<bool>()) {
      const std::string reply = (*step)["reply"].get<std::string>();
      for (const char* id : kIds) {
        if (reply.find(id) != std::string::npos && input.find(id) == std::string::npos)
          std::abort();
      }
      return 0;
    }
    for (const json& call : (*step)["calls"]) {
      json record = call;
      if (turn == 2 && size % 5 == 0) {
        record["error"] = "The task changed since you read it.";
      } else {
        record["result"] = Answer(call, rows, input);
      }
      request["calls"].push_back(std::move(record));
    }
  }
}
