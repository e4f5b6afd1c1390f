// The first screen, played on the instrumented module to record which
// functions it runs (wasm/CMakeLists.txt, "Two halves"): wasm-split keeps
// those in ensemble_core.wasm and moves the rest to
// ensemble_core.deferred.wasm, loaded when first called.
//
//   node wasm/split/first_screen.mjs ensemble_core.js instrumented.wasm out.profile
//
// It makes the calls the db worker and the task list make from a start to a
// synced, edited list (web-shell/db-worker.js start(), state.js refresh(),
// sync.js through its real SyncLoop): anything it misses still works, but
// costs the first screen the deferred half's download, which
// tests/e2e/task_list.test.mjs catches. A call belongs here when the first
// screen makes it; the assistant, calendars and the other views do not.

import fs from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

import {MemoryAccessHandle} from '../../tools/lib/core_loader.mjs';
import {SyncLoop} from '../../web-shell/sync.js';

const [jsPath, wasmPath, profilePath] = process.argv.slice(2);
if (!profilePath) {
  console.error('usage: first_screen.mjs GLUE.js INSTRUMENTED.wasm OUT.profile');
  process.exit(2);
}

const kSpace = 'personal';
const kPoolFiles = ['ensemble.db', 'ensemble.db-journal'];
const kProject = '01JB0000000000000000000P01';
const kPerson = '01JB0000000000000000000R01';

function ok(text, what) {
  const out = JSON.parse(text);
  if (!out.ok) throw new Error(`${what}: ${out.code}: ${out.message}`);
  return out;
}

// Takes pushes and pages pulls like the server (pages of up to 1,000 rows):
// every pushed task.create comes back as a row, with rows another device
// made.
class FirstScreenServer {
  constructor() {
    this.lastMutationId = 0;
    this.changes = [];
  }

  addRow(row) {
    this.changes.push({...row, row_version: this.changes.length + 1});
  }

  async fetch(url, init = {}) {
    const u = new URL(url, 'http://server');
    const json = (body) => new Response(JSON.stringify(body), {status: 200});
    if (u.pathname === '/healthz') return json({ok: true});
    if (u.pathname === '/api/sync/push') {
      const {mutations} = JSON.parse(init.body);
      const results = mutations.map((m) => {
        this.lastMutationId = m.id;
        if (m.name === 'task.create') this.addRow(taskRow(m.args.id, m.args.title, m.clientTime));
        return {id: m.id, status: 'applied'};
      });
      return json({lastMutationId: this.lastMutationId, results});
    }
    if (u.pathname === '/api/sync/pull') {
      const cursor = Number(u.searchParams.get('cursor'));
      const newer = this.changes.filter((row) => row.row_version > cursor);
      const page = newer.slice(0, 1000);
      return json({
        cursor: page.length ? page.at(-1).row_version : cursor,
        lastMutationId: this.lastMutationId,
        changes: page.map((row) => ({kind: 'task', row})),
        more: newer.length > page.length,
      });
    }
    return new Response('{}', {status: 404});
  }
}

// A task as the server's pull sends it; `i` varies the fields a real list
// has (due dates, people, labels, priorities, links between tasks).
const kStatuses = ['todo', 'doing', 'done', 'todo'];
const kPriorities = ['none', 'low', 'high', 'urgent'];
function taskRow(id, title, at, i = 0) {
  const some = (list) => JSON.stringify(i % 3 === 0 ? list : []);
  return {id, space_id: kSpace, title, status: kStatuses[i % 4],
          due: i % 2 ? `2026-12-${String(1 + (i % 28)).padStart(2, '0')}` : null,
          description: i % 5 ? '' : `Notes for ${title}`, priority: kPriorities[i % 4],
          project: i % 4 === 1 ? kProject : null, people: some([kPerson]),
          labels: some(['outside', 'errand']), depends_on: '[]', blocks: '[]', page: null,
          version: 1 + (i % 3), deleted: 0, created_at: at, updated_at: at};
}

