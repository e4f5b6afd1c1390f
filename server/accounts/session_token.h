// Session tokens and the session cookie. A token is 32 random bytes from the
// kernel (libsodium), sent to the browser once in an HttpOnly cookie; the
// store keeps only its BLAKE2b-256 hash, so reading the database does not
// sign anyone in. A token this long needs no salt or slow hash.
//
//   Set-Cookie: ensemble_session=<token>; Path=/; Max-Age=2592000; HttpOnly;
//               SameSite=Lax[; Secure]
//
// SameSite=Lax keeps the cookie off cross-site POSTs (the sync push, the
// settings routes), HttpOnly keeps it from page scripts.
//
// Thread-safety: stateless functions.

#ifndef ENSEMBLE_SERVER_ACCOUNTS_SESSION_TOKEN_H_
#define ENSEMBLE_SERVER_ACCOUNTS_SESSION_TOKEN_H_

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ensemble::server::accounts {

inline constexpr size_t kSessionTokenBytes = 32;
// A session ends this long after sign-in (or at logout).
inline constexpr std::chrono::hours kSessionLifetime{24 * 30};
inline constexpr char kSessionCookieName[] = "ensemble_session";
// The name with Secure cookies (ENSEMBLE_COOKIE_SECURE=on): browsers keep a
// "__Host-" cookie only when it is Secure, has Path=/ and no Domain, so a
// page on a sibling subdomain or plain http cannot set or shadow it.
inline constexpr char kSecureSessionCookieName[] = "__Host-ensemble_session";

// The cookie's name for `secure` cookies or not.
std::string_view SessionCookieName(bool secure);

struct NewToken {
  std::string token;  // For the cookie (URL-safe base64, no padding).
  std::string hash;   // For the store.
};

NewToken NewSessionToken();
// The store's form of `token` (lower-case hex).
std::string HashSessionToken(std::string_view token);

// The Set-Cookie value that gives the browser `token`.
std::string SessionCookie(std::string_view token, bool secure);
// The Set-Cookie value that makes the browser forget its session.
std::string ClearedSessionCookie(bool secure);
// The session token in a Cookie header's value, if it has one of the right
// shape under the name for `secure` (anything else is no session: with
// Secure cookies a plain "ensemble_session" set over http is ignored).
std::optional<std::string> SessionTokenFrom(std::string_view cookie_header, bool secure = false);

}  // namespace ensemble::server::accounts

#endif  // ENSEMBLE_SERVER_ACCOUNTS_SESSION_TOKEN_H_
