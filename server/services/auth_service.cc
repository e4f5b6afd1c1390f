#include "server/services/auth_service.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <functional>
#include <optional>

#include "core/accounts/account.h"
#include "core/base/id.h"
#include "core/spaces/space_admin.h"
#include "core/sync/authorization.h"
#include "server/accounts/password.h"
#include "server/accounts/session_token.h"
#include "server/http/json_response.h"
#include "server/services/json_body.h"
#include "server/services/json_route.h"

namespace ensemble::server::services {
namespace {

namespace net = boost::asio;
namespace bhttp = boost::beast::http;
namespace codes = core::codes;
using core::Result;
using core::Status;
using core::platform::LogLevel;
using nlohmann::json;

constexpr char kAccountsOff[] =
    "accounts are off on this server (single-person local mode; ENSEMBLE_ACCOUNTS=on enables "
    "them)";
// The one answer to a wrong password and to an unknown email.
constexpr char kBadCredentialsMessage[] = "the email or password is not right";

// {account: {id, email, name}, spaces: [{id, name, role}]} for `account_id`;
// UNAUTHENTICATED when the account is gone.
Result<json> AccountJson(core::store::Database& db, const std::string& account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<core::accounts::Account> account,
                            core::accounts::FindAccount(db, account_id));
  if (!account) return Status(codes::kUnauthenticated, "this account no longer exists");
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<core::spaces::SpaceInfo> list,
                            core::spaces::SpacesOf(db, account_id));
  json spaces = json::array();
  for (const core::spaces::SpaceInfo& s : list) {
    spaces.push_back({{"id", s.id}, {"name", s.name}, {"role", core::sync::RoleName(s.role)}});
  }
  return json{
      {"mode", "accounts"},
      {"account", {{"id", account->id}, {"email", account->email}, {"name", account->name}}},
      {"spaces", std::move(spaces)}};
}

// Run on the hash pool by co_spawn. Plain functions with by-value
// parameters, so everything they use lives in their own frames.
net::awaitable<AuthService::HashOutcome> HashOnPool(std::string password);
net::awaitable<bool> VerifyOnPool(std::string hash, std::string password) {
  // No account: the same work against a hash nobody matches.
  co_return hash.empty() ? accounts::VerifyDummyPassword(password)
                         : accounts::VerifyPassword(hash, password);
}

}  // namespace

AuthService::AuthService(store::StorePool& pool, core::platform::Env env, const Config& config)
    : pool_(pool),
      env_(env),
      accounts_(config.accounts),
      open_signup_(config.open_signup),
      secure_cookies_(config.secure_cookies) {}

AuthService::~AuthService() { hash_pool_.join(); }

namespace {

net::awaitable<AuthService::HashOutcome> HashOnPool(std::string password) {
  AuthService::HashOutcome out;
  Result<std::string> hash = accounts::HashPassword(password);
  if (hash.ok()) {
    out.hash = std::move(*hash);
  } else {
    out.status = hash.status();
  }
  co_return out;
}

}  // namespace

http::StringResponse AuthService::Failure(const Status& status, std::string_view route) {
  return FailureResponse(status, route, *env_.logger);
}

net::awaitable<AuthService::HashOutcome> AuthService::Hash(std::string password) {
  co_return co_await net::co_spawn(hash_pool_, HashOnPool(std::move(password)), net::use_awaitable);
}

net::awaitable<bool> AuthService::Verify(std::string hash, std::string password) {
  co_return co_await net::co_spawn(hash_pool_, VerifyOnPool(std::move(hash), std::move(password)),
                                   net::use_awaitable);
}

bool AuthService::TakeHashSlot() {
  if (hashes_queued_.fetch_add(1) < kMaxQueuedPasswordHashes) return true;
  ReleaseHashSlot();
  return false;
}

net::awaitable<Result<int64_t>> AuthService::WaitBefore(core::accounts::Attempt kind,
                                                        const std::string& email,
                                                        const std::string& peer) {
  const int64_t now = env_.clock->NowMillis();
  co_return co_await pool_.Run([&](core::store::Database& db) {
    return core::accounts::WaitBeforeAttempt(db, kind, email, peer, now);
  });
}

net::awaitable<void> AuthService::Count(core::accounts::Attempt kind, const std::string& email,
                                        const std::string& peer) {
  const int64_t now = env_.clock->NowMillis();
  Status st = co_await pool_.Run([&](core::store::Database& db) {
    return core::accounts::RecordAttempt(db, kind, email, peer, now);
  });
  if (!st.ok()) env_.logger->Log(LogLevel::kWarning, "sign-in limits: " + st.ToString());
}

