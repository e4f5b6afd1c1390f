#include "core/routines/routine_runs.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/accounts/account_settings.h"
#include "core/routines/routine_schedule.h"

namespace ensemble::core::routines {

using store::AsInt;
using store::AsText;
using store::IsNull;
using store::Value;

// The version is assigned in the hub's list (core/hub/hub.cc), append only.
const store::Migration kCreateRoutineRunsTable = {
    21, "routine runs",
    "CREATE TABLE routine_runs ("
    " routine_id TEXT PRIMARY KEY, last_run_at BIGINT NOT NULL,"
    " conversation_id TEXT NOT NULL DEFAULT '');"};

namespace {

// Takes the run due after `last_run_at` (null: none yet); false when
// another process took it first.
Result<bool> Claim(store::Database& db, const std::string& routine_id, const Value& last_run_at,
                   int64_t now) {
  store::Rows rows;
  if (IsNull(last_run_at)) {
    ENSEMBLE_ASSIGN_OR_RETURN(
        rows, db.Query("INSERT INTO routine_runs (routine_id, last_run_at) VALUES ($1, $2)"
                       " ON CONFLICT (routine_id) DO NOTHING RETURNING routine_id",
                       {routine_id, now}));
  } else {
    ENSEMBLE_ASSIGN_OR_RETURN(
        rows, db.Query("UPDATE routine_runs SET last_run_at = $1"
                       " WHERE routine_id = $2 AND last_run_at = $3 RETURNING routine_id",
                       {now, routine_id, last_run_at}));
  }
  return !rows.empty();
}

}  // namespace

Result<std::vector<RoutineRun>> ClaimDueRoutines(store::Database& db, int64_t now,
                                                 std::string_view local_account,
                                                 std::vector<std::string>* stalled) {
  // Column 8: the author while they own the space, else null.
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT r.id, r.space_id, r.title, r.instruction, r.schedule, r.created_at,"
               " rr.last_run_at, rr.conversation_id,"
               " (SELECT m.account_id FROM space_members m"
               "  WHERE m.space_id = r.space_id AND m.account_id = r.author"
               "  AND m.role = 'owner'),"
               " r.updated_at"
               " FROM routines r LEFT JOIN routine_runs rr ON rr.routine_id = r.id"
               " WHERE r.deleted = 0 AND r.paused = 0"));
  std::vector<RoutineRun> due;
  std::vector<Value> last_runs;
  for (const auto& row : rows.rows) {
    RoutineRun run;
    run.routine_id = AsText(row[0]);
    run.space_id = AsText(row[1]);
    run.title = AsText(row[2]);
    run.instruction = AsText(row[3]);
    run.account_id = !local_account.empty() ? std::string(local_account)
                     : IsNull(row[8])       ? std::string()
                                            : AsText(row[8]);
    const nlohmann::json schedule =
        nlohmann::json::parse(AsText(row[4]), nullptr, /*allow_exceptions=*/false);
    // A stalled routine has nobody's zone: it is due by UTC, as a reminder
    // that it waits for an owner.
    accounts::AccountSettings settings;
    if (!run.account_id.empty()) {
      ENSEMBLE_ASSIGN_OR_RETURN(settings, accounts::GetAccountSettings(db, run.account_id));
    }
    // A change (a resume, a new schedule) starts the routine afresh: a time
    // that passed while it was paused is not made up for.
    const int64_t since = std::max(IsNull(row[6]) ? AsInt(row[5]) : AsInt(row[6]), AsInt(row[9]));
    Result<int64_t> next = NextRunAfter(schedule, settings.general.time_zone, since);
    if (!next.ok() || *next > now) continue;  // A schedule the record refused never runs.
    if (run.account_id.empty()) {
      if (stalled) stalled->push_back(run.routine_id);
      continue;
    }
    run.due_at = *next;
    run.conversation_id = AsText(row[7]);
    due.push_back(std::move(run));
    last_runs.push_back(row[6]);
  }
  std::vector<size_t> order(due.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return due[a].due_at != due[b].due_at ? due[a].due_at < due[b].due_at
                                          : due[a].routine_id < due[b].routine_id;
  });
  std::vector<RoutineRun> claimed;
  for (size_t i : order) {
    if (claimed.size() == kMaxRoutineRunsPerCheck) break;
    ENSEMBLE_ASSIGN_OR_RETURN(bool mine, Claim(db, due[i].routine_id, last_runs[i], now));
    if (mine) claimed.push_back(std::move(due[i]));
  }
  return claimed;
}

Status SetRoutineConversation(store::Database& db, std::string_view routine_id,
                              std::string_view conversation_id) {
  return db.Exec("UPDATE routine_runs SET conversation_id = $1 WHERE routine_id = $2",
                 {std::string(conversation_id), std::string(routine_id)});
}

}  // namespace ensemble::core::routines
