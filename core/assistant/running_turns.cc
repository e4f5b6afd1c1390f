#include "core/assistant/running_turns.h"

namespace ensemble::core::assistant {

using store::AsInt;
using store::AsText;
using store::Value;

// The version is assigned in the hub's list (core/hub/hub.cc), append only.
const store::Migration kCreateRunningTurnsTable = {
    20, "running assistant turns",
    "CREATE TABLE assistant_running_turns ("
    " id TEXT PRIMARY KEY, account_id TEXT NOT NULL, conversation_id TEXT NOT NULL,"
    " state TEXT NOT NULL, started_at BIGINT NOT NULL, owner TEXT NOT NULL,"
    " heartbeat_at BIGINT NOT NULL);"
    "CREATE INDEX assistant_running_turns_account ON assistant_running_turns (account_id);"};

const store::Migration kCreateAssistantPausesTable = {
    34, "paused assistants",
    "CREATE TABLE assistant_pauses (account_id TEXT PRIMARY KEY, paused_at BIGINT NOT NULL);"};

namespace {

constexpr char kRunningTurnColumns[] = "id, account_id, conversation_id, state, started_at, owner";

RunningTurnRow RunningTurnOf(const std::vector<Value>& row) {
  return {AsText(row[0]), AsText(row[1]), AsText(row[2]),
          AsText(row[3]), AsInt(row[4]),  AsText(row[5])};
}

}  // namespace

Status RecordRunningTurn(store::Database& db, const RunningTurnRow& turn, int64_t now,
                         size_t max_running) {
  // Read in the transaction that records the turn: a Pause that commits
  // first refuses it, one that commits after finds it and stops it.
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<int64_t> paused, AssistantPausedAt(db, turn.account_id));
  if (paused) {
    return Status(codes::kAssistantPaused, "The assistant is paused: resume it to start new work");
  }
  // Counted, not listed: a limit may be set past what a list shows.
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows running,
                            db.Query("SELECT COUNT(*) FROM assistant_running_turns"
                                     " WHERE account_id = $1 AND heartbeat_at >= $2",
                                     {turn.account_id, now - kRunningTurnStaleMs}));
  if (static_cast<uint64_t>(AsInt(running.rows[0][0])) >= max_running) {
    return Status(codes::kLimitReached,
                  std::to_string(max_running) +
                      " assistant turns are running for you already: wait for one to finish, or "
                      "stop one");
  }
  return db.Exec(
      "INSERT INTO assistant_running_turns"
      " (id, account_id, conversation_id, state, started_at, owner, heartbeat_at)"
      " VALUES ($1, $2, $3, 'working', $4, $5, $6)",
      {turn.id, turn.account_id, turn.conversation_id, turn.started_at, turn.owner, now});
}

Status ForgetRunningTurn(store::Database& db, std::string_view turn_id) {
  return db.ExecDeferred("DELETE FROM assistant_running_turns WHERE id = $1",
                         {std::string(turn_id)});
}

Status BeatRunningTurns(store::Database& db, std::string_view owner,
                        const std::vector<std::string>& turn_ids, int64_t now) {
  if (!turn_ids.empty()) {
    std::string in;
    std::vector<Value> params = {now, std::string(owner)};
    for (const std::string& id : turn_ids) {
      params.emplace_back(id);
      in += (in.empty() ? "$" : ", $") + std::to_string(params.size());
    }
    ENSEMBLE_RETURN_IF_ERROR(
        db.Exec("UPDATE assistant_running_turns SET heartbeat_at = $1"
                " WHERE owner = $2 AND id IN (" +
                    in + ")",
                params));
  }
  return db.Exec("DELETE FROM assistant_running_turns WHERE heartbeat_at < $1",
                 {now - kRunningTurnStaleMs});
}

Result<std::vector<RunningTurnRow>> ListRunningTurns(store::Database& db,
                                                     std::string_view account_id, int64_t now) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query(std::string("SELECT ") + kRunningTurnColumns +
                   " FROM assistant_running_turns WHERE account_id = $1 AND heartbeat_at >= $2"
                   " ORDER BY started_at, id LIMIT $3",
               {std::string(account_id), now - kRunningTurnStaleMs,
                static_cast<int64_t>(kMaxRunningTurnsListed)}));
  std::vector<RunningTurnRow> out;
  out.reserve(rows.size());
  for (const auto& row : rows.rows) out.push_back(RunningTurnOf(row));
  return out;
}

Result<RunningTurnRow> MarkTurnStopping(store::Database& db, std::string_view account_id,
                                        std::string_view turn_id, int64_t now) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query(std::string("UPDATE assistant_running_turns SET state = 'stopping'"
                           " WHERE id = $1 AND account_id = $2 AND heartbeat_at >= $3"
                           " RETURNING ") +
                   kRunningTurnColumns,
               {std::string(turn_id), std::string(account_id), now - kRunningTurnStaleMs}));
  if (rows.empty()) return Status(codes::kNotFound, "no running turn with this id");
  return RunningTurnOf(rows.rows[0]);
}

Result<std::vector<RunningTurnRow>> PauseAssistant(store::Database& db, std::string_view account_id,
                                                   int64_t now) {
  // The first pause's time stays: pausing twice is not a new pause.
  ENSEMBLE_RETURN_IF_ERROR(
      db.Exec("INSERT INTO assistant_pauses (account_id, paused_at) VALUES ($1, $2)"
              " ON CONFLICT (account_id) DO NOTHING",
              {std::string(account_id), now}));
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query(std::string("UPDATE assistant_running_turns SET state = 'stopping'"
                           " WHERE account_id = $1 AND heartbeat_at >= $2 RETURNING ") +
                   kRunningTurnColumns,
               {std::string(account_id), now - kRunningTurnStaleMs}));
  std::vector<RunningTurnRow> out;
  out.reserve(rows.size());
  for (const auto& row : rows.rows) out.push_back(RunningTurnOf(row));
  return out;
}

Status ResumeAssistant(store::Database& db, std::string_view account_id) {
  return db.Exec("DELETE FROM assistant_pauses WHERE account_id = $1", {std::string(account_id)});
}

Result<std::optional<int64_t>> AssistantPausedAt(store::Database& db, std::string_view account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            db.Query("SELECT paused_at FROM assistant_pauses WHERE account_id = $1",
                                     {std::string(account_id)}));
  if (rows.empty()) return std::optional<int64_t>();
  return std::optional<int64_t>(AsInt(rows.rows[0][0]));
}

}  // namespace ensemble::core::assistant
