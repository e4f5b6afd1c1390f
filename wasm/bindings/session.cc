#include "wasm/bindings/session.h"

#include <sqlite3.h>

#include "core/hub/hub.h"
#include "core/hub/hub_tools.h"
#include "wasm/bindings/json_edge.h"
#include "wasm/opfs_sah_vfs.h"

namespace ensemble::wasm {
namespace {
// WAL needs shared memory the OPFS VFS does not have; TRUNCATE leaves the
// pooled journal file in place (empty = no journal) instead of deleting it.
// Temp tables and sorts stay in memory: the pool has no file for them.
constexpr char kFilePragmas[] = "PRAGMA journal_mode = TRUNCATE; PRAGMA temp_store = MEMORY;";
}  // namespace

Session& Session::Get() {
  static Session* session = new Session();  // Never destroyed: no exit-time order issues.
  return *session;
}

core::Status Session::Open(const std::string& path, const std::string& vfs) {
  if (is_open()) {
    return core::Status(codes::kAlreadyOpen, "a database is already open; close() it first");
  }
  if (path.empty()) return core::Status(core::codes::kInvalidArgument, "path must not be empty");
  if (vfs == kOpfsSahVfsName) {
    int rc = RegisterOpfsSahVfs();
    if (rc != SQLITE_OK) {
      return core::Status(core::codes::kStorage,
                          std::string("cannot register the OPFS VFS: ") + sqlite3_errstr(rc));
    }
  }
  ENSEMBLE_ASSIGN_OR_RETURN(auto db, core::store::SqliteDatabase::Open(path, vfs));
  if (path != ":memory:") ENSEMBLE_RETURN_IF_ERROR(db->ExecScript(kFilePragmas));
  ENSEMBLE_RETURN_IF_ERROR(core::hub::Migrate(*db));
  ENSEMBLE_ASSIGN_OR_RETURN(auto replica,
                            core::sync::ClientReplica::Open(*db, env_.env(), core::hub::Config()));
  db_ = std::move(db);
  replica_ = std::move(replica);
  return core::Status::Ok();
}

void Session::Close() {
  replica_.reset();  // Refers to db_; goes first.
  db_.reset();
}

core::Status Session::CheckOpen() const {
  if (is_open()) return core::Status::Ok();
  return core::Status(codes::kNotOpen, "no database is open; call open() first");
}

core::tools::ToolContext Session::ToolContext() {
  core::tools::ToolContext ctx = core::hub::NewToolContext();
  ctx.db = db_.get();
  ctx.now_ms = env().clock->NowMillis();
  ctx.time_zone = "UTC";
  ctx.random = env().random;
  ctx.write = core::tools::ReplicaMutationSink(*replica_);
  return ctx;
}

}  // namespace ensemble::wasm
