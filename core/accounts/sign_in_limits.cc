#include "core/accounts/sign_in_limits.h"

#include <algorithm>
#include <string>

namespace ensemble::core::accounts {

using store::Value;

namespace {

std::string KindName(Attempt kind) { return kind == Attempt::kSignUp ? "signup" : "failure"; }

// The wait `column` = `key` imposes: 0 below `limit` attempts of `kind` in
// the window, else until the oldest of them leaves it.
Result<int64_t> WaitFor(store::Database& db, Attempt kind, const char* column, std::string_view key,
                        int64_t limit, int64_t now_ms) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query(std::string("SELECT COUNT(*), MIN(at) FROM sign_in_attempts WHERE kind = $1 AND ") +
                   column + " = $2 AND at > $3",
               {Value(KindName(kind)), Value(std::string(key)), Value(now_ms - kSignInWindowMs)}));
  if (store::AsInt(rows.rows[0][0]) < limit) return int64_t{0};
  return std::max<int64_t>(1, store::AsInt(rows.rows[0][1]) + kSignInWindowMs - now_ms);
}

}  // namespace

const store::Migration kCreateSignInAttemptsTable = {
    32, "sign-in attempts",
    "CREATE TABLE sign_in_attempts (kind TEXT NOT NULL, email TEXT NOT NULL,"
    " address TEXT NOT NULL, at BIGINT NOT NULL);"
    "CREATE INDEX sign_in_attempts_address ON sign_in_attempts (address, kind, at);"
    "CREATE INDEX sign_in_attempts_email ON sign_in_attempts (email, kind, at);"};

Result<int64_t> WaitBeforeAttempt(store::Database& db, Attempt kind, std::string_view email,
                                  std::string_view address, int64_t now_ms) {
  if (kind == Attempt::kSignUp) {
    return WaitFor(db, kind, "address", address, kMaxSignUpsPerAddress, now_ms);
  }
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t by_address,
                            WaitFor(db, kind, "address", address, kMaxFailuresPerAddress, now_ms));
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t by_account,
                            WaitFor(db, kind, "email", email, kMaxFailuresPerAccount, now_ms));
  return std::max(by_address, by_account);
}

Status RecordAttempt(store::Database& db, Attempt kind, std::string_view email,
                     std::string_view address, int64_t now_ms) {
  ENSEMBLE_RETURN_IF_ERROR(
      db.Exec("DELETE FROM sign_in_attempts WHERE at <= $1", {Value(now_ms - kSignInWindowMs)}));
  return db.Exec("INSERT INTO sign_in_attempts (kind, email, address, at) VALUES ($1, $2, $3, $4)",
                 {Value(KindName(kind)), Value(std::string(email)), Value(std::string(address)),
                  Value(now_ms)});
}

}  // namespace ensemble::core::accounts
