// AuthService: who is calling. In local mode (the default) everyone reaching
// the server is the one local person (kLocalAccountId), trusted with every
// space. In accounts mode (Config::accounts) people sign up and sign in:
//   POST /api/auth/signup {email, password, name} -> 201 {account, spaces}
//   POST /api/auth/login  {email, password}       -> 200 {account, spaces}
//   POST /api/auth/logout                         -> 200, session deleted
//   GET  /api/auth/me                             -> {mode, account, spaces}
// Signup and login set the session cookie (server/accounts/session_token.h).
// A new account gets a space of its own, as its owner. Sign-up is open to the
// first account only unless Config::open_signup (ENSEMBLE_SIGNUP=open).
//
// Errors: INVALID_ARGUMENT (bad email, password or name), ALREADY_EXISTS
// (signup with a taken email), FORBIDDEN (sign-up closed), BAD_CREDENTIALS
// (login with a wrong password or an unknown email: the same code, message
// and work, so it does not reveal which), UNAUTHENTICATED (no session), and
// NOT_FOUND for signup and login in local mode.
//
// Passwords are hashed on a small pool of their own (each hash holds 64 MiB),
// never on the io thread or a store worker. Passwords and tokens are never
// logged.
//
// Thread-safety: the handlers and Authenticate may run concurrently.

#ifndef ENSEMBLE_SERVER_SERVICES_AUTH_SERVICE_H_
#define ENSEMBLE_SERVER_SERVICES_AUTH_SERVICE_H_

#include "server/boost_prelude.h"

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/thread_pool.hpp>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "core/accounts/sign_in_limits.h"
#include "core/base/status.h"
#include "core/platform/env.h"
#include "server/config.h"
#include "server/http/message.h"
#include "server/http/url.h"
#include "server/store/store_pool.h"

namespace ensemble::server::services {

// The account id of the one person in local mode (settings are saved under it).
inline constexpr char kLocalAccountId[] = "local";
// Password hashes computed at once; each takes 64 MiB while it runs.
inline constexpr size_t kPasswordHashThreads = 2;
// Password checks waiting or running at once; a sign-in or sign-up past it
// gets 503 SERVER_BUSY with Retry-After, so a flood queues no more work than
// the threads clear in a moment.
inline constexpr size_t kMaxQueuedPasswordHashes = 16;
// The Retry-After of that 503, in seconds.
inline constexpr int kBusyRetryAfterSeconds = 1;

struct RouteCall;  // server/services/json_route.h

// The account a request acts as.
struct Caller {
  std::string account_id;
  bool local = false;  // Local mode: trusted with every space.
};

// The caller of a route open to anyone (signing in): no account.
inline const Caller kNobody{};

class AuthService {
 public:
  // `pool` and the Env's members must outlive the service.
  AuthService(store::StorePool& pool, core::platform::Env env, const Config& config);
  ~AuthService();

  bool accounts_enabled() const { return accounts_; }

  // The auth routes, JSON routes open to anyone (App::AddOpenJson): signup
  // and login answer with the session cookie, logout with its removal.
  boost::asio::awaitable<core::Result<nlohmann::json>> Signup(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Login(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Logout(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Me(RouteCall& call);

  // In local mode the local Caller, at once; in accounts mode the account of
  // the request's unexpired session, or UNAUTHENTICATED.
  boost::asio::awaitable<core::Result<Caller>> Authenticate(const http::Request& request);

  // The error response for `status` (internal details logged, not sent).
  http::StringResponse Failure(const core::Status& status, std::string_view route);

  // A password hash made off the io thread; a struct, not a Result, since
  // asio's completion values must be default-constructible.
  struct HashOutcome {
    core::Status status;
    std::string hash;
  };

  // Waits for password hashing in flight. Its results are handed to the
  // io_context, so the owner calls this before destroying that.
  void WaitForHashes() { hash_pool_.join(); }

 private:
  boost::asio::awaitable<HashOutcome> Hash(std::string password);
  boost::asio::awaitable<bool> Verify(std::string hash, std::string password);
  // Takes a place in the hashing queue; false when it is full.
  bool TakeHashSlot();
  void ReleaseHashSlot() { hashes_queued_.fetch_sub(1); }
  // The wait (0: none) the sign-in limits impose on `kind` from `peer`.
  boost::asio::awaitable<core::Result<int64_t>> WaitBefore(core::accounts::Attempt kind,
                                                           const std::string& email,
                                                           const std::string& peer);
  // Counts an attempt for the limits; a failure to count is logged only.
  boost::asio::awaitable<void> Count(core::accounts::Attempt kind, const std::string& email,
                                     const std::string& peer);
  // {account, spaces} of the account a signup or login made session `token`
  // for, with the session's cookie set on `call`.
  boost::asio::awaitable<core::Result<nlohmann::json>> SignedIn(RouteCall& call,
                                                                const std::string& account_id,
                                                                const std::string& token);

  store::StorePool& pool_;
  core::platform::Env env_;
  const bool accounts_;
  const bool open_signup_;
  const bool secure_cookies_;
  boost::asio::thread_pool hash_pool_{kPasswordHashThreads};
  std::atomic<size_t> hashes_queued_{0};
};

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_AUTH_SERVICE_H_
