#include "core/net/address_policy.h"

namespace ensemble::core::net {
namespace {

constexpr Ipv4Range kIpv4[] = {
    {{0, 0, 0, 0}, 8, "this network"},
    {{10, 0, 0, 0}, 8, "private"},
    {{100, 64, 0, 0}, 10, "shared (CGNAT)"},
    {{127, 0, 0, 0}, 8, "loopback"},
    {{169, 254, 0, 0}, 16, "link-local"},
    {{172, 16, 0, 0}, 12, "private"},
    {{192, 0, 0, 0}, 24, "IETF protocol assignments"},
    {{192, 0, 2, 0}, 24, "documentation"},
    {{192, 88, 99, 0}, 24, "6to4 relay anycast"},
    {{192, 168, 0, 0}, 16, "private"},
    {{198, 18, 0, 0}, 15, "benchmarking"},
    {{198, 51, 100, 0}, 24, "documentation"},
    {{203, 0, 113, 0}, 24, "documentation"},
    {{224, 0, 0, 0}, 4, "multicast"},
    {{240, 0, 0, 0}, 4, "reserved (and broadcast)"},
};

constexpr Ipv6Range kIpv6[] = {
    // ::/96 holds the unspecified address, loopback and IPv4-compatible forms.
    {{}, 96, "unspecified, loopback, IPv4-compatible"},
    {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}, 96, "IPv4-mapped"},
    {{0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0}, 96, "IPv4-translated"},
    {{0, 0x64, 0xff, 0x9b}, 96, "NAT64"},
    {{0, 0x64, 0xff, 0x9b, 0, 1}, 48, "local NAT64"},
    {{0x01, 0x00}, 64, "discard-only"},
    {{0x20, 0x01, 0x00, 0x00}, 23, "IETF protocol assignments (Teredo among them)"},
    {{0x20, 0x01, 0x0d, 0xb8}, 32, "documentation"},
    {{0x20, 0x02}, 16, "6to4"},
    {{0x3f, 0xff}, 20, "documentation"},
    {{0x5f, 0x00}, 16, "segment routing"},
    {{0xfc, 0x00}, 7, "unique local"},
    {{0xfe, 0x80}, 10, "link-local"},
    {{0xfe, 0xc0}, 10, "site-local"},
    {{0xff, 0x00}, 8, "multicast"},
};

bool InPrefix(std::span<const uint8_t> address, std::span<const uint8_t> prefix, int bits) {
  for (int i = 0; bits > 0; ++i, bits -= 8) {
    const uint8_t mask = bits >= 8 ? 0xff : static_cast<uint8_t>(0xff << (8 - bits));
    if ((address[i] & mask) != (prefix[i] & mask)) return false;
  }
  return true;
}

}  // namespace

const std::span<const Ipv4Range> kBlockedIpv4 = kIpv4;
const std::span<const Ipv6Range> kBlockedIpv6 = kIpv6;

bool IsPublicAddress(std::span<const uint8_t> address) {
  if (address.size() == 4) {
    for (const Ipv4Range& r : kIpv4) {
      if (InPrefix(address, r.prefix, r.bits)) return false;
    }
    return true;
  }
  if (address.size() == 16) {
    // Only global unicast (2000::/3) is assigned for the public internet.
    if ((address[0] & 0xe0) != 0x20) return false;
    for (const Ipv6Range& r : kIpv6) {
      if (InPrefix(address, r.prefix, r.bits)) return false;
    }
    return true;
  }
  return false;
}

}  // namespace ensemble::core::net
