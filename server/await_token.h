// AwaitToken(ec): the completion token the server's coroutines pass to an
// Asio or Beast operation so that a failure lands in `ec` instead of being
// thrown (a peer that leaves, a cancelled timer are ordinary outcomes here).
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_SERVER_AWAIT_TOKEN_H_
#define ENSEMBLE_SERVER_AWAIT_TOKEN_H_

#include "server/boost_prelude.h"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/system/error_code.hpp>

namespace ensemble::server {

inline auto AwaitToken(boost::system::error_code& ec) {
  return boost::asio::redirect_error(boost::asio::use_awaitable, ec);
}

}  // namespace ensemble::server

#endif  // ENSEMBLE_SERVER_AWAIT_TOKEN_H_
