#include "wasm/opfs_sah_vfs.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

// Implemented in js/opfs_sah_library.js over Module.sahPool. Offsets and
// sizes cross as doubles: exact up to 2^53 and free of the i64 legalization
// this Emscripten applies to JS imports. Negative results are errors.
extern "C" {
int ensemble_sah_slot(const char* name);
int ensemble_sah_read(int slot, void* buffer, int size, double offset);
int ensemble_sah_write(int slot, const void* buffer, int size, double offset);
int ensemble_sah_truncate(int slot, double size);
int ensemble_sah_flush(int slot);
double ensemble_sah_size(int slot);
}

namespace ensemble::wasm {
namespace {

// ensemble_sah_* return this when the origin's storage quota is used up.
constexpr int kSahQuotaExceeded = -2;
// OPFS gives no sector guarantee; 4 KiB matches SQLite's own OPFS VFSes and
// the page size, so SQLite never writes a partial sector.
constexpr int kSectorSize = 4096;
constexpr int kMaxPathname = 512;

// Every open file: a pooled OPFS file (slot >= 0) or a private one in memory.
struct SahFile {
  sqlite3_file base;  // First, so SQLite's pointer is ours.
  int slot;
  bool delete_on_close;
  std::vector<uint8_t>* memory;  // Owned; only for in-memory files.
};

SahFile* AsSah(sqlite3_file* file) { return reinterpret_cast<SahFile*>(file); }

// ---- Pooled OPFS files. ----

int PoolClose(sqlite3_file* file) {
  SahFile* f = AsSah(file);
  if (f->delete_on_close && ensemble_sah_truncate(f->slot, 0) < 0) return SQLITE_IOERR_DELETE;
  return SQLITE_OK;
}

int PoolRead(sqlite3_file* file, void* out, int amount, sqlite3_int64 offset) {
  SahFile* f = AsSah(file);
  auto* dest = static_cast<uint8_t*>(out);
  int done = 0;
  while (done < amount) {
    int n =
        ensemble_sah_read(f->slot, dest + done, amount - done, static_cast<double>(offset + done));
    if (n < 0) return SQLITE_IOERR_READ;
    if (n == 0) break;  // End of file.
    done += n;
  }
  if (done < amount) {
    // SQLite relies on the unread tail being zeroed (see os_unix.c).
    std::memset(dest + done, 0, static_cast<size_t>(amount - done));
    return SQLITE_IOERR_SHORT_READ;
  }
  return SQLITE_OK;
}

int PoolWrite(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
  SahFile* f = AsSah(file);
  const auto* src = static_cast<const uint8_t*>(data);
  int done = 0;
  while (done < amount) {
    int n =
        ensemble_sah_write(f->slot, src + done, amount - done, static_cast<double>(offset + done));
    if (n == kSahQuotaExceeded) return SQLITE_FULL;
    if (n <= 0) return SQLITE_IOERR_WRITE;
    done += n;
  }
  return SQLITE_OK;
}

int PoolTruncate(sqlite3_file* file, sqlite3_int64 size) {
  return ensemble_sah_truncate(AsSah(file)->slot, static_cast<double>(size)) < 0
             ? SQLITE_IOERR_TRUNCATE
             : SQLITE_OK;
}

int PoolSync(sqlite3_file* file, int flags) {
  return ensemble_sah_flush(AsSah(file)->slot) < 0 ? SQLITE_IOERR_FSYNC : SQLITE_OK;
}

int PoolFileSize(sqlite3_file* file, sqlite3_int64* size) {
  double s = ensemble_sah_size(AsSah(file)->slot);
  if (s < 0) return SQLITE_IOERR_FSTAT;
  *size = static_cast<sqlite3_int64>(s);
  return SQLITE_OK;
}

// ---- In-memory files (statement journals, temp tables, sorter spill). ----

int MemoryClose(sqlite3_file* file) {
  SahFile* f = AsSah(file);
  delete f->memory;
  f->memory = nullptr;
  return SQLITE_OK;
}

int MemoryRead(sqlite3_file* file, void* out, int amount, sqlite3_int64 offset) {
  const std::vector<uint8_t>& m = *AsSah(file)->memory;
  auto* dest = static_cast<uint8_t*>(out);
  size_t have = offset < static_cast<sqlite3_int64>(m.size())
                    ? std::min(m.size() - static_cast<size_t>(offset), static_cast<size_t>(amount))
                    : 0;
  if (have > 0) std::memcpy(dest, m.data() + offset, have);
  if (have < static_cast<size_t>(amount)) {
    std::memset(dest + have, 0, static_cast<size_t>(amount) - have);
    return SQLITE_IOERR_SHORT_READ;
  }
  return SQLITE_OK;
}

int MemoryWrite(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
  std::vector<uint8_t>& m = *AsSah(file)->memory;
  size_t end = static_cast<size_t>(offset) + static_cast<size_t>(amount);
  // std::vector::resize throws on exhaustion; an exception must not unwind
  // through SQLite's C frames.
  try {
    if (end > m.size()) m.resize(end);
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
  std::memcpy(m.data() + offset, data, static_cast<size_t>(amount));
  return SQLITE_OK;
}

int MemoryTruncate(sqlite3_file* file, sqlite3_int64 size) {
  std::vector<uint8_t>& m = *AsSah(file)->memory;
  if (static_cast<size_t>(size) < m.size()) m.resize(static_cast<size_t>(size));
  return SQLITE_OK;
}

int MemorySync(sqlite3_file*, int) { return SQLITE_OK; }

int MemoryFileSize(sqlite3_file* file, sqlite3_int64* size) {
  *size = static_cast<sqlite3_int64>(AsSah(file)->memory->size());
  return SQLITE_OK;
}

// ---- Shared by both kinds. ----

// One worker owns the database (the pool's handles are exclusive), so there
// is nobody to lock against.
int NoLock(sqlite3_file*, int) { return SQLITE_OK; }
int NoReservedLock(sqlite3_file*, int* out) {
  *out = 0;
  return SQLITE_OK;
}
int NoFileControl(sqlite3_file*, int, void*) { return SQLITE_NOTFOUND; }
int SectorSize(sqlite3_file*) { return kSectorSize; }
int DeviceCharacteristics(sqlite3_file*) { return SQLITE_IOCAP_UNDELETABLE_WHEN_OPEN; }

constexpr sqlite3_io_methods kPoolMethods = {
    .iVersion = 1,
    .xClose = PoolClose,
    .xRead = PoolRead,
    .xWrite = PoolWrite,
    .xTruncate = PoolTruncate,
    .xSync = PoolSync,
    .xFileSize = PoolFileSize,
    .xLock = NoLock,
    .xUnlock = NoLock,
    .xCheckReservedLock = NoReservedLock,
    .xFileControl = NoFileControl,
    .xSectorSize = SectorSize,
    .xDeviceCharacteristics = DeviceCharacteristics,
};  // Version 1: no shared memory (no WAL), no memory mapping.

constexpr sqlite3_io_methods kMemoryMethods = {
    .iVersion = 1,
    .xClose = MemoryClose,
    .xRead = MemoryRead,
    .xWrite = MemoryWrite,
    .xTruncate = MemoryTruncate,
    .xSync = MemorySync,
    .xFileSize = MemoryFileSize,
    .xLock = NoLock,
    .xUnlock = NoLock,
    .xCheckReservedLock = NoReservedLock,
    .xFileControl = NoFileControl,
    .xSectorSize = SectorSize,
    .xDeviceCharacteristics = DeviceCharacteristics,
};  // Version 1: no shared memory (no WAL), no memory mapping.

// ---- The VFS. ----

sqlite3_vfs* DefaultVfs() { return sqlite3_vfs_find(nullptr); }

int Open(sqlite3_vfs*, const char* name, sqlite3_file* file, int flags, int* out_flags) {
  SahFile* f = AsSah(file);
  f->base.pMethods = nullptr;  // SQLite must not call xClose if we fail.
  f->slot = -1;
  f->memory = nullptr;
  f->delete_on_close = (flags & SQLITE_OPEN_DELETEONCLOSE) != 0;
  int slot = name ? ensemble_sah_slot(name) : -1;
  if (slot >= 0) {
    f->slot = slot;
    f->base.pMethods = &kPoolMethods;
  } else if (name == nullptr || f->delete_on_close) {
    f->memory = new (std::nothrow) std::vector<uint8_t>();
    if (!f->memory) return SQLITE_NOMEM;
    f->base.pMethods = &kMemoryMethods;
  } else {
    // A named file outside the pool (a WAL, a super-journal, an attached
    // db) would not survive a reload; refuse rather than lose data quietly.
    return SQLITE_CANTOPEN;
  }
  if (out_flags) *out_flags = flags;
  return SQLITE_OK;
}

int Delete(sqlite3_vfs*, const char* name, int sync_dir) {
  int slot = ensemble_sah_slot(name);
  if (slot < 0) return SQLITE_IOERR_DELETE_NOENT;
  if (ensemble_sah_truncate(slot, 0) < 0) return SQLITE_IOERR_DELETE;
  if (sync_dir && ensemble_sah_flush(slot) < 0) return SQLITE_IOERR_DELETE;
  return SQLITE_OK;
}

int Access(sqlite3_vfs*, const char* name, int flags, int* out) {
  int slot = ensemble_sah_slot(name);
  *out = 0;
  if (slot < 0) return SQLITE_OK;
  double size = ensemble_sah_size(slot);
  if (size < 0) return SQLITE_IOERR_ACCESS;
  *out = size > 0 ? 1 : 0;
  return SQLITE_OK;
}

int FullPathname(sqlite3_vfs*, const char* name, int out_size, char* out) {
  // Pool names are flat and already canonical.
  size_t n = std::strlen(name);
  if (n + 1 > static_cast<size_t>(out_size)) return SQLITE_CANTOPEN;
  std::memcpy(out, name, n + 1);
  return SQLITE_OK;
}

int Randomness(sqlite3_vfs*, int size, char* out) {
  return DefaultVfs()->xRandomness(DefaultVfs(), size, out);
}
int Sleep(sqlite3_vfs*, int micros) { return DefaultVfs()->xSleep(DefaultVfs(), micros); }
int CurrentTime(sqlite3_vfs*, double* out) { return DefaultVfs()->xCurrentTime(DefaultVfs(), out); }
int CurrentTimeInt64(sqlite3_vfs*, sqlite3_int64* out) {
  return DefaultVfs()->xCurrentTimeInt64(DefaultVfs(), out);
}
int GetLastError(sqlite3_vfs*, int, char*) { return 0; }

}  // namespace

int RegisterOpfsSahVfs() {
  if (sqlite3_vfs_find(kOpfsSahVfsName)) return SQLITE_OK;
  int rc = sqlite3_initialize();  // The default VFS we delegate to must exist.
  if (rc != SQLITE_OK) return rc;
  static sqlite3_vfs vfs = {};
  vfs.iVersion = 2;
  vfs.szOsFile = sizeof(SahFile);
  vfs.mxPathname = kMaxPathname;
  vfs.zName = kOpfsSahVfsName;
  vfs.xOpen = Open;
  vfs.xDelete = Delete;
  vfs.xAccess = Access;
  vfs.xFullPathname = FullPathname;
  vfs.xRandomness = Randomness;
  vfs.xSleep = Sleep;
  vfs.xCurrentTime = CurrentTime;
  vfs.xGetLastError = GetLastError;
  vfs.xCurrentTimeInt64 = CurrentTimeInt64;
  return sqlite3_vfs_register(&vfs, /*makeDflt=*/0);
}

}  // namespace ensemble::wasm