const factory = (await import(pathToFileURL(path.resolve(jsPath)).href)).default;
const core = await factory({wasmBinary: fs.readFileSync(wasmPath)});

// db-worker.js start(): limits, the pool, the database; where OPFS is
// missing, a database in memory (the worker's fallback, and what
// forgetDevice() reopens).
ok(core.limits(), 'limits');
ok(core.open(':memory:', ''), 'open in memory');
ok(core.listTasks(), 'listTasks in memory');
ok(core.close(), 'close');
core.useSahPool(kPoolFiles, kPoolFiles.map(() => new MemoryAccessHandle()));
ok(core.open(kPoolFiles[0], 'opfs-sah'), 'open');

// state.js: the top of the list, then everything the views read.
const server = new FirstScreenServer();
const loop = new SyncLoop({core, fetchImpl: (url, init) => server.fetch(url, init),
                           baseUrl: 'http://server', events: {}, eventSourceImpl: null});
async function readAll() {
  ok(core.listOpenTasks(kSpace, 100), 'listOpenTasks');
  ok(core.listTasks(), 'listTasks');
  ok(core.rejections(), 'rejections');
  ok(core.listTrash(), 'listTrash');
  for (const kind of ok(core.recordKinds(), 'recordKinds').kinds) {
    ok(core.listRecords(kind, JSON.stringify({deleted: false})), `listRecords ${kind}`);
  }
  ok(core.pendingCount(), 'pendingCount');
}
await readAll();

// A first visit: another device's 5,000 tasks arrive in full pages (large
// transactions: SQLite's B-tree splits and cache spills run here, not with
// a few rows); the person adds, edits, ticks off and deletes a few; the loop
// pushes and pulls; another device's edits and deletions arrive.
const now = Date.now();
const remoteId = (i) => `remote-${String(i).padStart(5, '0')}`;
for (let i = 0; i < 5000; i++) server.addRow(taskRow(remoteId(i), `Remote task ${i}`, now - i, i));
await loop.kick();
for (let i = 0; i < 300; i += 3) {
  server.addRow({...taskRow(remoteId(i), `Remote task ${i}, edited`, now, i + 1), deleted: i % 2});
}
ok(core.mutate('project.create', JSON.stringify({id: kProject, spaceId: kSpace, title: 'Garden'})),
   'project.create');
ok(core.mutate('person.create', JSON.stringify({id: kPerson, spaceId: kSpace, name: 'Ana Lima'})),
   'person.create');
const ids = [];
for (let i = 0; i < 5; i++) {
  const {id} = ok(core.newId(), 'newId');
  const fields = i % 2 ? {due: '2026-12-24', project: kProject, people: [kPerson],
                          labels: ['outside'], priority: 'high'} : {};
  ok(core.mutate('task.create', JSON.stringify({id, spaceId: kSpace, title: `Mine ${i}`, ...fields})),
     'task.create');
  ids.push(id);
}
ok(core.mutate('task.update', JSON.stringify({id: ids[0], fields: {title: 'Renamed'}})),
   'task.update title');
ok(core.mutate('task.update', JSON.stringify({id: ids[1], fields: {status: 'done'}})),
   'task.update status');
ok(core.mutate('task.delete', JSON.stringify({id: ids[2]})), 'task.delete');
await readAll();
await loop.kick();
await readAll();
loop.stop();

// A reload: the same files, a database that exists (no migrations to run),
// read and synced again.
ok(core.close(), 'close');
ok(core.open(kPoolFiles[0], 'opfs-sah'), 'reopen');
await readAll();
const reloaded = new SyncLoop({core, fetchImpl: (url, init) => server.fetch(url, init),
                               baseUrl: 'http://server', events: {}, eventSourceImpl: null});
await reloaded.kick();
reloaded.stop();

// The profile: wasm-split's export writes it into memory and gives its size.
const writeProfile = core.asm.__write_profile;
const size = writeProfile(0, 0);
const at = core._malloc(size);
writeProfile(at, size);
fs.writeFileSync(profilePath, new Uint8Array(core.asm.memory.buffer, at, size));
core._free(at);
