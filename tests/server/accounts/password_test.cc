// Password hashing (Argon2id) and session tokens and cookies.

#include "server/accounts/password.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "server/accounts/session_token.h"

namespace ensemble::server::accounts {
namespace {

TEST(Password, HashIsArgon2idAndVerifiesOnlyTheSamePassword) {
  auto hash = HashPassword("correct horse battery staple");
  ASSERT_TRUE(hash.ok()) << hash.status().ToString();
  EXPECT_TRUE(hash->starts_with("$argon2id$v=19$m=65536,t=2,p=1$")) << *hash;
  EXPECT_EQ(hash->find("correct horse"), std::string::npos);
  EXPECT_TRUE(VerifyPassword(*hash, "correct horse battery staple"));
  EXPECT_FALSE(VerifyPassword(*hash, "correct horse battery stapler"));
  EXPECT_FALSE(VerifyPassword(*hash, ""));
  EXPECT_FALSE(VerifyPassword("not a hash", "correct horse battery staple"));
}

TEST(Password, SamePasswordHashesDifferently) {
  auto a = HashPassword("hunter2hunter2");
  auto b = HashPassword("hunter2hunter2");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(*a, *b);  // A random salt each time.
  EXPECT_TRUE(VerifyPassword(*b, "hunter2hunter2"));
}

TEST(Password, DummyVerificationNeverSucceeds) {
  EXPECT_FALSE(VerifyDummyPassword("anything at all"));
  EXPECT_FALSE(VerifyDummyPassword(""));
}

TEST(SessionToken, TokensAreUniqueAndStoredOnlyAsHash) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    NewToken t = NewSessionToken();
    EXPECT_EQ(t.token.size(), 43u);  // 32 bytes in unpadded base64.
    EXPECT_EQ(t.hash, HashSessionToken(t.token));
    EXPECT_EQ(t.hash.size(), 64u);
    EXPECT_EQ(t.hash.find(t.token), std::string::npos);
    EXPECT_TRUE(seen.insert(t.token).second);
  }
}

TEST(SessionToken, CookieHasTheRequiredAttributes) {
  std::string cookie = SessionCookie("TOKEN", /*secure=*/false);
  EXPECT_TRUE(cookie.starts_with("ensemble_session=TOKEN; ")) << cookie;
  EXPECT_NE(cookie.find("; HttpOnly"), std::string::npos);
  EXPECT_NE(cookie.find("; SameSite=Lax"), std::string::npos);
  EXPECT_NE(cookie.find("; Path=/"), std::string::npos);
  EXPECT_NE(cookie.find("; Max-Age=2592000"), std::string::npos);
  EXPECT_EQ(cookie.find("Secure;"), std::string::npos);
  EXPECT_FALSE(cookie.ends_with("; Secure"));
  EXPECT_TRUE(SessionCookie("TOKEN", /*secure=*/true).ends_with("; Secure"));
  std::string cleared = ClearedSessionCookie(false);
  EXPECT_TRUE(cleared.starts_with("ensemble_session=; ")) << cleared;
  EXPECT_NE(cleared.find("Max-Age=0"), std::string::npos);
}

TEST(SessionToken, ReadsTheTokenFromACookieHeader) {
  NewToken t = NewSessionToken();
  EXPECT_EQ(SessionTokenFrom("ensemble_session=" + t.token), t.token);
  EXPECT_EQ(SessionTokenFrom("a=b; ensemble_session=" + t.token + "; c=d"), t.token);
  EXPECT_EQ(SessionTokenFrom("x_ensemble_session=" + t.token), std::nullopt);
  EXPECT_EQ(SessionTokenFrom("ensemble_session=short"), std::nullopt);
  EXPECT_EQ(SessionTokenFrom("ensemble_session=" + t.token.substr(1) + "!"), std::nullopt);
  EXPECT_EQ(SessionTokenFrom(""), std::nullopt);
}

TEST(SessionToken, SecureCookiesAreHostPrefixed) {
  NewToken t = NewSessionToken();
  std::string cookie = SessionCookie(t.token, /*secure=*/true);
  EXPECT_TRUE(cookie.starts_with("__Host-ensemble_session=" + t.token + "; ")) << cookie;
  EXPECT_NE(cookie.find("; Path=/"), std::string::npos);
  EXPECT_EQ(cookie.find("Domain"), std::string::npos);
  EXPECT_TRUE(ClearedSessionCookie(true).starts_with("__Host-ensemble_session=; "));
  EXPECT_EQ(SessionTokenFrom("__Host-ensemble_session=" + t.token, true), t.token);
  // A plain cookie (settable over http or by a sibling domain) is no session.
  EXPECT_EQ(SessionTokenFrom("ensemble_session=" + t.token, true), std::nullopt);
  EXPECT_EQ(SessionTokenFrom("__Host-ensemble_session=" + t.token, false), std::nullopt);
}

}  // namespace
}  // namespace ensemble::server::accounts
