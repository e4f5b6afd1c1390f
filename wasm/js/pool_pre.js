// Linked with --pre-js: the asynchronous half of the "opfs-sah" VFS, run by
// the db worker before it opens the database (the synchronous half is
// opfs_sah_library.js).
//
// FileSystemSyncAccessHandles can only be created asynchronously, and SQLite
// calls its VFS synchronously, so the worker opens a fixed pool of handles
// once, up front. Creating a handle takes an exclusive lock on the file: while
// one tab's worker holds the pool, another tab's attempt fails with
// NoModificationAllowedError (see openOpfsPool), so two tabs can never write
// the same database.

// Makes `handles[i]` the file SQLite knows as `names[i]` (for the Node tests,
// any objects with the FileSystemSyncAccessHandle methods).
Module['useSahPool'] = function (names, handles) {
  if (names.length !== handles.length) throw new TypeError('useSahPool: names and handles differ');
  Module['sahPool'] = {names: names.slice(), handles: handles.slice(), lastError: null};
};

// Opens (creating if needed) `fileNames` in OPFS folder `dirName` and makes
// them the pool. Rejects with the DOMException of the first file that cannot
// be opened; error.name === 'NoModificationAllowedError' means another tab
// holds the database.
Module['openOpfsPool'] = async function (dirName, fileNames) {
  const root = await navigator.storage.getDirectory();
  const dir = await root.getDirectoryHandle(dirName, {create: true});
  const handles = [];
  try {
    for (const name of fileNames) {
      const file = await dir.getFileHandle(name, {create: true});
      handles.push(await file.createSyncAccessHandle());
    }
  } catch (e) {
    for (const h of handles) h.close();
    throw e;
  }
  Module['useSahPool'](fileNames, handles);
};

// Releases the pool's handles (and their locks). Close the database first.
Module['closeSahPool'] = function () {
  const pool = Module['sahPool'];
  Module['sahPool'] = null;
  if (!pool) return;
  for (const h of pool.handles) {
    try {
      if (typeof h.close === 'function') h.close();
    } catch (e) {
      // Already closed: nothing left to release.
    }
  }
};