namespace {

// TOO_MANY_ATTEMPTS, with the wait in Retry-After.
Status TooManyAttempts(RouteCall& call, int64_t wait_ms, std::string_view what) {
  const int64_t seconds = (wait_ms + 999) / 1000;
  const int64_t minutes = (seconds + 59) / 60;
  call.headers.emplace_back(bhttp::field::retry_after, std::to_string(seconds));
  return Status(http::codes::kTooManyAttempts,
                "too many " + std::string(what) + " from here: try again in " +
                    (minutes > 1 ? std::to_string(minutes) + " minutes" : std::string("a minute")));
}

Status Busy(RouteCall& call) {
  call.headers.emplace_back(bhttp::field::retry_after, std::to_string(kBusyRetryAfterSeconds));
  return Status(http::codes::kServerBusy,
                "the server is busy checking passwords: try again in a moment");
}

// Gives the hashing queue's place back however the handler ends.
class HashSlot {
 public:
  explicit HashSlot(std::function<void()> release) : release_(std::move(release)) {}
  ~HashSlot() { release_(); }
  HashSlot(const HashSlot&) = delete;
  HashSlot& operator=(const HashSlot&) = delete;

 private:
  std::function<void()> release_;
};

}  // namespace

net::awaitable<Result<json>> AuthService::SignedIn(RouteCall& call, const std::string& account_id,
                                                   const std::string& token) {
  ENSEMBLE_CO_ASSIGN_OR_RETURN(json body,
                               co_await pool_.Run([&account_id](core::store::Database& db) {
                                 return AccountJson(db, account_id);
                               }));
  call.headers.emplace_back(bhttp::field::set_cookie,
                            accounts::SessionCookie(token, secure_cookies_));
  co_return body;
}

net::awaitable<Result<json>> AuthService::Signup(RouteCall& call) {
  if (!accounts_) co_return Status(codes::kNotFound, kAccountsOff);
  ENSEMBLE_CO_ASSIGN_OR_RETURN(json body, call.ObjectBody({"email", "password", "name"}));
  std::string email, password, name;
  for (auto [key, out] :
       {std::pair{"email", &email}, std::pair{"password", &password}, std::pair{"name", &name}}) {
    ENSEMBLE_CO_RETURN_IF_ERROR(kBodyFields.ReadText(body, key, "", {}, out));
  }
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string normalized_email, core::accounts::NormalizeEmail(email));
  ENSEMBLE_CO_RETURN_IF_ERROR(core::accounts::CheckPassword(password));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string normalized_name, core::accounts::NormalizeName(name));

  const Status closed(codes::kForbidden,
                      "sign-up is closed on this server: it has its account already (the "
                      "operator can set ENSEMBLE_SIGNUP=open)");
  if (!open_signup_) {
    // Before hashing, so a closed server spends nothing on strangers.
    ENSEMBLE_CO_ASSIGN_OR_RETURN(int64_t count, co_await pool_.Run([](core::store::Database& db) {
      return core::accounts::CountAccounts(db);
    }));
    if (count > 0) co_return closed;
  }
  const std::string& peer = call.target.peer;
  ENSEMBLE_CO_ASSIGN_OR_RETURN(int64_t wait,
                               co_await WaitBefore(core::accounts::Attempt::kSignUp, "", peer));
  if (wait > 0) co_return TooManyAttempts(call, wait, "sign-ups");
  if (!TakeHashSlot()) co_return Busy(call);
  HashSlot slot([this] { ReleaseHashSlot(); });
  co_await Count(core::accounts::Attempt::kSignUp, "", peer);
  HashOutcome hash = co_await Hash(password);
  ENSEMBLE_CO_RETURN_IF_ERROR(hash.status);

  core::accounts::Account account;
  account.id = core::NewId(*env_.clock, *env_.random);
  account.email = std::move(normalized_email);
  account.name = std::move(normalized_name);
  account.password_hash = std::move(hash.hash);
  account.created_at = env_.clock->NowMillis();
  const std::string space_id = core::NewId(*env_.clock, *env_.random);
  accounts::NewToken token = accounts::NewSessionToken();
  const int64_t expires_at =
      account.created_at +
      std::chrono::duration_cast<std::chrono::milliseconds>(accounts::kSessionLifetime).count();

  ENSEMBLE_CO_RETURN_IF_ERROR(
      co_await pool_.RunInTransaction([&](core::store::Database& db) -> Status {
        if (!open_signup_) {
          // Again inside the transaction: two first sign-ups may have raced.
          ENSEMBLE_ASSIGN_OR_RETURN(bool first, core::accounts::ClaimFirstAccount(db));
          if (!first) return closed;
        }
        ENSEMBLE_RETURN_IF_ERROR(core::accounts::InsertAccount(db, account));
        ENSEMBLE_RETURN_IF_ERROR(
            core::sync::SetMember(db, space_id, account.id, core::sync::Role::kOwner));
        return core::accounts::InsertSession(
            db, {token.hash, account.id, account.created_at, expires_at});
      }));
  env_.logger->Log(LogLevel::kInfo, "signup: account " + account.id);
  call.status = bhttp::status::created;
  co_return co_await SignedIn(call, account.id, token.token);
}

