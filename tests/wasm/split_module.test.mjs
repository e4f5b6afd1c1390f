// The shipped module's two halves (wasm/CMakeLists.txt, "Two halves";
// wasm/js/split_pre.js): the first screen runs on the first half alone, the
// second half loads once, on first call or ahead of it; a second half that
// cannot be fetched ahead of need is an error the module survives, and one a
// call cannot load gives the module up, its database intact.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {test} from 'node:test';

import {MemoryAccessHandle, call, loadCore, ok, wasmDir} from '../../tools/lib/core_loader.mjs';

const kDeferred = 'ensemble_core.deferred.wasm';
const base = {spaceId: 'personal', today: '2026-11-30'};
const turn = (core, message) =>
  call(core, 'runLocalTurn', JSON.stringify({...base, message}));

const kPoolNames = ['ensemble.db', 'ensemble.db-journal'];
const newPool = () => kPoolNames.map(() => new MemoryAccessHandle());

// What db-worker.js and state.js call before the list shows, on a pool of
// files as in the browser (and in memory, the fallback).
function firstScreen(core, pool = newPool()) {
  ok(core, 'limits');
  ok(core, 'open', ':memory:', '');
  ok(core, 'close');
  core.useSahPool(kPoolNames, pool);
  ok(core, 'open', kPoolNames[0], 'opfs-sah');
  const {id} = ok(core, 'newId');
  ok(core, 'mutate', 'task.create', JSON.stringify({id, spaceId: 'personal', title: 'Call Mira'}));
  ok(core, 'mutate', 'task.update', JSON.stringify({id, fields: {status: 'done'}}));
  ok(core, 'listOpenTasks', 'personal', 100);
  for (const kind of ok(core, 'recordKinds').kinds) {
    ok(core, 'listRecords', kind, JSON.stringify({deleted: false}));
  }
  // A reload opens the database that is there.
  ok(core, 'close');
  ok(core, 'open', kPoolNames[0], 'opfs-sah');
  return ok(core, 'listTasks').tasks;
}

// A module whose second half is read from `dir()` at the time it is asked
// for (the real folder, or one without the file).
async function coreReadingFrom(dir) {
  const wasmBinary = fs.readFileSync(path.join(wasmDir, 'ensemble_core.wasm'));
  const {default: factory} = await import(path.join(wasmDir, 'ensemble_core.js'));
  return factory({wasmBinary, locateFile: (name) => path.join(name === kDeferred ? dir() : wasmDir, name)});
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

test('a second half that cannot be read: the prefetch fails cleanly, a call gives up the module',
     async () => {
  const missingDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ensemble-split-'));
  let where = missingDir;
  const core = await coreReadingFrom(() => where);
  const pool = newPool();
  firstScreen(core, pool);
  // Ahead of need: an error before anything runs in the core, which goes on.
  await assert.rejects(core.loadDeferred(), /ENOENT/);
  assert.equal(core.deferredFailed, null);
  assert.equal(ok(core, 'listTasks').tasks.length, 1);
  // At a call: the core cannot go on from the placeholder, so the call traps
  // (no cleanup of the core runs on the way out) and the module is given up.
  let told = null;
  core.onDeferredFailed = (why) => {
    told = why;
  };
  assert.throws(() => turn(core, 'add a task to call Mira'),
                (e) => e instanceof WebAssembly.RuntimeError && /unreachable/.test(e.message));
  assert.match(core.deferredFailed, /ENOENT/);
  assert.equal(told, core.deferredFailed);
  where = wasmDir;  // Given up for good: the file being back changes nothing.
  await assert.rejects(core.loadDeferred(), /ENOENT/);
  // What was committed before is all there, in a module that opens the
  // same files (the db worker's next start), and nothing of the failed turn.
  const next = await loadCore();
  next.useSahPool(kPoolNames, pool);
  ok(next, 'open', kPoolNames[0], 'opfs-sah');
  assert.deepEqual(ok(next, 'listTasks').tasks.map((t) => [t.title, t.status]), [['Call Mira', 'done']]);
  assert.equal(ok(next, 'pendingCount').count, 2);
  assert.equal(turn(next, 'add a task to call Mira').ok, true);
  fs.rmSync(missingDir, {recursive: true, force: true});
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

test('in a worker the second half comes by synchronous XHR; a 404 gives the module up', async () => {
  globalThis.XMLHttpRequest = FolderXhr;
  try {
    const lost = await coreReadingFrom(() => path.join(wasmDir, 'gone'));
    firstScreen(lost);
    assert.throws(() => turn(lost, 'add a task to call Mira'), WebAssembly.RuntimeError);
    assert.match(lost.deferredFailed, /gone\/ensemble_core\.deferred\.wasm: HTTP 404/);

    const core = await coreReadingFrom(() => wasmDir);
    firstScreen(core);
    assert.equal(turn(core, 'add a task to call Mira').ok, true);
    assert.equal(core.deferredLoadedBy, 'call');
    assert.deepEqual(FolderXhr.opened.map((url) => path.relative(wasmDir, url)),
                     [path.join('gone', kDeferred), kDeferred]);
    assert.match(core.deferredFirstCall.stack, /runLocalTurn/);
  } finally {
    delete globalThis.XMLHttpRequest;
  }
});
