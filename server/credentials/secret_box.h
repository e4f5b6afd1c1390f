// SecretBox: encrypts secrets at rest (provider API keys now; connector
// tokens and calendar links later) with libsodium's crypto_secretbox
// (XSalsa20-Poly1305) under one server key, with a fresh random nonce per
// value. A sealed value is text, "sb1:" + base64(nonce || MAC || ciphertext),
// so it fits a TEXT column on both stores; the prefix names the format so a
// later one can be told apart.
//
// The key comes from ENSEMBLE_SECRET_KEY (base64 of 32 bytes; every server
// process sharing a PostgreSQL database must be given the same one) or from
// <data_dir>/secret.key, created on first run with mode 0600. A key file that
// other users may read or write is refused, as is a malformed key; error
// messages name the variable or the file, never the key.
//
// Thread-safety: immutable after construction; Seal and Open may run on any
// thread.

#ifndef ENSEMBLE_SERVER_CREDENTIALS_SECRET_BOX_H_
#define ENSEMBLE_SERVER_CREDENTIALS_SECRET_BOX_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "core/base/status.h"

namespace ensemble::server::credentials {

inline constexpr size_t kSecretKeyBytes = 32;  // crypto_secretbox_KEYBYTES.
inline constexpr char kSecretKeyVariable[] = "ENSEMBLE_SECRET_KEY";
inline constexpr char kSecretKeyFileName[] = "secret.key";
inline constexpr std::string_view kSealedPrefix = "sb1:";

class SecretBox {
 public:
  // The key as raw bytes; INVALID_ARGUMENT unless there are kSecretKeyBytes.
  static core::Result<std::unique_ptr<SecretBox>> FromKey(std::string_view key);
  // The key as base64 (standard or URL-safe, padding optional) of
  // kSecretKeyBytes; the error names `source`, never the value.
  static core::Result<std::unique_ptr<SecretBox>> FromBase64(std::string_view text,
                                                             std::string_view source);
  // The key in the file at `path`, created (with its folder) holding a new
  // random key, mode 0600, when there is none. INVALID_ARGUMENT when the file
  // grants any permission to group or others, or does not hold a key.
  static core::Result<std::unique_ptr<SecretBox>> FromKeyFile(const std::filesystem::path& path);
  // `env_value` (ENSEMBLE_SECRET_KEY) when not empty, else
  // <data_dir>/secret.key as FromKeyFile.
  static core::Result<std::unique_ptr<SecretBox>> Load(std::string_view env_value,
                                                       const std::filesystem::path& data_dir);

  ~SecretBox();
  SecretBox(const SecretBox&) = delete;
  SecretBox& operator=(const SecretBox&) = delete;

  // `plaintext` encrypted under a new random nonce (so equal secrets seal
  // differently).
  std::string Seal(std::string_view plaintext) const;
  // The plaintext of a Seal result; DECRYPT_FAILED when it was altered,
  // sealed under another key, or is not a sealed value at all.
  core::Result<std::string> Open(std::string_view sealed) const;

 private:
  SecretBox() = default;

  std::array<uint8_t, kSecretKeyBytes> key_{};
};

}  // namespace ensemble::server::credentials

#endif  // ENSEMBLE_SERVER_CREDENTIALS_SECRET_BOX_H_
