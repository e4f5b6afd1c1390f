// The outbound address policy: which IP addresses a request the server makes
// for a person (a calendar link, a model base URL, a connector, a web page,
// an MCP server) may connect to. The server resolves a name, asks this of
// every address it got, and connects only to the addresses it checked
// (server/outbound/outbound_guard.h), so a name that resolves to the
// server's own network is refused however it is written.
//
// Refused: every range of the IANA IPv4 and IPv6 special-purpose address
// registries that is not globally reachable, plus multicast and what embeds
// an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo), since the host
// behind it cannot be checked. The list is kBlockedIpv4 and kBlockedIpv6;
// IPv6 outside global unicast (2000::/3) is refused as well.
//
// Thread-safety: pure functions over constant tables.

#ifndef ENSEMBLE_CORE_NET_ADDRESS_POLICY_H_
#define ENSEMBLE_CORE_NET_ADDRESS_POLICY_H_

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace ensemble::core::net {

struct Ipv4Range {
  std::array<uint8_t, 4> prefix;
  int bits;
  std::string_view what;
};
struct Ipv6Range {
  std::array<uint8_t, 16> prefix;
  int bits;
  std::string_view what;
};

extern const std::span<const Ipv4Range> kBlockedIpv4;
extern const std::span<const Ipv6Range> kBlockedIpv6;

// True when a request may connect to `address`: 4 bytes (IPv4) or 16 bytes
// (IPv6) in network order. Any other size is refused.
bool IsPublicAddress(std::span<const uint8_t> address);

}  // namespace ensemble::core::net

#endif  // ENSEMBLE_CORE_NET_ADDRESS_POLICY_H_
