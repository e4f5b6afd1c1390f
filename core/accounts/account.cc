#include "core/accounts/account.h"

#include <string>

#include "core/text/utf8.h"

namespace ensemble::core::accounts {
namespace {

using store::Value;

constexpr std::string_view kAccountColumns = "id, email, name, password_hash, created_at";

Account FromRow(const std::vector<Value>& r) {
  Account a;
  a.id = store::AsText(r[0]);
  a.email = store::AsText(r[1]);
  a.name = store::AsText(r[2]);
  a.password_hash = store::AsText(r[3]);
  a.created_at = store::AsInt(r[4]);
  return a;
}

bool HasControl(std::string_view s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) return true;
  }
  return false;
}

Result<std::optional<Account>> FindBy(store::Database& db, std::string_view column,
                                      std::string_view value) {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            db.Query("SELECT " + std::string(kAccountColumns) +
                                         " FROM accounts WHERE " + std::string(column) + " = $1",
                                     {Value(std::string(value))}));
  if (rows.empty()) return std::optional<Account>();
  return std::optional<Account>(FromRow(rows.rows[0]));
}

}  // namespace

const store::Migration kCreateAccountTables = {
    10, "create accounts and sessions",
    "CREATE TABLE accounts ("
    " id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT NOT NULL,"
    " password_hash TEXT NOT NULL, created_at BIGINT NOT NULL);"
    "CREATE TABLE sessions ("
    " token_hash TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts (id),"
    " created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);"
    "CREATE INDEX sessions_account ON sessions (account_id);"};

Result<std::string> NormalizeEmail(std::string_view email) {
  std::string_view trimmed = text::Trim(email);
  auto bad = [](std::string why) { return Status(codes::kInvalidArgument, std::move(why)); };
  if (trimmed.empty()) return bad("email is required");
  if (trimmed.size() > kMaxEmailChars) {
    return bad("email must be at most " + std::to_string(kMaxEmailChars) + " characters");
  }
  size_t at = trimmed.find('@');
  if (at == std::string_view::npos || at == 0 || at + 1 == trimmed.size() ||
      trimmed.find('@', at + 1) != std::string_view::npos ||
      trimmed.find('.', at + 1) == std::string_view::npos) {
    return bad("email must be an address such as name@example.com");
  }
  std::string out;
  out.reserve(trimmed.size());
  for (unsigned char c : trimmed) {
    if (c <= 0x20 || c == 0x7f) return bad("email must not contain spaces or control characters");
    out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : static_cast<char>(c));
  }
  if (!text::IsValidUtf8(out)) return bad("email must be valid UTF-8");
  return out;
}

Status CheckPassword(std::string_view password) {
  if (!text::IsValidUtf8(password)) {
    return Status(codes::kInvalidArgument, "password must be valid UTF-8");
  }
  size_t n = text::CountCodePoints(password);
  if (n < kMinPasswordChars || n > kMaxPasswordChars) {
    return Status(codes::kInvalidArgument, "password must be " + std::to_string(kMinPasswordChars) +
                                               " to " + std::to_string(kMaxPasswordChars) +
                                               " characters");
  }
  return Status::Ok();
}

Result<std::string> NormalizeName(std::string_view name) {
  std::string_view trimmed = text::Trim(name);
  if (trimmed.empty()) return Status(codes::kInvalidArgument, "name is required");
  if (!text::IsValidUtf8(trimmed) || HasControl(trimmed)) {
    return Status(codes::kInvalidArgument, "name must be text without control characters");
  }
  if (text::CountCodePoints(trimmed) > kMaxNameChars) {
    return Status(codes::kInvalidArgument,
                  "name must be at most " + std::to_string(kMaxNameChars) + " characters");
  }
  return std::string(trimmed);
}

Result<int64_t> CountAccounts(store::Database& db) {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, db.Query("SELECT COUNT(*) FROM accounts"));
  return store::AsInt(rows.rows.at(0).at(0));
}

Result<bool> ClaimFirstAccount(store::Database& db) {
  // A key can be inserted once: the unique index is what orders the racers,
  // where two COUNT(*)s under read committed would both see zero.
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows claimed,
      db.Query("INSERT INTO sync_state (key, int_value) VALUES ('first_account_claimed', 1)"
               " ON CONFLICT (key) DO NOTHING RETURNING key"));
  if (claimed.empty()) return false;
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t count, CountAccounts(db));
  return count == 0;
}

Status InsertAccount(store::Database& db, const Account& a) {
  // Checked first so the answer is ALREADY_EXISTS rather than a constraint
  // failure (which PostgreSQL would also make abort the transaction).
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<Account> existing, FindAccountByEmail(db, a.email));
  if (existing) return Status(codes::kAlreadyExists, "an account with this email already exists");
  return db.Exec(
      "INSERT INTO accounts (" + std::string(kAccountColumns) + ") VALUES ($1, $2, $3, $4, $5)",
      {Value(a.id), Value(a.email), Value(a.name), Value(a.password_hash), Value(a.created_at)});
}

Result<std::optional<Account>> FindAccountByEmail(store::Database& db, std::string_view email) {
  return FindBy(db, "email", email);
}

Result<std::optional<Account>> FindAccount(store::Database& db, std::string_view id) {
  return FindBy(db, "id", id);
}

Status InsertSession(store::Database& db, const Session& s) {
  return db.Exec(
      "INSERT INTO sessions (token_hash, account_id, created_at, expires_at)"
      " VALUES ($1, $2, $3, $4)",
      {Value(s.token_hash), Value(s.account_id), Value(s.created_at), Value(s.expires_at)});
}

Result<std::optional<std::string>> SessionAccount(store::Database& db, std::string_view token_hash,
                                                  int64_t now_ms) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT account_id, expires_at FROM sessions WHERE token_hash = $1",
               {Value(std::string(token_hash))}));
  if (rows.empty()) return std::optional<std::string>();
  if (store::AsInt(rows.rows[0][1]) <= now_ms) {
    ENSEMBLE_RETURN_IF_ERROR(DeleteSession(db, token_hash));
    return std::optional<std::string>();
  }
  return std::optional<std::string>(store::AsText(rows.rows[0][0]));
}

Status DeleteSession(store::Database& db, std::string_view token_hash) {
  return db.Exec("DELETE FROM sessions WHERE token_hash = $1", {Value(std::string(token_hash))});
}

}  // namespace ensemble::core::accounts
