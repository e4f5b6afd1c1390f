// JS API of the task domain's reads. Writes go through mutate() (see
// replica_bindings.cc), so they reach the outbox.

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/tasks/task.h"
#include "wasm/bindings/json_edge.h"
#include "wasm/bindings/session.h"

namespace ensemble::wasm {
namespace {

using nlohmann::json;

// listTasks() -> {tasks: [task, ...]}, live tasks oldest first.
std::string ListTasks() {
  return Guard([]() -> core::Result<json> {
    Session& s = Session::Get();
    ENSEMBLE_RETURN_IF_ERROR(s.CheckOpen());
    ENSEMBLE_ASSIGN_OR_RETURN(auto tasks, core::tasks::ListTasks(s.db()));
    json list = json::array();
    for (const auto& t : tasks) list.push_back(core::tasks::ToJson(t));
    return json{{"tasks", std::move(list)}};
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_tasks) { emscripten::function("listTasks", &ListTasks); }

}  // namespace ensemble::wasm
