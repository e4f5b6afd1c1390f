#include "server/assistant/turn_registry.h"

namespace ensemble::server::assistant {

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

bool TurnRegistry::StopLocal(const std::string& turn_id) {
  std::shared_ptr<model::StopSignal> stop;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = turns_.find(turn_id);
    if (it == turns_.end()) return false;
    it->second.state = TurnState::kStopping;
    stop = it->second.stop;
  }
  if (stop) stop->Stop();
  return true;
}

size_t TurnRegistry::StopAccount(std::string_view account_id) {
  std::vector<std::shared_ptr<model::StopSignal>> stops;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [id, turn] : turns_) {
      if (turn.account_id != account_id) continue;
      turn.state = TurnState::kStopping;
      stops.push_back(turn.stop);
    }
  }
  for (const auto& stop : stops) {
    if (stop) stop->Stop();
  }
  return stops.size();
}

std::vector<std::string> TurnRegistry::Ids() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  out.reserve(turns_.size());
  for (const auto& [id, turn] : turns_) out.push_back(id);
  return out;
}

}  // namespace ensemble::server::assistant
