// The shipped module's two halves (wasm/CMakeLists.txt, "Two halves";
// wasm/js/split_pre.js): the first screen runs on the first half alone, the
// second half loads once, on first call or ahead of it, and a second half that
// cannot be read is an error the module survives.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';

import {MemoryAccessHandle, call, loadCore, ok, wasmDir} from '../../tools/lib/core_loader.mjs';

const kDeferred = 'ensemble_core.deferred.wasm';
const base = {spaceId: 'personal', today: '2026-11-30'};
const turn = (core, message) =>
  call(core, 'runLocalTurn', JSON.stringify({...base, message}));

// What db-worker.js and state.js call before the list shows, on a pool of
// files as in the browser (and in memory, the fallback).
function firstScreen(core) {
  ok(core, 'limits');
  ok(core, 'open', ':memory:', '');
  ok(core, 'close');
  const names = ['ensemble.db', 'ensemble.db-journal'];
  core.useSahPool(names, names.map(() => new MemoryAccessHandle()));
  ok(core, 'open', names[0], 'opfs-sah');
  const {id} = ok(core, 'newId');
  ok(core, 'mutate', 'task.create', JSON.stringify({id, spaceId: 'personal', title: 'Call Mira'}));
  ok(core, 'mutate', 'task.update', JSON.stringify({id, fields: {status: 'done'}}));
  ok(core, 'listOpenTasks', 'personal', 100);
  for (const kind of ok(core, 'recordKinds').kinds) {
    ok(core, 'listRecords', kind, JSON.stringify({deleted: false}));
  }
  // A reload opens the database that is there.
  ok(core, 'close');
  ok(core, 'open', names[0], 'opfs-sah');
  return ok(core, 'listTasks').tasks;
}

test('the module ships as two halves, the second with no glue of its own', () => {
  for (const name of ['ensemble_core.wasm', kDeferred, 'ensemble_core.js']) {
    assert.ok(fs.existsSync(path.join(wasmDir, name)), `${name} is missing from ${wasmDir}`);
  }
  const first = fs.statSync(path.join(wasmDir, 'ensemble_core.wasm')).size;
  const second = fs.statSync(path.join(wasmDir, kDeferred)).size;
  assert.ok(second > first, `the first screen's half (${first} B) should be the smaller`);
});

test('the first screen runs without the second half', async () => {
  const core = await loadCore();
  const tasks = firstScreen(core);
  assert.deepEqual(tasks.map((t) => [t.title, t.status]), [['Call Mira', 'done']]);
  assert.equal(core.deferredLoadedBy, null);
});

test('the second half loads on its first call, once, and answers as one module would',
     async () => {
  const core = await loadCore();
  firstScreen(core);
  const added = turn(core, 'add a task to call Mira tomorrow');
  assert.equal(added.ok, true, added.message);
  assert.deepEqual(added.calls.map((c) => [c.name, c.state]), [['hub_create_tasks', 'succeeded']]);
  assert.equal(core.deferredLoadedBy, 'call');
  // Later calls, through the same bindings, find it installed.
  const again = turn(core, 'add a task to review the budget');
  assert.equal(again.ok, true, again.message);
  assert.equal(core.deferredLoadedBy, 'call');
  assert.deepEqual(ok(core, 'listTasks').tasks.map((t) => t.title).sort(),
                   ['Call Mira', 'Call Mira', 'Review the budget']);
});

test('loadDeferred installs the second half ahead of need', async () => {
  const core = await loadCore();
  await Promise.all([core.loadDeferred(), core.loadDeferred()]);
  assert.equal(core.deferredLoadedBy, 'prefetch');
  firstScreen(core);
  assert.equal(turn(core, 'add a task to call Mira').ok, true);
  assert.equal(core.deferredLoadedBy, 'prefetch');
  await core.loadDeferred();  // Already there: nothing happens.
});

test('a second half that cannot be read fails the call, not the module', async () => {
  const wasmBinary = fs.readFileSync(path.join(wasmDir, 'ensemble_core.wasm'));
  const {default: factory} = await import(path.join(wasmDir, 'ensemble_core.js'));
  let missing = true;
  const core = await factory({
    wasmBinary,
    locateFile: (name) => path.join(wasmDir, missing && name === kDeferred ? 'gone.wasm' : name),
  });
  firstScreen(core);
  await assert.rejects(core.loadDeferred(), /gone\.wasm/);
  // A JS error through the core's frames: its cleanups ran (a transaction
  // rolls back), and the db worker answers it as an error.
  assert.throws(() => turn(core, 'add a task to call Mira'), /gone\.wasm/);
  assert.equal(core.deferredLoadedBy, null);
  assert.equal(ok(core, 'pendingCount').count, 2);
  // The first half still works, and the second loads once it can be read.
  assert.equal(ok(core, 'listTasks').tasks.length, 1);
  missing = false;
  assert.equal(turn(core, 'add a task to call Mira').ok, true);
  assert.equal(core.deferredLoadedBy, 'call');
});

// The worker's way to the second half: a synchronous XHR (the db worker has
// no file system). A stand-in for XMLHttpRequest over the build folder,
// answering 404 for what is not there, as the server would.
class FolderXhr {
  static opened = [];
  open(method, url, async) {
    assert.equal(async, false);
    FolderXhr.opened.push(url);
    this.url = url;
  }
  send() {
    const file = this.url;
    if (fs.existsSync(file)) {
      this.status = 200;
      const bytes = fs.readFileSync(file);
      this.response = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    } else {
      this.status = 404;
      this.response = null;
    }
  }
}

test('in a worker the second half comes by synchronous XHR, and a 404 is an error', async () => {
  const wasmBinary = fs.readFileSync(path.join(wasmDir, 'ensemble_core.wasm'));
  const {default: factory} = await import(path.join(wasmDir, 'ensemble_core.js'));
  let missing = true;
  globalThis.XMLHttpRequest = FolderXhr;
  try {
    const core = await factory({
      wasmBinary,
      locateFile: (name) => path.join(wasmDir, missing && name === kDeferred ? 'gone.wasm' : name),
    });
    firstScreen(core);
    assert.throws(() => turn(core, 'add a task to call Mira'), /gone\.wasm: HTTP 404/);
    missing = false;
    assert.equal(turn(core, 'add a task to call Mira').ok, true);
    assert.equal(core.deferredLoadedBy, 'call');
    assert.deepEqual(FolderXhr.opened.map((url) => path.basename(url)), ['gone.wasm', kDeferred]);
    assert.match(core.deferredFirstCall.stack, /runLocalTurn/);
  } finally {
    delete globalThis.XMLHttpRequest;
  }
});
