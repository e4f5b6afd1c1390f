// Sign-in limits (issue 27): failed sign-ins and sign-ups are counted in the
// store, so every server process on one database counts them together, and
// past a limit the answer is a wait instead of another password check.
//
//   per address  kMaxFailuresPerAddress failed sign-ins (to any accounts)
//                and kMaxSignUpsPerAddress sign-ups in kSignInWindowMs;
//   per account  kMaxFailuresPerAccount failed sign-ins in the window, from
//                anywhere. It is higher than the address's on purpose: a
//                flood from one address stops at that address's limit, so it
//                never locks the account's owner out; only failures from
//                many addresses at once reach it.
//
// The wait is until the oldest counted attempt leaves the window, so a
// client that keeps trying waits the whole window out (the backoff).
//
// Thread-safety: stateless functions over the Database given.

#ifndef ENSEMBLE_CORE_ACCOUNTS_SIGN_IN_LIMITS_H_
#define ENSEMBLE_CORE_ACCOUNTS_SIGN_IN_LIMITS_H_

#include <cstdint>
#include <string_view>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/store/migrations.h"

namespace ensemble::core::accounts {

inline constexpr int64_t kSignInWindowMs = 15 * 60 * 1000;
inline constexpr int64_t kMaxFailuresPerAddress = 10;
inline constexpr int64_t kMaxFailuresPerAccount = 50;
inline constexpr int64_t kMaxSignUpsPerAddress = 20;

// Migration 32: sign_in_attempts.
extern const store::Migration kCreateSignInAttemptsTable;

enum class Attempt { kFailedSignIn, kSignUp };

// 0 when `address` may try now: to sign in as `email` (kFailedSignIn: the
// limits of failures) or to sign up (kSignUp); otherwise the milliseconds to
// wait.
Result<int64_t> WaitBeforeAttempt(store::Database& db, Attempt kind, std::string_view email,
                                  std::string_view address, int64_t now_ms);

// Counts an attempt of `kind` at `now_ms` (a sign-in that failed, or a
// sign-up), and forgets those older than the window.
Status RecordAttempt(store::Database& db, Attempt kind, std::string_view email,
                     std::string_view address, int64_t now_ms);

}  // namespace ensemble::core::accounts

#endif  // ENSEMBLE_CORE_ACCOUNTS_SIGN_IN_LIMITS_H_
