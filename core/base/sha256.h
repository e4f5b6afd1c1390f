// SHA-256 (FIPS 180-4) in plain C++: the core builds to WebAssembly and has
// no crypto library, yet needs a collision-resistant digest to bind a saved
// proposal to its exact calls (spec 000 §6). Not for secrets: no constant-time
// promises, no keys.
//
// Thread-safety: a Sha256 is a value used from one thread; the free functions
// are pure.

#ifndef ENSEMBLE_CORE_BASE_SHA256_H_
#define ENSEMBLE_CORE_BASE_SHA256_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ensemble::core {

inline constexpr std::size_t kSha256DigestBytes = 32;

using Sha256Digest = std::array<uint8_t, kSha256DigestBytes>;

// Incremental hashing: Update any number of times, then Finish once.
class Sha256 {
 public:
  Sha256();

  void Update(std::string_view bytes);
  // The digest of everything given; the object must not be used afterwards.
  Sha256Digest Finish();

 private:
  void Block(const uint8_t* p);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

Sha256Digest Sha256Of(std::string_view bytes);

// Lower-case hex of a digest (64 characters).
std::string DigestHex(const Sha256Digest& digest);

// Lower-case hex of the digest of `bytes` (64 characters).
std::string Sha256Hex(std::string_view bytes);

}  // namespace ensemble::core

#endif  // ENSEMBLE_CORE_BASE_SHA256_H_
