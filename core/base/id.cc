#include "core/base/id.h"

#include <array>
#include <cstdint>
#include <string>

#include "core/base/sha256.h"

namespace ensemble::core {
namespace {
constexpr std::string_view kAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
}  // namespace

std::string NewId(platform::Clock& clock, platform::Random& random) {
  std::array<uint8_t, 16> bytes{};
  uint64_t ms = static_cast<uint64_t>(clock.NowMillis()) & ((uint64_t{1} << 48) - 1);
  for (int i = 5; i >= 0; --i) {
    bytes[i] = static_cast<uint8_t>(ms & 0xff);
    ms >>= 8;
  }
  random.Fill(bytes.data() + 6, 10);
  // 128 bits read as 130 with two leading zero bits -> 26 base32 digits.
  auto bit = [&bytes](int i) -> unsigned {  // i counts from the 130-bit top.
    int b = i - 2;
    if (b < 0) return 0;
    return (bytes[b / 8] >> (7 - b % 8)) & 1u;
  };
  std::string out(kIdLength, '0');
  for (size_t d = 0; d < kIdLength; ++d) {
    unsigned v = 0;
    for (int k = 0; k < 5; ++k) v = (v << 1) | bit(static_cast<int>(d) * 5 + k);
    out[d] = kAlphabet[v];
  }
  return out;
}

std::string DerivedId(std::string_view from_id, std::string_view salt) {
  constexpr size_t kTimeChars = 10;  // 48 bits of milliseconds, from the top.
  std::string out(from_id.substr(0, kTimeChars));
  out.resize(kTimeChars, '0');
  std::string input(from_id);
  input.push_back('\0');
  input.append(salt);
  const Sha256Digest digest = Sha256Of(input);
  for (size_t i = 0; out.size() < kIdLength; ++i) out.push_back(kAlphabet[digest[i] & 31]);
  return out;
}

bool IsValidId(std::string_view id) {
  if (id.size() != kIdLength || id[0] > '7') return false;
  for (char c : id) {
    if (kAlphabet.find(c) == std::string_view::npos) return false;
  }
  return true;
}

}  // namespace ensemble::core
