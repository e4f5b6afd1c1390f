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

// The most tasks listOpenTasks answers: a first screen, never the whole list.
constexpr int kMaxOpenTasksPage = 1000;

// listOpenTasks(spaceId, limit) -> {tasks: [...]}: the first `limit` (1 to
// kMaxOpenTasksPage) live tasks of the space that are not done, oldest first,
// so a page can show the top of its list before it has read all of it.
std::string ListOpenTasks(const std::string& space_id, int limit) {
  return Guard([&]() -> core::Result<json> {
    if (limit < 1 || limit > kMaxOpenTasksPage) {
      return core::InvalidArgument("limit must be 1 to " + std::to_string(kMaxOpenTasksPage));
    }
    Session& s = Session::Get();
    ENSEMBLE_RETURN_IF_ERROR(s.CheckOpen());
    ENSEMBLE_ASSIGN_OR_RETURN(
        auto tasks,
        core::tasks::ListTasksInSpace(
            s.db(), space_id, {.include_done = false, .limit = static_cast<size_t>(limit)}));
    json list = json::array();
    for (const auto& t : tasks) list.push_back(core::tasks::ToJson(t));
    return json{{"tasks", std::move(list)}};
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_tasks) {
  emscripten::function("listTasks", &ListTasks);
  emscripten::function("listOpenTasks", &ListOpenTasks);
}

}  // namespace ensemble::wasm
