// Session: the one database the wasm module has open, and the client replica
// over it. The bindings of every area reach the open database through it.
//
// There is at most one session per module instance: the browser keeps one
// database per origin, owned by the db worker, and the OPFS VFS does no
// locking, so a second connection to the same file would corrupt it.
//
// Thread-safety: not thread-safe; the wasm module is single-threaded.

#ifndef ENSEMBLE_WASM_BINDINGS_SESSION_H_
#define ENSEMBLE_WASM_BINDINGS_SESSION_H_

#include <memory>
#include <string>

#include "core/base/status.h"
#include "core/platform/env.h"
#include "core/store/sqlite_database.h"
#include "core/sync/client_replica.h"
#include "core/tools/tool_context.h"
#include "wasm/platform/browser_env.h"

namespace ensemble::wasm {

class Session {
 public:
  // The module's session (created on first use, never destroyed).
  static Session& Get();

  // Opens `path` with SQLite VFS `vfs` ("" for the default, kOpfsSahVfsName
  // for OPFS), brings it to the hub schema and opens the replica over it.
  core::Status Open(const std::string& path, const std::string& vfs);
  // Closes the database; a no-op when none is open.
  void Close();

  bool is_open() const { return replica_ != nullptr; }
  // NOT_OPEN unless is_open().
  core::Status CheckOpen() const;

  // Precondition: is_open().
  core::sync::ClientReplica& replica() { return *replica_; }
  core::store::Database& db() { return *db_; }

  core::platform::Env env() { return env_.env(); }

  // The replica's tool context: the trusted local person (the device's own
  // copy), writes to the outbox; no settings here (the settings tools say
  // so). Precondition: is_open().
  core::tools::ToolContext ToolContext();

 private:
  Session() = default;

  BrowserEnv env_;
  std::unique_ptr<core::store::SqliteDatabase> db_;
  std::unique_ptr<core::sync::ClientReplica> replica_;
};

}  // namespace ensemble::wasm

#endif  // ENSEMBLE_WASM_BINDINGS_SESSION_H_
