// A SQLite VFS ("opfs-sah") that keeps the browser database in the Origin
// Private File System through FileSystemSyncAccessHandles, in the manner of
// SQLite's own "opfs-sahpool": the db worker opens a small fixed pool of
// handles asynchronously at start (js/opfs_pool.js), and from then on every
// read, write, truncate, sync and size query is a synchronous call on a
// handle. Writes touch only the pages a transaction changes, so a commit costs
// the same with a thousand rows as with a million, and no special HTTP headers
// (cross-origin isolation, SharedArrayBuffer) are needed.
//
// Files are matched by exact name against the pool ("ensemble.db",
// "ensemble.db-journal"). A pooled file whose size is 0 counts as absent, so
// deleting the rollback journal truncates it. Temporary files SQLite asks for
// without a name live in memory. Locking is a no-op: the pool's handles are
// exclusive, so only one worker (one tab) can hold the database at a time.
// Use journal_mode TRUNCATE or DELETE; WAL needs shared memory this VFS does
// not offer.
//
// Thread-safety: single-threaded, like the wasm module; one connection.

#ifndef ENSEMBLE_WASM_OPFS_SAH_VFS_H_
#define ENSEMBLE_WASM_OPFS_SAH_VFS_H_

namespace ensemble::wasm {

inline constexpr char kOpfsSahVfsName[] = "opfs-sah";

// Registers the VFS with SQLite (not as the default). Safe to call again;
// returns a SQLite result code.
int RegisterOpfsSahVfs();

}  // namespace ensemble::wasm

#endif  // ENSEMBLE_WASM_OPFS_SAH_VFS_H_
