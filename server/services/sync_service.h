// SyncService: the HTTP face of core::sync::ServerSync.
//   POST /api/sync/push  (JSON body)            -> ServerSync::Push
//   GET  /api/sync/pull?clientId=..&cursor=N   -> ServerSync::Pull
// A body that is not JSON is 400 MALFORMED_JSON; request-level failures from
// ServerSync keep their code (INVALID_ARGUMENT, UNKNOWN_MUTATION, ...). Store
// and internal failures are logged in full and answered without their details.
//
// A push that applied at least one mutation pokes: on PostgreSQL it NOTIFYs
// the poke channel inside its transaction (so other server processes hear of
// it exactly when it commits), and after the commit it calls `on_commit` with
// the new server version (this process's subscribers). The push runs inside
// an outer transaction of this service (ServerSync's becomes a savepoint) so
// the NOTIFY commits or rolls back with it.
//
// Thread-safety: uses one Database connection synchronously; call from one
// thread (the server's io thread).

#ifndef ENSEMBLE_SERVER_SERVICES_SYNC_SERVICE_H_
#define ENSEMBLE_SERVER_SERVICES_SYNC_SERVICE_H_

#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/platform/env.h"
#include "core/store/database.h"
#include "core/sync/server_sync.h"
#include "server/http/message.h"
#include "server/http/url.h"

namespace ensemble::server::services {

// Deeper JSON than this is refused before anything looks at it; the sync
// protocol nests a few levels (request, mutation, args, fields).
inline constexpr int kMaxJsonDepth = 64;

class SyncService {
 public:
  using OnCommit = std::function<void(int64_t server_version)>;

  // `db` and `logger` must outlive the service; `on_commit` (may be empty)
  // runs on the calling thread after each push that applied something.
  SyncService(core::store::Database& db, core::platform::Logger& logger, OnCommit on_commit = {});

  http::Response Push(const http::Request& request, const http::Target& target);
  http::Response Pull(const http::Request& request, const http::Target& target);

 private:
  // The error response for `status`, logging what the client is not told.
  http::StringResponse Failure(const core::Status& status, std::string_view route);

  core::store::Database& db_;
  core::platform::Logger& logger_;
  core::sync::ServerSync sync_;
  OnCommit on_commit_;
};

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_SYNC_SERVICE_H_
