// web-shell/sync.js, the browser's push/pull loop, driven in Node with the
// real wasm core as the replica and a scripted fake server behind a fake
// fetch: when it pushes and pulls, how it pages, and how it treats an
// unreachable server (retry later, keep everything) versus a refusal (stop
// and show it).

import assert from 'node:assert/strict';
import {beforeEach, test} from 'node:test';

import {SyncLoop} from '../../web-shell/sync.js';
import {loadCore, ok} from '../../tools/lib/core_loader.mjs';

// Applies pushes in order, exactly once, and pulls back rows stamped with
// a change counter, like the real server (without running mutators: it
// echoes the task.create arguments as rows).
class FakeServer {
  constructor() {
    this.up = true;
    this.lastMutationId = 0;
    this.changes = [];  // [{version, row}]
    this.requests = [];
    this.pageSize = 1000;
    this.nextPushStatus = null;  // e.g. 503 or 400 for the next push.
    this.rejectIds = new Set();
  }

  async fetch(url, init = {}) {
    const u = new URL(url, 'http://server');
    this.requests.push(`${init.method ?? 'GET'} ${u.pathname}`);
    if (!this.up) throw new TypeError('fetch failed');
    const json = (status, body) => new Response(JSON.stringify(body), {status});
    if (u.pathname === '/healthz') return json(200, {ok: true});
    if (u.pathname === '/api/sync/push') {
      if (this.nextPushStatus) {
        const status = this.nextPushStatus;
        this.nextPushStatus = null;
        const code = {400: 'INVALID_ARGUMENT', 500: 'INTERNAL', 503: 'STORAGE_ERROR'}[status];
        return json(status, {error: {code, message: 'scripted failure'}});
      }
      const body = JSON.parse(init.body);
      const results = body.mutations.map((m) => {
        if (m.id <= this.lastMutationId) return {id: m.id, status: 'skipped'};
        this.lastMutationId = m.id;
        if (this.rejectIds.has(m.id)) {
          return {id: m.id, status: 'rejected', code: 'SAVE_CONFLICT', message: 'changed elsewhere'};
        }
        const version = this.changes.length + 1;
        this.changes.push({version, row: {
          id: m.args.id, space_id: m.args.spaceId, title: m.args.title.trim(), status: 'todo',
          due: null, version: 1, deleted: 0, created_at: m.clientTime, updated_at: m.clientTime,
          row_version: version,
        }});
        return {id: m.id, status: 'applied'};
      });
      return json(200, {lastMutationId: this.lastMutationId, results});
    }
    if (u.pathname === '/api/sync/pull') {
      const cursor = Number(u.searchParams.get('cursor'));
      const newer = this.changes.filter((c) => c.version > cursor);
      const page = newer.slice(0, this.pageSize);
      return json(200, {
        cursor: page.length ? page.at(-1).version : cursor,
        lastMutationId: this.lastMutationId,
        changes: page.map((c) => ({kind: 'task', row: c.row})),
        more: newer.length > page.length,
      });
    }
    return json(404, {error: {code: 'NOT_FOUND', message: u.pathname}});
  }
}

let core;
let server;
let states;
let changed;
let loop;

beforeEach(async () => {
  core = await loadCore();
  ok(core, 'open', ':memory:', '');
  server = new FakeServer();
  states = [];
  changed = 0;
  loop = new SyncLoop({
    core,
    fetchImpl: (url, init) => server.fetch(url, init),
    baseUrl: 'http://server',
    onState: (s) => states.push(s),
    onChanged: () => changed++,
    events: {},  // No window events in Node.
  });
});

function create(title) {
  const id = ok(core, 'newId').id;
  ok(core, 'mutate', 'task.create', JSON.stringify({id, spaceId: 'personal', title}));
  return id;
}

const pending = () => ok(core, 'pendingCount').count;
const last = () => states.at(-1);

test('offline: nothing is sent, everything stays queued', async () => {
  server.up = false;
  create('Queued');
  await loop.kick();
  assert.equal(last().online, false);
  assert.equal(last().pending, 1);
  assert.deepEqual(server.requests, ['GET /healthz']);
  assert.equal(pending(), 1);
});

