// The synchronous file calls behind the "opfs-sah" SQLite VFS
// (wasm/opfs_sah_vfs.cc), linked with --js-library.
//
// They act on Module.sahPool = {names: [string], handles: [handle]}, set by
// Module.useSahPool (see pool_pre.js). A handle is a
// FileSystemSyncAccessHandle in the browser, or anything with the same
// read/write/truncate/flush/getSize methods (the Node tests use one over a
// Buffer). Every call catches: a JS exception must never unwind through
// SQLite's C frames. Errors come back as -1 (-2 when the storage quota is
// exhausted) and the exception is kept in Module.sahPool.lastError.

mergeInto(LibraryManager.library, {
  $sahFail: function (error) {
    const pool = Module['sahPool'];
    if (pool) pool.lastError = error;
    return error && error.name === 'QuotaExceededError' ? -2 : -1;
  },

  ensemble_sah_slot: function (namePtr) {
    const pool = Module['sahPool'];
    if (!pool) return -1;
    return pool.names.indexOf(UTF8ToString(namePtr));
  },

  ensemble_sah_read__deps: ['$sahFail'],
  ensemble_sah_read: function (slot, ptr, size, offset) {
    try {
      return Module['sahPool'].handles[slot].read(HEAPU8.subarray(ptr, ptr + size), {at: offset});
    } catch (e) {
      return sahFail(e);
    }
  },

  ensemble_sah_write__deps: ['$sahFail'],
  ensemble_sah_write: function (slot, ptr, size, offset) {
    try {
      return Module['sahPool'].handles[slot].write(HEAPU8.subarray(ptr, ptr + size), {at: offset});
    } catch (e) {
      return sahFail(e);
    }
  },

  ensemble_sah_truncate__deps: ['$sahFail'],
  ensemble_sah_truncate: function (slot, size) {
    try {
      Module['sahPool'].handles[slot].truncate(size);
      return 0;
    } catch (e) {
      return sahFail(e);
    }
  },

  ensemble_sah_flush__deps: ['$sahFail'],
  ensemble_sah_flush: function (slot) {
    try {
      Module['sahPool'].handles[slot].flush();
      return 0;
    } catch (e) {
      return sahFail(e);
    }
  },

  ensemble_sah_size__deps: ['$sahFail'],
  ensemble_sah_size: function (slot) {
    try {
      return Module['sahPool'].handles[slot].getSize();
    } catch (e) {
      return sahFail(e);
    }
  },
});
