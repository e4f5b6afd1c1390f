#include "server/accounts/password.h"

#include <sodium.h>

#include <mutex>

namespace ensemble::server::accounts {
namespace {

// libsodium's interactive limits for Argon2id: OWASP's minimum is 19 MiB and
// 2 passes; these are 64 MiB and 2 passes.
constexpr unsigned long long kOpsLimit = crypto_pwhash_argon2id_OPSLIMIT_INTERACTIVE;
constexpr size_t kMemLimit = crypto_pwhash_argon2id_MEMLIMIT_INTERACTIVE;

}  // namespace

core::Result<std::string> HashPassword(std::string_view password) {
  if (sodium_init() < 0) return core::Status(core::codes::kInternal, "libsodium failed to start");
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), kOpsLimit, kMemLimit,
                            crypto_pwhash_ALG_ARGON2ID13) != 0) {
    return core::Status(core::codes::kInternal, "password hashing ran out of memory");
  }
  return std::string(out);
}

bool VerifyPassword(std::string_view hash, std::string_view password) {
  if (sodium_init() < 0) return false;
  // crypto_pwhash_str_verify wants a NUL-terminated hash.
  std::string h(hash);
  return crypto_pwhash_str_verify(h.c_str(), password.data(), password.size()) == 0;
}

bool VerifyDummyPassword(std::string_view password) {
  // A real hash with the same limits, of random bytes no one knows: verifying
  // against it costs what a real verification costs.
  static std::string dummy;
  static std::once_flag once;
  std::call_once(once, [] {
    if (sodium_init() < 0) return;
    unsigned char secret[32];
    randombytes_buf(secret, sizeof(secret));
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str_alg(out, reinterpret_cast<const char*>(secret), sizeof(secret), kOpsLimit,
                              kMemLimit, crypto_pwhash_ALG_ARGON2ID13) == 0) {
      dummy = out;
    }
    sodium_memzero(secret, sizeof(secret));
  });
  if (!dummy.empty()) VerifyPassword(dummy, password);
  return false;
}

}  // namespace ensemble::server::accounts
