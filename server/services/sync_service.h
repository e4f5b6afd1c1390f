// SyncService: the HTTP face of core::sync::ServerSync.
//   POST /api/sync/push  (JSON body)            -> ServerSync::Push
//   GET  /api/sync/pull?clientId=..&cursor=N   -> ServerSync::Pull
// Given an account (accounts mode), each pushed mutation is authorized for it
// and a pull holds only its spaces; without one (local mode) the caller is
// trusted with every space.
// A body that is not JSON is 400 MALFORMED_JSON; request-level failures from
// ServerSync keep their code (INVALID_ARGUMENT, UNKNOWN_MUTATION, ...). Store
// and internal failures are logged in full and answered without their details.
//
// A push that applied at least one mutation pokes: on PostgreSQL it NOTIFYs
// the poke channel inside its transaction (so other server processes hear of
// it exactly when it commits), and after the commit it calls `on_commit` with
// the poke (this process's subscribers): the new server version and, for an
// account's push, the accounts that can read what it wrote (only they are
// poked). The push runs inside
// an outer transaction of this service (ServerSync's becomes a savepoint) so
// the NOTIFY commits or rolls back with it.
//
// The store work runs on the StorePool's workers; parsing, the poke and the
// response on the calling coroutine's executor (the server's io thread).
//
// Thread-safety: Push and Pull may run concurrently (each on its own
// connection); the service itself holds no mutable state.

#ifndef ENSEMBLE_SERVER_SERVICES_SYNC_SERVICE_H_
#define ENSEMBLE_SERVER_SERVICES_SYNC_SERVICE_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/platform/env.h"
#include "core/store/database.h"
#include "core/sync/server_sync.h"
#include "server/events/poke_hub.h"
#include "server/metrics/metrics.h"
#include "server/services/json_route.h"
#include "server/store/store_pool.h"

namespace ensemble::server::services {

class SyncService {
 public:
  using OnCommit = std::function<void(const events::Poke& poke)>;

  // `pool` must outlive the service; `on_commit` (may be empty) runs on the
  // caller's executor after each push that applied something. The Env's
  // clock must outlive the service; pushes stamped over
  // a day ahead of the clock are rejected (kMaxClientTimeAheadMs).
  SyncService(store::StorePool& pool, core::platform::Env env, OnCommit on_commit = {});

  // POST /api/sync/push and GET /api/sync/pull as the call's caller (local
  // mode: the trusted person; App::AddJson binds them).
  boost::asio::awaitable<core::Result<nlohmann::json>> Push(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Pull(RouteCall& call);

  // Counts pushes (ensemble_sync_pushes_total by result) and their mutations
  // (ensemble_sync_mutations_total by status) in `registry`, which must
  // outlive the service. Call before serving.
  void set_metrics(metrics::Registry& registry);

 private:
  // Counts one push that ended with `outcome`.
  void CountPush(const core::Result<core::sync::PushOutcome>& outcome) const;

  struct Counters {
    metrics::Counter* ok = nullptr;
    metrics::Counter* failed = nullptr;
    metrics::Counter* applied = nullptr;
    metrics::Counter* skipped = nullptr;
    metrics::Counter* rejected = nullptr;
  };
  Counters counters_;
  store::StorePool& pool_;
  core::sync::ServerSync sync_;
  OnCommit on_commit_;
};

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_SYNC_SERVICE_H_
