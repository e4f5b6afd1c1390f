#include "server/credentials/secret_box.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>
#include <vector>

namespace ensemble::server::credentials {
namespace {

using core::Result;
using core::Status;
namespace codes = core::codes;

static_assert(kSecretKeyBytes == crypto_secretbox_KEYBYTES);

// The longest key file read: base64 of the key plus white space.
constexpr size_t kMaxKeyFileBytes = 256;

std::string ToBase64(const uint8_t* data, size_t size) {
  std::string out(sodium_base64_encoded_len(size, sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(out.data(), out.size(), data, size, sodium_base64_VARIANT_ORIGINAL);
  out.resize(std::strlen(out.c_str()));
  return out;
}

// Decodes `text` in any of libsodium's base64 variants; nullopt-like empty
// vector plus false on failure.
bool FromBase64Any(std::string_view text, std::vector<uint8_t>& out) {
  constexpr int kVariants[] = {
      sodium_base64_VARIANT_ORIGINAL, sodium_base64_VARIANT_ORIGINAL_NO_PADDING,
      sodium_base64_VARIANT_URLSAFE, sodium_base64_VARIANT_URLSAFE_NO_PADDING};
  out.assign(text.size(), 0);
  for (int variant : kVariants) {
    size_t len = 0;
    const char* end = nullptr;
    if (sodium_base642bin(out.data(), out.size(), text.data(), text.size(), nullptr, &len, &end,
                          variant) == 0 &&
        end == text.data() + text.size()) {
      out.resize(len);
      return true;
    }
  }
  sodium_memzero(out.data(), out.size());
  out.clear();
  return false;
}

std::string_view TrimSpace(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

Status InitSodium() {
  if (sodium_init() < 0) return Status(codes::kInternal, "libsodium failed to initialize");
  return Status::Ok();
}

std::string ModeText(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof(buf), "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

// Writes a new random key to `path` (which must not exist) with mode 0600.
// EEXIST when another process made it first.
Status CreateKeyFile(const std::filesystem::path& path, int& error) {
  std::array<uint8_t, kSecretKeyBytes> key;
  randombytes_buf(key.data(), key.size());
  std::string text = ToBase64(key.data(), key.size()) + "\n";
  sodium_memzero(key.data(), key.size());
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    error = errno;
    sodium_memzero(text.data(), text.size());
    return Status(codes::kInvalidArgument, "cannot create the secret key file " + path.string() +
                                               ": " + std::strerror(error));
  }
  ssize_t written = ::write(fd, text.data(), text.size());
  bool ok = written == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  error = ok ? 0 : errno;
  ::close(fd);
  sodium_memzero(text.data(), text.size());
  if (!ok) {
    ::unlink(path.c_str());
    return Status(codes::kInvalidArgument, "cannot write the secret key file " + path.string() +
                                               ": " + std::strerror(error));
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<SecretBox>> SecretBox::FromKey(std::string_view key) {
  ENSEMBLE_RETURN_IF_ERROR(InitSodium());
  if (key.size() != kSecretKeyBytes) {
    return Status(codes::kInvalidArgument,
                  "a secret key must be " + std::to_string(kSecretKeyBytes) + " bytes");
  }
  std::unique_ptr<SecretBox> box(new SecretBox());
  std::memcpy(box->key_.data(), key.data(), kSecretKeyBytes);
  return box;
}

Result<std::unique_ptr<SecretBox>> SecretBox::FromBase64(std::string_view text,
                                                         std::string_view source) {
  ENSEMBLE_RETURN_IF_ERROR(InitSodium());
  std::vector<uint8_t> bytes;
  if (!FromBase64Any(TrimSpace(text), bytes) || bytes.size() != kSecretKeyBytes) {
    sodium_memzero(bytes.data(), bytes.size());
    return Status(codes::kInvalidArgument,
                  std::string(source) + " must be base64 of " + std::to_string(kSecretKeyBytes) +
                      " random bytes (for example the output of: openssl rand -base64 32)");
  }
  auto box = FromKey(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  sodium_memzero(bytes.data(), bytes.size());
  return box;
}

Result<std::unique_ptr<SecretBox>> SecretBox::FromKeyFile(const std::filesystem::path& path) {
  ENSEMBLE_RETURN_IF_ERROR(InitSodium());
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) {
    std::error_code ec;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) {
      return Status(codes::kInvalidArgument,
                    "cannot create the folder of " + path.string() + ": " + ec.message());
    }
    int error = 0;
    Status created = CreateKeyFile(path, error);
    if (!created.ok() && error != EEXIST) return created;
    fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  }
  if (fd < 0) {
    return Status(codes::kInvalidArgument,
                  "cannot open the secret key file " + path.string() + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status(codes::kInvalidArgument,
                  "the secret key file " + path.string() + " is not a regular file");
  }
  if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    ::close(fd);
    return Status(codes::kInvalidArgument,
                  "the secret key file " + path.string() + " is open to other users (mode " +
                      ModeText(st.st_mode) + "); run: chmod 600 " + path.string() + " (or set " +
                      kSecretKeyVariable + " instead)");
  }
  std::string text(kMaxKeyFileBytes + 1, '\0');
  ssize_t n = ::read(fd, text.data(), text.size());
  ::close(fd);
  if (n < 0 || static_cast<size_t>(n) > kMaxKeyFileBytes) {
    sodium_memzero(text.data(), text.size());
    return Status(codes::kInvalidArgument,
                  "the secret key file " + path.string() + " cannot be read as a key");
  }
  text.resize(static_cast<size_t>(n));
  auto box = FromBase64(text, "the secret key file " + path.string());
  sodium_memzero(text.data(), text.size());
  return box;
}

Result<std::unique_ptr<SecretBox>> SecretBox::Load(std::string_view env_value,
                                                   const std::filesystem::path& data_dir) {
  if (!env_value.empty()) return FromBase64(env_value, kSecretKeyVariable);
  return FromKeyFile(data_dir / kSecretKeyFileName);
}

SecretBox::~SecretBox() { sodium_memzero(key_.data(), key_.size()); }

std::string SecretBox::Seal(std::string_view plaintext) const {
  std::vector<uint8_t> out(crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES +
                           plaintext.size());
  uint8_t* nonce = out.data();
  randombytes_buf(nonce, crypto_secretbox_NONCEBYTES);
  crypto_secretbox_easy(out.data() + crypto_secretbox_NONCEBYTES,
                        reinterpret_cast<const uint8_t*>(plaintext.data()), plaintext.size(), nonce,
                        key_.data());
  return std::string(kSealedPrefix) + ToBase64(out.data(), out.size());
}

Result<std::string> SecretBox::Open(std::string_view sealed) const {
  const Status unreadable(codes::kDecryptFailed,
                          "a saved secret cannot be decrypted: it was changed, or the server's "
                          "secret key (ENSEMBLE_SECRET_KEY or secret.key) is not the one it was "
                          "saved with");
  if (!sealed.starts_with(kSealedPrefix)) return unreadable;
  std::vector<uint8_t> bytes;
  if (!FromBase64Any(sealed.substr(kSealedPrefix.size()), bytes) ||
      bytes.size() < crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES) {
    return unreadable;
  }
  const uint8_t* nonce = bytes.data();
  const uint8_t* box = bytes.data() + crypto_secretbox_NONCEBYTES;
  size_t box_size = bytes.size() - crypto_secretbox_NONCEBYTES;
  std::string plain(box_size - crypto_secretbox_MACBYTES, '\0');
  if (crypto_secretbox_open_easy(reinterpret_cast<uint8_t*>(plain.data()), box, box_size, nonce,
                                 key_.data()) != 0) {
    return unreadable;
  }
  return plain;
}

}  // namespace ensemble::server::credentials
