// Routine runs: which routines are due, claimed so exactly one server
// process runs each scheduled time, and the conversation each routine's
// replies are kept in (spec 003: "Routine runs use the account's default
// assistant model and keep their replies in one conversation").
//
// A routine runs as its author (routine.h), at the times its schedule names
// in the author's time zone (routine_schedule.h), and only while the author
// still owns the space: otherwise it is stalled, for the server to pause
// where its owners see it, and never runs as anyone else. A run that was missed (no
// server running at the time) happens once when a server next checks, not
// once per missed time. The bookkeeping table is the server's: it is not
// synced.
//
// Thread-safety: stateless functions over the Database given.

#ifndef ENSEMBLE_CORE_ROUTINES_ROUTINE_RUNS_H_
#define ENSEMBLE_CORE_ROUTINES_ROUTINE_RUNS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/store/migrations.h"

namespace ensemble::core::routines {

// How often a server looks for routines that fell due: a routine runs
// within this long of its time.
inline constexpr int64_t kRoutineCheckIntervalMs = 60'000;
// A check claims at most this many runs; the rest wait for the next check,
// so a backlog does not start every turn at once.
inline constexpr size_t kMaxRoutineRunsPerCheck = 20;

// The routine_runs table.
extern const store::Migration kCreateRoutineRunsTable;

struct RoutineRun {
  std::string routine_id;
  std::string space_id;
  std::string account_id;  // Who it runs as: its author.
  std::string title;
  std::string instruction;
  std::string conversation_id;  // Its replies' conversation; empty before the first run.
  int64_t due_at = 0;           // The scheduled time this run is for.
};

// Claims the routines due at `now` (live, not paused, their next run after
// the last one, their creation or their last change, whichever is latest,
// at or before `now`) and returns
// them, oldest due first. A claim is one conditional write, so of several
// processes checking at once exactly one gets each run. With a
// `local_account` (the server's local mode, one trusted person) every
// routine runs as it; otherwise a due routine whose author is gone (not an
// owner of its space now, or none recorded) is not claimed but listed in
// `*stalled` (when given).
Result<std::vector<RoutineRun>> ClaimDueRoutines(store::Database& db, int64_t now,
                                                 std::string_view local_account,
                                                 std::vector<std::string>* stalled = nullptr);

// Remembers the conversation a routine's replies go to.
Status SetRoutineConversation(store::Database& db, std::string_view routine_id,
                              std::string_view conversation_id);

}  // namespace ensemble::core::routines

#endif  // ENSEMBLE_CORE_ROUTINES_ROUTINE_RUNS_H_
