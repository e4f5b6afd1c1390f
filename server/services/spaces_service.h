// SpacesService: the spaces a person belongs to and who is in each (issue 6,
// "spaces and membership"), over core/spaces/space_admin.h:
//   GET    /api/spaces                         -> {spaces: [{id, name, role, members}]}
//   POST   /api/spaces {name}                  -> 201 {space}, the caller its owner
//   PATCH  /api/spaces/:id {name}              -> {space} (owners)
//   GET    /api/spaces/:id/members             -> {members: [{accountId, email, name, role}]}
//   PUT    /api/spaces/:id/members {email, role} -> {member} (owners: share or change a role)
//   DELETE /api/spaces/:id/members/:accountId  -> {removed: true} (owners, or oneself to leave)
// Roles are owner, editor, guest and viewer. A space the caller is not in is
// 404 NOT_FOUND; a member who may not do it gets 403 FORBIDDEN; removing or
// demoting the last owner is 409 FAILED_PRECONDITION. Nothing here is an
// assistant tool: sharing stays the person's own decision (spec 002 §3).
// In local mode (one trusted person) these routes answer 404 NOT_FOUND.
//
// Thread-safety: handlers may run concurrently.

#ifndef ENSEMBLE_SERVER_SERVICES_SPACES_SERVICE_H_
#define ENSEMBLE_SERVER_SERVICES_SPACES_SERVICE_H_

// clang-format off
#include <utility>  // Before Asio: Boost 1.74's awaitable.hpp misses it under GCC 12.
// clang-format on
#include <boost/asio/awaitable.hpp>

#include "core/platform/env.h"
#include "server/http/message.h"
#include "server/http/url.h"
#include "server/services/auth_service.h"
#include "server/store/store_pool.h"

namespace ensemble::server::services {

class SpacesService {
 public:
  // Everything given must outlive the service.
  SpacesService(store::StorePool& pool, core::platform::Env env);

  boost::asio::awaitable<http::Response> List(const Caller& caller);
  boost::asio::awaitable<http::Response> Create(const http::Request& request, const Caller& caller);
  boost::asio::awaitable<http::Response> Rename(const http::Request& request,
                                                const http::Target& target, const Caller& caller);
  boost::asio::awaitable<http::Response> Members(const http::Target& target, const Caller& caller);
  boost::asio::awaitable<http::Response> PutMember(const http::Request& request,
                                                   const http::Target& target,
                                                   const Caller& caller);
  boost::asio::awaitable<http::Response> RemoveMember(const http::Target& target,
                                                      const Caller& caller);

 private:
  store::StorePool& pool_;
  core::platform::Env env_;
};

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_SPACES_SERVICE_H_
