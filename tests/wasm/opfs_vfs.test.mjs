// The "opfs-sah" SQLite VFS (wasm/opfs_sah_vfs.cc) driven through fake sync
// access handles (core_loader.mjs's MemoryAccessHandle), since Node has no
// OPFS: the browser run of the same code is tests/e2e/offline_sync.test.mjs.
// Covers persistence across a reopen (a page reload), the rollback journal
// (empty = absent, so it is truncated on commit), recovery from a crash in the
// middle of a commit, and a full disk.

import assert from 'node:assert/strict';
import {test} from 'node:test';

import {call, loadCore, MemoryAccessHandle, ok} from '../../tools/lib/core_loader.mjs';

const kNames = ['ensemble.db', 'ensemble.db-journal'];

async function openOn(db, journal) {
  const core = await loadCore();
  core.useSahPool(kNames, [db, journal]);
  const opened = call(core, 'open', 'ensemble.db', 'opfs-sah');
  return {core, opened};
}

function create(core, title) {
  const id = ok(core, 'newId').id;
  return ok(core, 'mutate', 'task.create', JSON.stringify({id, spaceId: 'personal', title}));
}

const titles = (core) => ok(core, 'listTasks').tasks.map((t) => t.title);

test('the database lives in the pooled file and survives a reopen', async () => {
  const db = new MemoryAccessHandle();
  const journal = new MemoryAccessHandle();
  const first = await openOn(db, journal);
  assert.equal(first.opened.ok, true, first.opened.message);
  create(first.core, 'Survives reload');
  ok(first.core, 'close');
  first.core.closeSahPool();
  assert.ok(db.closed && journal.closed);

  assert.ok(db.size >= 4096, 'pages were written to the db handle');
  assert.equal(journal.size, 0, 'the journal is emptied (absent) after each commit');
  assert.ok(db.flushes > 0, 'commits flush the handle');
  assert.equal(new TextDecoder().decode(db.bytes.subarray(0, 15)), 'SQLite format 3');

  // A reload: new handles over the same bytes, a new module instance.
  const second = await openOn(new MemoryAccessHandle(db.snapshot()), new MemoryAccessHandle());
  assert.equal(second.opened.ok, true);
  assert.equal(second.opened.clientId, first.opened.clientId, 'the client id is kept');
  assert.deepEqual(titles(second.core), ['Survives reload']);
  assert.equal(ok(second.core, 'pendingCount').count, 1);
  assert.equal(ok(second.core, 'pushRequest').request.mutations[0].args.title, 'Survives reload');
});

test('a commit writes a few pages, not the whole file', async () => {
  const db = new MemoryAccessHandle();
  const {core} = await openOn(db, new MemoryAccessHandle());
  const rows = [];
  for (let i = 0; i < 2000; i++) {
    rows.push({kind: 'task', row: {
      id: `01JB${String(i).padStart(22, '0')}`, space_id: 'personal', title: `Seeded task ${i}`,
      status: 'todo', due: null, version: 1, deleted: 0, created_at: 1, updated_at: 1, row_version: 1,
    }});
  }
  ok(core, 'applyPull', JSON.stringify({cursor: 1, lastMutationId: 0, changes: rows, more: false}));
  const sizeBefore = db.size;
  let bytesWritten = 0;
  db.beforeWrite = () => {};
  const realWrite = db.write.bind(db);
  db.write = (view, opts) => {
    bytesWritten += view.length;
    return realWrite(view, opts);
  };
  create(core, 'One more');
  assert.ok(sizeBefore > 200 * 1024, `seeded file is ${sizeBefore} bytes`);
  // Each changed page is written twice (journal, then file): the task's row,
  // its table's indexes, the search index's recent row and its count, and
  // the link index come to about 20 of the file's 400.
  assert.ok(bytesWritten <= 24 * 4096, `one commit wrote ${bytesWritten} bytes of ${sizeBefore}`);
});

test('a crash in the middle of a commit rolls back on the next open', async () => {
  const db = new MemoryAccessHandle();
  const journal = new MemoryAccessHandle();
  const {core} = await openOn(db, journal);
  for (let i = 0; i < 50; i++) create(core, `Before ${i}`);

  // Die on the second page write to the database file, after the journal
  // was written and synced: the file now holds a half-applied transaction.
  let crashed = null;
  let dbWrites = 0;
  db.beforeWrite = () => {
    if (++dbWrites === 2) {
      crashed = {db: db.snapshot(), journal: journal.snapshot()};
      throw new DOMException('the tab went away', 'InvalidStateError');
    }
  };
  const updates = [];
  for (const t of ok(core, 'listTasks').tasks) {
    updates.push({kind: 'task', row: {
      id: t.id, space_id: 'personal', title: `${t.title} (renamed by the server, a long title to touch many pages)`,
      status: 'done', due: null, version: 2, deleted: 0, created_at: t.createdAt, updated_at: t.updatedAt,
      row_version: 2,
    }});
  }
  const r = call(core, 'applyPull', JSON.stringify({cursor: 2, lastMutationId: 0, changes: updates, more: false}));
  assert.equal(r.ok, false);
  assert.equal(r.code, 'STORAGE_ERROR');
  assert.ok(crashed, 'the simulated crash happened');
  assert.ok(crashed.journal.length > 0, 'a hot journal was left behind');

  const reopened = await openOn(new MemoryAccessHandle(crashed.db), new MemoryAccessHandle(crashed.journal));
  assert.equal(reopened.opened.ok, true, reopened.opened.message);
  const after = ok(reopened.core, 'listTasks').tasks;
  assert.equal(after.length, 50);
  assert.ok(after.every((t) => t.title.startsWith('Before ') && t.status === 'todo'),
            'the half-written transaction was rolled back');
  assert.equal(ok(reopened.core, 'pendingCount').count, 50);
});

