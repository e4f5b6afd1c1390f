#include "server/accounts/session_token.h"

#include <sodium.h>

#include <array>
#include <cstring>

namespace ensemble::server::accounts {
namespace {

// Base64 (URL-safe, unpadded) of kSessionTokenBytes.
constexpr size_t kTokenChars = (kSessionTokenBytes * 4 + 2) / 3;

std::string Attributes(bool secure, long long max_age_seconds) {
  std::string out =
      "; Path=/; Max-Age=" + std::to_string(max_age_seconds) + "; HttpOnly; SameSite=Lax";
  if (secure) out += "; Secure";
  return out;
}

bool IsTokenChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

}  // namespace

NewToken NewSessionToken() {
  if (sodium_init() < 0) std::abort();  // No entropy: nothing safe to hand out.
  std::array<uint8_t, kSessionTokenBytes> bytes;
  randombytes_buf(bytes.data(), bytes.size());
  char
      text[sodium_base64_ENCODED_LEN(kSessionTokenBytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
  sodium_bin2base64(text, sizeof(text), bytes.data(), bytes.size(),
                    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  sodium_memzero(bytes.data(), bytes.size());
  NewToken t;
  t.token = text;
  t.hash = HashSessionToken(t.token);
  return t;
}

std::string HashSessionToken(std::string_view token) {
  std::array<uint8_t, crypto_generichash_BYTES> digest;
  crypto_generichash(digest.data(), digest.size(), reinterpret_cast<const uint8_t*>(token.data()),
                     token.size(), nullptr, 0);
  char hex[crypto_generichash_BYTES * 2 + 1];
  sodium_bin2hex(hex, sizeof(hex), digest.data(), digest.size());
  return hex;
}

std::string_view SessionCookieName(bool secure) {
  return secure ? kSecureSessionCookieName : kSessionCookieName;
}

std::string SessionCookie(std::string_view token, bool secure) {
  auto seconds = std::chrono::duration_cast<std::chrono::seconds>(kSessionLifetime).count();
  return std::string(SessionCookieName(secure)) + "=" + std::string(token) +
         Attributes(secure, seconds);
}

std::string ClearedSessionCookie(bool secure) {
  return std::string(SessionCookieName(secure)) + "=" + Attributes(secure, 0);
}

std::optional<std::string> SessionTokenFrom(std::string_view header, bool secure) {
  const std::string_view name = SessionCookieName(secure);
  while (!header.empty()) {
    size_t end = header.find(';');
    std::string_view pair = header.substr(0, end);
    header = end == std::string_view::npos ? std::string_view() : header.substr(end + 1);
    while (!pair.empty() && (pair.front() == ' ' || pair.front() == '\t')) pair.remove_prefix(1);
    while (!pair.empty() && (pair.back() == ' ' || pair.back() == '\t')) pair.remove_suffix(1);
    if (!pair.starts_with(name) || pair.size() <= name.size() || pair[name.size()] != '=') continue;
    std::string_view value = pair.substr(name.size() + 1);
    if (value.size() != kTokenChars) continue;
    bool ok = true;
    for (char c : value) ok = ok && IsTokenChar(c);
    if (ok) return std::string(value);
  }
  return std::nullopt;
}

}  // namespace ensemble::server::accounts