test('online: push, then pull confirms and empties the outbox', async () => {
  create('One');
  create('Two');
  await loop.kick();
  assert.deepEqual(server.requests, ['GET /healthz', 'POST /api/sync/push', 'GET /api/sync/pull']);
  assert.equal(server.lastMutationId, 2);
  assert.equal(pending(), 0);
  assert.deepEqual({online: last().online, syncing: last().syncing, pending: last().pending, error: last().error},
                   {online: true, syncing: false, pending: 0, error: null});
  assert.ok(changed > 0);
  const rows = ok(core, 'listTasks').tasks;
  // Sorted: two ids made in the same millisecond do not order by creation.
  assert.deepEqual(rows.map((t) => t.title).sort(), ['One', 'Two']);
});

test('pulls page after page while the server says more', async () => {
  server.pageSize = 2;
  for (let i = 0; i < 5; i++) create(`Task ${i}`);
  await loop.kick();
  assert.equal(server.requests.filter((r) => r.endsWith('/pull')).length, 3);
  assert.equal(ok(core, 'pullRequest').request.cursor, 5);
  assert.equal(pending(), 0);
});

test('a server error keeps the outbox and counts as unreachable', async () => {
  create('Keep me');
  server.nextPushStatus = 503;
  await loop.kick();
  assert.equal(last().online, false);
  assert.equal(pending(), 1);
  await loop.kick();  // The next attempt goes through.
  assert.equal(pending(), 0);
  assert.equal(last().online, true);
});

test('a request the server fails on is reported, not mistaken for offline', async () => {
  create('Poison');
  server.nextPushStatus = 500;
  await loop.kick();
  assert.equal(last().online, true);
  assert.equal(last().error.code, 'INTERNAL');
  assert.match(last().error.message, /failed on/);
  assert.equal(pending(), 1);
});

test('a refused request stops the cycle and is reported', async () => {
  create('Bad batch');
  server.nextPushStatus = 400;
  await loop.kick();
  assert.equal(last().online, true);
  assert.equal(last().error.code, 'INVALID_ARGUMENT');
  assert.match(last().error.message, /scripted failure/);
  assert.equal(pending(), 1);
  await loop.kick();
  assert.equal(last().error, null, 'a later success clears the error');
});

test('a rejected mutation is recorded, remembered and leaves the outbox', async () => {
  create('Fine');
  create('Refused');
  server.rejectIds.add(2);
  await loop.kick();
  const [r] = ok(core, 'rejections').rejections;
  assert.deepEqual({id: r.id, code: r.code}, {id: 2, code: 'SAVE_CONFLICT'});
  assert.equal(r.args.title, 'Refused');
  assert.equal(pending(), 0);
});

test('kicks during a cycle run exactly one more cycle', async () => {
  create('First');
  const first = loop.kick();
  create('Second');
  const second = loop.kick();
  const third = loop.kick();
  await Promise.all([first, second, third]);
  assert.equal(server.requests.filter((r) => r === 'GET /healthz').length, 2);
  assert.equal(pending(), 0);
  assert.equal(server.lastMutationId, 2);
});

