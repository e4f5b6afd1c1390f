// The one guard every outbound request passes that goes to an address a
// person supplied (calendar links, a person's own model base URL in accounts
// mode, and the connectors, web reads and MCP calls to come): it resolves the
// name once, checks every address against the core's policy
// (core/net/address_policy.h) and returns exactly those addresses, which the
// caller connects to; there is no second lookup a rebinding name could
// answer differently. Redirects come back here, hop by hop.
//
// Its errors name the host only: never the port's state, a lookup error's
// text or anything an internal service answered, so the guard cannot be used
// to scan the server's network.
//
// Thread-safety: stateless; each call uses the caller's resolver.

#ifndef ENSEMBLE_SERVER_OUTBOUND_OUTBOUND_GUARD_H_
#define ENSEMBLE_SERVER_OUTBOUND_OUTBOUND_GUARD_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <string>
#include <string_view>

#include "core/base/status.h"

namespace ensemble::server::outbound {

// What a guarded request may reach.
enum class Reach {
  kPublicOnly,  // A person's address on a shared server: public addresses only.
  kPrivateToo,  // The person's own machine (local mode) or the operator's own.
};

// True when `address` is one the core's policy lets a request reach.
bool IsPublicAddress(const boost::asio::ip::address& address);

// The addresses of `host`:`port`, each allowed under `reach`. Otherwise a
// Status with `code` (the caller's: APP_UNREACHABLE, MODEL_ERROR) whose
// message names the host only. `*private_target` (when given) tells whether
// any address is not public, so the caller's later errors stay as quiet.
boost::asio::awaitable<core::Result<boost::asio::ip::tcp::resolver::results_type>> Resolve(
    boost::asio::ip::tcp::resolver& resolver, const std::string& host, const std::string& port,
    Reach reach, std::string_view code, bool* private_target = nullptr);

}  // namespace ensemble::server::outbound

#endif  // ENSEMBLE_SERVER_OUTBOUND_OUTBOUND_GUARD_H_