test('a full disk is a storage error and the database stays usable', async () => {
  const db = new MemoryAccessHandle();
  const {core} = await openOn(db, new MemoryAccessHandle());
  create(core, 'Fits');
  db.beforeWrite = () => {
    throw new DOMException('quota', 'QuotaExceededError');
  };
  const r = call(core, 'mutate', 'task.create',
                 JSON.stringify({id: ok(core, 'newId').id, spaceId: 'personal', title: 'Does not fit'}));
  assert.equal(r.ok, false);
  assert.equal(r.code, 'STORAGE_ERROR');
  assert.match(r.message, /full/i);
  assert.equal(core.sahPool.lastError.name, 'QuotaExceededError');

  db.beforeWrite = null;  // Space was freed.
  create(core, 'Fits again');
  assert.deepEqual(titles(core).sort(), ['Fits', 'Fits again']);
  assert.equal(ok(core, 'pendingCount').count, 2);
});

// Counts the reads a handle answers with fewer bytes than asked for.
function countingShortReads(handle, maxChunk = Infinity) {
  const read = handle.read.bind(handle);
  handle.shortReads = 0;
  handle.read = (view, opts) => {
    const n = read(view.length > maxChunk ? view.subarray(0, maxChunk) : view, opts);
    if (n < view.length) handle.shortReads++;
    return n;
  };
  return handle;
}

async function seededDbBytes(count) {
  const db = new MemoryAccessHandle();
  const {core} = await openOn(db, new MemoryAccessHandle());
  const rows = [];
  for (let i = 0; i < count; i++) {
    rows.push({kind: 'task', row: {
      id: `01JB${String(i).padStart(22, '0')}`, space_id: 'personal', title: `Task number ${i}`,
      status: 'todo', due: null, version: 1, deleted: 0, created_at: 1, updated_at: 1, row_version: 1,
    }});
  }
  ok(core, 'applyPull', JSON.stringify({cursor: 1, lastMutationId: 0, changes: rows}));
  ok(core, 'close');
  return db.snapshot();
}

test('a handle answering in small pieces is read to the end', async () => {
  const bytes = await seededDbBytes(300);
  const handle = countingShortReads(new MemoryAccessHandle(bytes), 1000);
  const {core, opened} = await openOn(handle, new MemoryAccessHandle());
  assert.equal(opened.ok, true, opened.message);
  assert.ok(handle.shortReads > 0, 'the handle did answer in pieces');
  assert.equal(ok(core, 'listTasks').tasks.length, 300);
});

test('a file cut inside its first page reads short and fails cleanly', async () => {
  const bytes = await seededDbBytes(10);
  // The 100-byte header survives, the first page does not: SQLite reads page
  // 1 short, the VFS zero-fills it and reports SQLITE_IOERR_SHORT_READ, and
  // SQLite then finds an empty b-tree page where one must be.
  const handle = countingShortReads(new MemoryAccessHandle(bytes.slice(0, 100)));
  const {core, opened} = await openOn(handle, new MemoryAccessHandle());
  assert.ok(handle.shortReads > 0);
  const listed = opened.ok ? call(core, 'listTasks') : opened;
  assert.equal(listed.ok, false);
  assert.equal(listed.code, 'STORAGE_ERROR');
  assert.match(listed.message, /malformed|not a database/);
});

test('a file cut at its end never crashes the module', async () => {
  const bytes = await seededDbBytes(300);
  for (const cutBy of [100, 2000, 5000, 20000]) {
    const handle = new MemoryAccessHandle(bytes.slice(0, bytes.length - cutBy));
    const {core, opened} = await openOn(handle, new MemoryAccessHandle());
    for (const r of [opened, call(core, 'listTasks'), call(core, 'pendingCount'),
                     call(core, 'mutate', 'task.create', JSON.stringify(
                         {id: ok(core, 'newId').id, spaceId: 'personal', title: 'After the cut'}))]) {
      assert.equal(typeof r.ok, 'boolean');
      if (!r.ok) assert.match(r.code, /^(STORAGE_ERROR|NOT_OPEN)$/, `cut ${cutBy}: ${r.message}`);
    }
  }
});