test('start() polls until stopped', async () => {
  loop = new SyncLoop({core, fetchImpl: (u, i) => server.fetch(u, i), baseUrl: 'http://server',
                       healthIntervalMs: 10, events: {}});
  const healthChecks = () => server.requests.filter((r) => r === 'GET /healthz').length;
  loop.start();
  const deadline = Date.now() + 5000;
  while (healthChecks() < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  loop.stop();
  const polls = healthChecks();
  assert.ok(polls >= 3, `${polls} polls`);
  await new Promise((r) => setTimeout(r, 100));
  assert.ok(healthChecks() <= polls + 1, 'no polling after stop()');
});

// --- Pokes: a scripted EventSource stands in for GET /api/events. ---

class FakeEventSource {
  static instances = [];

  constructor(url) {
    this.url = url;
    this.closed = false;
    this.listeners = {};
    FakeEventSource.instances.push(this);
  }

  addEventListener(type, fn) {
    (this.listeners[type] ??= []).push(fn);
  }

  close() {
    this.closed = true;
  }

  emit(type, data) {
    for (const fn of this.listeners[type] ?? []) fn({type, data});
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!what()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(2);
  }
}

// A change made on another device: in the fake server, not in this replica.
function changeElsewhere(title) {
  const version = server.changes.length + 1;
  server.changes.push({version, row: {
    id: ok(core, 'newId').id, space_id: 'personal', title, status: 'todo', due: null, version: 1,
    deleted: 0, created_at: 1, updated_at: 1, row_version: version,
  }});
  return version;
}

function pokedLoop(options = {}) {
  FakeEventSource.instances = [];
  return new SyncLoop({core, fetchImpl: (u, i) => server.fetch(u, i), baseUrl: 'http://server',
                       eventSourceImpl: FakeEventSource, healthIntervalMs: 60000, events: {},
                       onChanged: () => changed++, ...options});
}

test('a poke with news pulls; a poke for a version already here does not', async () => {
  loop = pokedLoop();
  loop.start();
  try {
    await until(() => !loop.running && server.requests.length > 0);
    const [source] = FakeEventSource.instances;
    assert.equal(source.url, 'http://server/api/events');

    const version = changeElsewhere('From another device');
    server.requests = [];
    source.emit('poke', JSON.stringify({version}));
    await until(() => server.requests.includes('GET /api/sync/pull') && !loop.running);
    assert.deepEqual(ok(core, 'listTasks').tasks.map((t) => t.title), ['From another device']);

    server.requests = [];
    source.emit('poke', JSON.stringify({version}));  // Already pulled.
    await sleep(20);
    assert.deepEqual(server.requests, []);
  } finally {
    loop.stop();
  }
});

test('pokes during a cycle are coalesced into one more pull', async () => {
  loop = pokedLoop();
  loop.start();
  try {
    await until(() => !loop.running && server.requests.length > 0);
    const [source] = FakeEventSource.instances;
    create('Mine');
    server.requests = [];
    const cycle = loop.kick();
    const v1 = changeElsewhere('One');
    source.emit('poke', JSON.stringify({version: v1}));
    const v2 = changeElsewhere('Two');
    source.emit('poke', JSON.stringify({version: v2}));
    await cycle;
    await until(() => !loop.running);
    const pulls = server.requests.filter((r) => r === 'GET /api/sync/pull').length;
    assert.ok(pulls <= 2, `${pulls} pulls for one kick and two pokes`);
    assert.deepEqual(ok(core, 'listTasks').tasks.map((t) => t.title).sort(), ['Mine', 'One', 'Two']);
  } finally {
    loop.stop();
  }
});

test('a dropped event stream is reopened with exponential backoff, reset on open', async () => {
  loop = pokedLoop({eventsRetryFirstMs: 5, eventsRetryMaxMs: 20});
  loop.start();
  try {
    const waits = [];
    for (let i = 0; i < 4; i++) {
      const source = FakeEventSource.instances.at(-1);
      source.emit('error');
      assert.ok(source.closed, 'the failed stream is closed, not left to retry by itself');
      waits.push(loop.eventsRetryMs);
      await until(() => FakeEventSource.instances.length === i + 2);
    }
    assert.deepEqual(waits, [10, 20, 20, 20], 'the next wait doubles up to the cap');
    server.requests = [];
    FakeEventSource.instances.at(-1).emit('open');
    assert.equal(loop.eventsRetryMs, 5, 'an open stream resets the backoff');
    await until(() => server.requests.includes('GET /api/sync/pull'), 1000);
  } finally {
    loop.stop();
  }
  const count = FakeEventSource.instances.length;
  await sleep(50);
  assert.equal(FakeEventSource.instances.length, count, 'no reopening after stop()');
  assert.ok(FakeEventSource.instances.at(-1).closed);
});
