#include "server/assistant/turn_registry.h"

#include <algorithm>

namespace ensemble::server::assistant {

std::string_view TurnStateName(TurnState state) {
  switch (state) {
    case TurnState::kWorking:
      return "working";
    case TurnState::kQueued:
      return "queued";
    case TurnState::kStopping:
      return "stopping";
    case TurnState::kPaused:
      return "paused";
  }
  return "working";
}

nlohmann::json RunningTurnJson(const RunningTurn& turn) {
  return {{"id", turn.id},
          {"conversationId", turn.conversation_id},
          {"state", TurnStateName(turn.state)},
          {"startedAt", turn.started_at}};
}

void TurnRegistry::Add(RunningTurn turn) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string id = turn.id;
  turns_[id] = std::move(turn);
}

void TurnRegistry::Remove(const std::string& turn_id) {
  std::lock_guard<std::mutex> lock(mu_);
  turns_.erase(turn_id);
}

core::Status TurnRegistry::Stop(std::string_view account_id, const std::string& turn_id) {
  std::shared_ptr<model::StopSignal> stop;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = turns_.find(turn_id);
    if (it == turns_.end() || it->second.account_id != account_id) {
      return core::Status(core::codes::kNotFound, "no running turn with this id");
    }
    it->second.state = TurnState::kStopping;
    stop = it->second.stop;
  }
  // Outside the lock: Stop posts work to the call's executor.
  if (stop) stop->Stop();
  return core::Status();
}

std::vector<RunningTurn> TurnRegistry::List(std::string_view account_id) const {
  std::vector<RunningTurn> out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [id, turn] : turns_) {
      if (turn.account_id == account_id) out.push_back(turn);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const RunningTurn& a, const RunningTurn& b) {
    return a.started_at < b.started_at;
  });
  return out;
}

}  // namespace ensemble::server::assistant
