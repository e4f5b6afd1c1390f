// PeopleService: the people routes of spec 004 §4.7, over core/people/merge.h:
//   GET  /api/people/merge-suggestions?spaceId=S
//        -> {suggestions: [{personId, intoId, reason, person, into}]}, person
//           and into as {id, name, email}
//   POST /api/people/:id/merge {into}
//        -> {merged: id, person: {id, name, email, role, team, relationship}}
// A merge is the synced mutation person.merge, run as the caller through
// ServerSync::ApplyServerWrites (authorized, versioned, pulled by every
// client, poked), so a browser that merges offline pushes the same mutation
// instead. A space the caller is not in answers 404 NOT_FOUND, alike for a
// person of such a space; a viewer's or guest's merge is 403 FORBIDDEN.
//
// Thread-safety: handlers may run concurrently.

#ifndef ENSEMBLE_SERVER_SERVICES_PEOPLE_SERVICE_H_
#define ENSEMBLE_SERVER_SERVICES_PEOPLE_SERVICE_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
#include <functional>

#include "core/platform/env.h"
#include "server/events/poke_channel.h"
#include "server/services/json_route.h"
#include "server/store/store_pool.h"

namespace ensemble::server::services {

class PeopleService {
 public:
  // Called on the io thread after a merge commits.
  using OnCommit = std::function<void(const events::Poke& poke)>;

  // Everything given must outlive the service.
  PeopleService(store::StorePool& pool, core::platform::Env env, OnCommit on_commit);

  boost::asio::awaitable<core::Result<nlohmann::json>> MergeSuggestions(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Merge(RouteCall& call);

 private:
  store::StorePool& pool_;
  core::platform::Env env_;
  OnCommit on_commit_;
};

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_PEOPLE_SERVICE_H_