net::awaitable<Result<json>> AuthService::Login(RouteCall& call) {
  if (!accounts_) co_return Status(codes::kNotFound, kAccountsOff);
  ENSEMBLE_CO_ASSIGN_OR_RETURN(json body, call.ObjectBody({"email", "password"}));
  std::string email, password;
  for (auto [key, out] : {std::pair{"email", &email}, std::pair{"password", &password}}) {
    ENSEMBLE_CO_RETURN_IF_ERROR(kBodyFields.ReadText(body, key, "", {}, out));
  }
  const Status refused(codes::kBadCredentials, kBadCredentialsMessage);
  // Longer than any accepted password (4 bytes a character at most): refused
  // before hashing, whoever it is for.
  if (password.size() > core::accounts::kMaxPasswordChars * 4) co_return refused;
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string normalized, core::accounts::NormalizeEmail(email));
  const std::string& peer = call.target.peer;
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      int64_t wait, co_await WaitBefore(core::accounts::Attempt::kFailedSignIn, normalized, peer));
  if (wait > 0) co_return TooManyAttempts(call, wait, "failed sign-ins");
  if (!TakeHashSlot()) co_return Busy(call);
  HashSlot slot([this] { ReleaseHashSlot(); });

  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::optional<core::accounts::Account> found,
                               co_await pool_.Run([&normalized](core::store::Database& db) {
                                 return core::accounts::FindAccountByEmail(db, normalized);
                               }));
  // An unknown email takes the same path, against a dummy hash.
  const std::string stored_hash = found ? found->password_hash : std::string();
  const bool ok = co_await Verify(stored_hash, password);
  if (!ok || !found) {
    env_.logger->Log(LogLevel::kInfo, "login refused");
    co_await Count(core::accounts::Attempt::kFailedSignIn, normalized, peer);
    co_return refused;
  }

  const std::string account_id = found->id;
  accounts::NewToken token = accounts::NewSessionToken();
  const int64_t now = env_.clock->NowMillis();
  const int64_t expires_at =
      now +
      std::chrono::duration_cast<std::chrono::milliseconds>(accounts::kSessionLifetime).count();
  ENSEMBLE_CO_RETURN_IF_ERROR(co_await pool_.Run([&](core::store::Database& db) {
    return core::accounts::InsertSession(db, {token.hash, account_id, now, expires_at});
  }));
  env_.logger->Log(LogLevel::kInfo, "login: account " + account_id);
  co_return co_await SignedIn(call, account_id, token.token);
}

net::awaitable<Result<json>> AuthService::Logout(RouteCall& call) {
  if (!accounts_) co_return Status(codes::kNotFound, kAccountsOff);
  if (std::optional<std::string> token =
          accounts::SessionTokenFrom(call.request[bhttp::field::cookie], secure_cookies_)) {
    const std::string hash = accounts::HashSessionToken(*token);
    ENSEMBLE_CO_RETURN_IF_ERROR(co_await pool_.Run(
        [&hash](core::store::Database& db) { return core::accounts::DeleteSession(db, hash); }));
  }
  // Signing out twice, or without a session, ends in the same place.
  call.headers.emplace_back(bhttp::field::set_cookie,
                            accounts::ClearedSessionCookie(secure_cookies_));
  co_return json{{"ok", true}};
}

net::awaitable<Result<json>> AuthService::Me(RouteCall& call) {
  if (!accounts_) co_return json{{"mode", "local"}, {"account", {{"id", kLocalAccountId}}}};
  ENSEMBLE_CO_ASSIGN_OR_RETURN(Caller caller, co_await Authenticate(call.request));
  co_return co_await pool_.Run(
      [&caller](core::store::Database& db) { return AccountJson(db, caller.account_id); });
}

net::awaitable<Result<Caller>> AuthService::Authenticate(const http::Request& request) {
  if (!accounts_) co_return Caller{kLocalAccountId, true};
  std::optional<std::string> token =
      accounts::SessionTokenFrom(request[bhttp::field::cookie], secure_cookies_);
  if (!token) co_return Status(codes::kUnauthenticated, "sign in first");
  const std::string hash = accounts::HashSessionToken(*token);
  const int64_t now = env_.clock->NowMillis();
  Result<std::optional<std::string>> account =
      co_await pool_.Run([&hash, now](core::store::Database& db) {
        return core::accounts::SessionAccount(db, hash, now);
      });
  if (!account.ok()) co_return account.status();
  if (!*account) co_return Status(codes::kUnauthenticated, "your session has ended; sign in again");
  co_return Caller{std::move(**account), false};
}

}  // namespace ensemble::server::services
