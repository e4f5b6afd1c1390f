// Running turns: the assistant turns in progress on every server process
// that shares the store, so the activity endpoint and Stop work whichever
// process a request reaches (spec 000 §2). The process running a turn
// records it when the turn starts, refreshes a heartbeat while it runs and
// forgets it as the turn's reply is saved; a row whose heartbeat is older
// than kRunningTurnStaleMs belongs to a process that died and is ignored,
// then purged. The stop signal itself travels between processes outside the
// store (server/events/poke_channel.h).
//
// Thread-safety: stateless functions over the Database given.

#ifndef ENSEMBLE_CORE_ASSISTANT_RUNNING_TURNS_H_
#define ENSEMBLE_CORE_ASSISTANT_RUNNING_TURNS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/store/migrations.h"

namespace ensemble::core::assistant {

// A process refreshes its turns' heartbeat this often...
inline constexpr int64_t kRunningTurnHeartbeatMs = 10'000;
// ...so one not refreshed for this long (three missed beats and slack) is
// no longer running anywhere.
inline constexpr int64_t kRunningTurnStaleMs = 35'000;
// Turns listed for one account at most.
inline constexpr size_t kMaxRunningTurnsListed = 100;
// Turns one account may have running at once, on every process together:
// one person's chats and routines cannot take all of a server's model calls.
// The operator may change it (ENSEMBLE_MAX_TURNS_PER_ACCOUNT).
inline constexpr size_t kMaxConcurrentTurnsPerAccount = 3;

// The assistant_running_turns table.
extern const store::Migration kCreateRunningTurnsTable;
// The assistant_pauses table: the accounts whose assistant is paused.
extern const store::Migration kCreateAssistantPausesTable;

struct RunningTurnRow {
  std::string id;  // The reply message's id.
  std::string account_id;
  std::string conversation_id;
  std::string state;       // "working" or "stopping".
  int64_t started_at = 0;  // Milliseconds since the epoch.
  std::string owner;       // The server process running it.
};

// Records a turn that starts now, as working; LIMIT_REACHED when its
// account has `max_running` running already, ASSISTANT_PAUSED when the
// account paused its assistant.
Status RecordRunningTurn(store::Database& db, const RunningTurnRow& turn, int64_t now,
                         size_t max_running = kMaxConcurrentTurnsPerAccount);

// Forgets a turn that ended (nothing when it is not recorded).
Status ForgetRunningTurn(store::Database& db, std::string_view turn_id);

// Refreshes the heartbeat of `owner`'s turns `turn_ids` (the ones it still
// runs) and purges rows that went stale.
Status BeatRunningTurns(store::Database& db, std::string_view owner,
                        const std::vector<std::string>& turn_ids, int64_t now);

// The account's turns running anywhere, oldest first.
Result<std::vector<RunningTurnRow>> ListRunningTurns(store::Database& db,
                                                     std::string_view account_id, int64_t now);

// Marks the account's running turn stopping and returns it (its owner is
// the process to tell); NOT_FOUND when the account has no such turn running.
Result<RunningTurnRow> MarkTurnStopping(store::Database& db, std::string_view account_id,
                                        std::string_view turn_id, int64_t now);

// Pausing (spec 000 §2-§3): a paused account's assistant starts no turn (a
// chat message or a routine's run is refused with ASSISTANT_PAUSED) until it
// is resumed, on every process sharing the store.

// Pauses the account's assistant (again: nothing new) and marks its running
// turns stopping; answers those turns, so their processes can be told.
Result<std::vector<RunningTurnRow>> PauseAssistant(store::Database& db, std::string_view account_id,
                                                   int64_t now);

// Lets the account's assistant start turns again (nothing when not paused).
Status ResumeAssistant(store::Database& db, std::string_view account_id);

// When the account paused its assistant, in milliseconds since the epoch;
// nullopt when it is not paused.
Result<std::optional<int64_t>> AssistantPausedAt(store::Database& db, std::string_view account_id);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_RUNNING_TURNS_H_
