// Password hashing for accounts: Argon2id (libsodium's crypto_pwhash_str with
// ARGON2ID13) at libsodium's "interactive" limits, about a tenth of a second
// and 64 MiB per hash, in libsodium's self-describing string form (algorithm,
// limits and salt travel with the hash, so the limits can rise later).
//
// A sign-in for an email no account has still pays for one verification
// (VerifyDummyPassword), so the two failures take the same time.
//
// Thread-safety: every function may run on any thread. Each call holds the
// memory limit for its duration: callers bound how many run at once.

#ifndef ENSEMBLE_SERVER_ACCOUNTS_PASSWORD_H_
#define ENSEMBLE_SERVER_ACCOUNTS_PASSWORD_H_

#include <string>
#include <string_view>

#include "core/base/status.h"

namespace ensemble::server::accounts {

// The hash of `password` with a new random salt; INTERNAL only when the
// machine cannot spare the memory.
core::Result<std::string> HashPassword(std::string_view password);

// True when `hash` (from HashPassword) is the hash of `password`.
bool VerifyPassword(std::string_view hash, std::string_view password);

// Verifies `password` against a hash no password matches, taking as long as
// VerifyPassword does; always false.
bool VerifyDummyPassword(std::string_view password);

}  // namespace ensemble::server::accounts

#endif  // ENSEMBLE_SERVER_ACCOUNTS_PASSWORD_H_
