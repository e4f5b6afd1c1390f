// TurnRegistry: the assistant turns running on this server process, for the
// activity endpoint (spec 000 §2: working, queued, stopping and paused are
// kept distinct) and for Stop, which cancels a turn's model stream through
// its StopSignal.
//
// A turn is the account's own: another account's turn is answered as
// NOT_FOUND, like its conversations. This registry holds the turns of this
// process only; the store's running-turns table
// (core/assistant/running_turns.h) lists them for every process sharing it,
// and a Stop that reaches another process comes here through StopLocal.
//
// Thread-safety: every member function is safe from any thread.

#ifndef ENSEMBLE_SERVER_ASSISTANT_TURN_REGISTRY_H_
#define ENSEMBLE_SERVER_ASSISTANT_TURN_REGISTRY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "server/model/openai_client.h"

namespace ensemble::server::assistant {

// What a running turn is doing. kQueued and kPaused are not reached yet (a
// turn starts at once, and pausing the assistant stops its turns rather than
// holding them: core/assistant/running_turns.h) but are part of the
// contract; the activity endpoint shows the store's copy.
enum class TurnState { kWorking, kQueued, kStopping, kPaused };

struct RunningTurn {
  std::string id;  // The reply message's id.
  std::string account_id;
  std::string conversation_id;
  TurnState state = TurnState::kWorking;
  int64_t started_at = 0;  // Milliseconds since the epoch.
  std::shared_ptr<model::StopSignal> stop;
};

class TurnRegistry {
 public:
  void Add(RunningTurn turn);
  void Remove(const std::string& turn_id);
  // Marks the account's turn stopping and stops it; NOT_FOUND when there is
  // no such running turn of the account's.
  core::Status Stop(std::string_view account_id, const std::string& turn_id);
  // Stops the turn whatever its account (the process that asked checked
  // it); false when this process runs no such turn.
  bool StopLocal(const std::string& turn_id);
  // Stops every turn of the account this process runs (a Pause); answers
  // how many.
  size_t StopAccount(std::string_view account_id);
  // Every running turn's id.
  std::vector<std::string> Ids() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, RunningTurn> turns_;  // Guarded by mu_.
};

}  // namespace ensemble::server::assistant

#endif  // ENSEMBLE_SERVER_ASSISTANT_TURN_REGISTRY_H_
