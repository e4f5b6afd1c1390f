// Accounts and their sign-in sessions: the rules for what a person may type
// (email, password, name), the accounts and sessions tables, and plain row
// access. Hashing, tokens and cookies are the server's (server/accounts/):
// the core has no entropy and no crypto. A session row holds only a hash of
// its token, so a copy of the database signs nobody in.
//
// Thread-safety: stateless; as the Database given.

#ifndef ENSEMBLE_CORE_ACCOUNTS_ACCOUNT_H_
#define ENSEMBLE_CORE_ACCOUNTS_ACCOUNT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/store/migrations.h"

namespace ensemble::core::accounts {

// RFC 5321's limit on a forward path, the longest address that can be mailed.
inline constexpr size_t kMaxEmailChars = 254;
// NIST SP 800-63B: at least 8 characters; long passphrases are welcome, but
// hashing an unbounded input is a cheap way to load the server.
inline constexpr size_t kMinPasswordChars = 8;
inline constexpr size_t kMaxPasswordChars = 256;
inline constexpr size_t kMaxNameChars = 100;

// The accounts and sessions tables, in the hub's migration list.
extern const store::Migration kCreateAccountTables;

struct Account {
  std::string id;
  std::string email;  // Normalized (NormalizeEmail).
  std::string name;
  std::string password_hash;  // Argon2id, in libsodium's string form.
  int64_t created_at = 0;
};

// `email` trimmed and lower-cased (ASCII), or INVALID_ARGUMENT when it is not
// one plausible address (local@domain, no spaces, at most kMaxEmailChars).
Result<std::string> NormalizeEmail(std::string_view email);
// OK when `password` is valid UTF-8 of kMinPasswordChars..kMaxPasswordChars
// code points; the message never repeats the password.
Status CheckPassword(std::string_view password);
// `name` trimmed, or INVALID_ARGUMENT when empty, longer than kMaxNameChars
// code points, or holding control characters.
Result<std::string> NormalizeName(std::string_view name);

Result<int64_t> CountAccounts(store::Database& db);
// With sign-up for the first person only: true for exactly one caller ever,
// however many transactions race (a concurrent one waits on PostgreSQL for
// the first to end, then gets false; false when accounts already exist).
// Run it in the transaction that inserts the account.
Result<bool> ClaimFirstAccount(store::Database& db);
// ALREADY_EXISTS when the email is taken.
Status InsertAccount(store::Database& db, const Account& account);
Result<std::optional<Account>> FindAccountByEmail(store::Database& db, std::string_view email);
Result<std::optional<Account>> FindAccount(store::Database& db, std::string_view id);

struct Session {
  std::string token_hash;  // Hex of a hash of the token; never the token.
  std::string account_id;
  int64_t created_at = 0;
  int64_t expires_at = 0;  // Milliseconds since the epoch.
};

Status InsertSession(store::Database& db, const Session& session);
// The account of the session with `token_hash` if it has not expired at
// `now_ms`; an expired one is deleted on the way.
Result<std::optional<std::string>> SessionAccount(store::Database& db, std::string_view token_hash,
                                                  int64_t now_ms);
Status DeleteSession(store::Database& db, std::string_view token_hash);

}  // namespace ensemble::core::accounts

#endif  // ENSEMBLE_CORE_ACCOUNTS_ACCOUNT_H_
