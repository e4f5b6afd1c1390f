#include "server/outbound/outbound_guard.h"

#include <boost/asio/use_awaitable.hpp>

#include "core/net/address_policy.h"
#include "server/await_token.h"

namespace ensemble::server::outbound {

namespace asio = boost::asio;
using core::Result;
using core::Status;

bool IsPublicAddress(const asio::ip::address& address) {
  if (address.is_v4()) {
    const auto bytes = address.to_v4().to_bytes();
    return core::net::IsPublicAddress(bytes);
  }
  const auto bytes = address.to_v6().to_bytes();
  return core::net::IsPublicAddress(bytes);
}

asio::awaitable<Result<asio::ip::tcp::resolver::results_type>> Resolve(
    asio::ip::tcp::resolver& resolver, const std::string& host, const std::string& port,
    Reach reach, std::string_view code, bool* private_target) {
  boost::system::error_code ec;
  auto endpoints = co_await resolver.async_resolve(host, port, AwaitToken(ec));
  if (ec || endpoints.empty()) co_return Status(code, "could not find " + host + ".");
  bool any_private = false;
  for (const auto& entry : endpoints) {
    any_private = any_private || !IsPublicAddress(entry.endpoint().address());
  }
  if (private_target) *private_target = any_private;
  if (any_private && reach == Reach::kPublicOnly) {
    co_return Status(code, host +
                               " is an address of a private network (or another special-purpose "
                               "range), which this server does not connect to for a person.");
  }
  co_return endpoints;
}

}  // namespace ensemble::server::outbound
