// SpacesService: the spaces a person belongs to, who is in each, and the
// invitations that let people in (issues 6 and 27), over
// core/spaces/space_admin.h and invitations.h:
//   GET    /api/spaces                         -> {spaces: [{id, name, role, members}]}
//   POST   /api/spaces {name}                  -> 201 {space}, the caller its owner
//   PATCH  /api/spaces/:id {name}              -> {space} (owners)
//   GET    /api/spaces/:id/members             -> {members: [{accountId, email, name, role}],
//                                                  invitations: [...] (owners see them)}
//   PUT    /api/spaces/:id/members {email, role} -> {member} when a member's role changed,
//                                                  202 {invitation} when someone was invited
//   DELETE /api/spaces/:id/members/:accountId  -> {removed: true} (owners, or oneself to leave)
//   DELETE /api/spaces/:id/invitations/:id     -> {withdrawn: true} (owners)
//   GET    /api/invitations                    -> {invitations: [{id, spaceId, spaceName, role,
//                                                  from, fromName}]} (the caller's)
//   POST   /api/invitations/:id/accept         -> {space}
//   POST   /api/invitations/:id/decline        -> {declined: true}
// Roles are owner, editor, guest and viewer. A space the caller is not in is
// 404 NOT_FOUND; a member who may not do it gets 403 FORBIDDEN; removing or
// demoting the last owner is 409 FAILED_PRECONDITION. Nothing here is an
// assistant tool: sharing stays the person's own decision (spec 002 §3).
// A change of who reads what pokes the account it concerns, whose clients
// then pull the space's rows (or drop them).
// In local mode (one trusted person) these routes answer 404 NOT_FOUND.
//
// Thread-safety: handlers may run concurrently.

#ifndef ENSEMBLE_SERVER_SERVICES_SPACES_SERVICE_H_
#define ENSEMBLE_SERVER_SERVICES_SPACES_SERVICE_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
#include <functional>
#include <string>

#include "core/platform/env.h"
#include "server/events/poke_hub.h"
#include "server/services/json_route.h"
#include "server/store/store_pool.h"

namespace ensemble::server::services {

class SpacesService {
 public:
  using OnCommit = std::function<void(const events::Poke& poke)>;

  // Everything given must outlive the service; `on_commit` hears each
  // committed change of who reads what.
  SpacesService(store::StorePool& pool, core::platform::Env env, OnCommit on_commit);

  // The routes above (App::AddJson binds them).
  boost::asio::awaitable<core::Result<nlohmann::json>> List(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Create(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Rename(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Members(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> PutMember(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> RemoveMember(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Withdraw(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Invitations(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Accept(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Decline(RouteCall& call);

 private:
  // Inside the transaction: the poke for `account_id`'s latest access change.
  core::Result<events::Poke> AccessPoke(core::store::Database& db, const std::string& account_id);
  void Publish(const events::Poke& poke) const;

  store::StorePool& pool_;
  core::platform::Env env_;
  OnCommit on_commit_;
};

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_SPACES_SERVICE_H_
