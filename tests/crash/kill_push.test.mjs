// Crash safety of push: one client pushes 10,000 task.create mutations in
// batches to the real server process, which is killed with SIGKILL at random
// points mid-push and restarted on the same data. The client resumes as a
// real one would, re-sending from the first batch it never saw acknowledged
// (not knowing whether the in-flight batch committed). At the end a full pull
// must hold every task exactly once, and the server's lastMutationId must be
// the last mutation.
//
// Runs on the embedded SQLite store always, and on PostgreSQL when
// ENSEMBLE_TEST_DATABASE_URL names a server (a fresh database per run);
// ENSEMBLE_REQUIRE_PG=1 turns a missing PostgreSQL into a failure.
// ENSEMBLE_CRASH_SEED=N replays one run's kill points.

import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import {test} from 'node:test';

import {createPgDatabase, freePort, ServerProcess, tempDir} from '../../tools/lib/harness.mjs';

const kMutations = 10000;
const kBatch = 500;  // Under the server's kMaxPushMutations (1,000).
const kKills = 2;
// The kill lands up to this many times the last clean batch's round trip
// after the batch was sent: from before the server has read it to after it
// has committed and answered, so both "rolled back" and "committed, answer
// lost" happen across runs.
const kKillDelaySpread = 1.3;
const kMaxPullPages = 100;  // 10,000 rows at 1,000 a page, with room.
const kTestTimeoutMs = 180000;
const kRequestTimeoutMs = 30000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// mulberry32: a small seeded generator, so a failing run can be replayed.
function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A record id as core/base/id.cc makes them: 26 Crockford base32 digits, the
// first at most '7'. Time-ordered by `n`, unique per run.
const kAlphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function recordId(prefix, n) {
  let s = '';
  let v = n;
  for (let i = 0; i < 8; ++i) {
    s = kAlphabet[v % 32] + s;
    v = Math.floor(v / 32);
  }
  return `01${prefix}${s}`;  // 2 + 16 + 8 = 26.
}

function makeMutations() {
  const prefix = Array.from(crypto.randomBytes(16), (b) => kAlphabet[b % 32]).join('');
  const t0 = Date.now();
  return Array.from({length: kMutations}, (_, i) => ({
    id: i + 1,
    name: 'task.create',
    args: {id: recordId(prefix, i), spaceId: 'personal', title: `crash task ${i + 1}`},
    clientTime: t0 + i,
  }));
}

async function post(server, body) {
  const res = await fetch(`${server.url}/api/sync/push`, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(kRequestTimeoutMs),
  });
  const json = await res.json();
  assert.equal(res.status, 200, `push answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

// What a resend of a batch whose answer went down with the server says about it.
const resentOutcome = (response) =>
  response.results[0].status === 'skipped' ? 'committed, answer lost' : 'rolled back';

async function killHard(server) {
  const child = server.child;
  child.kill('SIGKILL');
  await server.exited;
  assert.equal(child.signalCode, 'SIGKILL');
  server.child = null;
}

async function pullAll(server, clientId) {
  const rows = [];
  let cursor = 0;
  let lastMutationId = -1;
  for (let page = 0; page < kMaxPullPages; ++page) {
    const res = await fetch(`${server.url}/api/sync/pull?clientId=${clientId}&cursor=${cursor}`,
                            {signal: AbortSignal.timeout(kRequestTimeoutMs)});
    assert.equal(res.status, 200);
    const body = await res.json();
    for (const c of body.changes) rows.push(c.row);
    cursor = body.cursor;
    lastMutationId = body.lastMutationId;
    if (!body.more) return {rows, lastMutationId};
  }
  assert.fail(`pull did not finish in ${kMaxPullPages} pages`);
}

async function killDuringPush({databaseUrl}) {
  const seed = Number(process.env.ENSEMBLE_CRASH_SEED ?? crypto.randomInt(1, 2 ** 31));
  const random = seededRandom(seed);
  const dataDir = tempDir('ensemble-crash-');
  const server = new ServerProcess({port: await freePort(), dataDir, databaseUrl});
  const mutations = makeMutations();
  const batches = kMutations / kBatch;
  // Distinct batches to kill in, never the first (something committed before)
  // nor the last (something left to resume).
  const killAt = new Set();
  while (killAt.size < kKills) killAt.add(1 + Math.floor(random() * (batches - 2)));
  const clientId = `crash-${crypto.randomUUID()}`;
  const base = {clientGroupId: `group-${seed}`, clientId};
  const outcomes = [];
  try {
    await server.start();
    let acknowledged = 0;  // The client's view: the server's last lastMutationId it heard.
    let batch = 0;
    let resending = false;
    let lastBatchMs = 50;  // The previous batch's response went down with the server.
    while (acknowledged < kMutations) {
      const from = acknowledged;  // Resume from the first unacknowledged mutation.
      const body = {...base, mutations: mutations.slice(from, from + kBatch)};
      if (killAt.has(batch)) {
        killAt.delete(batch);
        const inFlight = post(server, body).then((r) => ({r}), (e) => ({e}));
        await sleep(random() * kKillDelaySpread * lastBatchMs);
        await killHard(server);
        const settled = await inFlight;
        // The response may or may not have made it out before the kill; a
        // client that got it would move on, one that did not resends.
        if (settled.r) {
          acknowledged = settled.r.lastMutationId;
          if (resending) outcomes.push(resentOutcome(settled.r));  // This batch was a resend.
          outcomes.push('answered before the kill');
        }
        if (!settled.r && resending) outcomes.push('its resend killed too');
        resending = !settled.r;
        await server.start();
      } else {
        const started = performance.now();
        const r = await post(server, body);
        lastBatchMs = performance.now() - started;
        const statuses = new Set(r.results.map((x) => x.status));
        assert.ok(!statuses.has('rejected') && !statuses.has('refused'), JSON.stringify(r.results));
        // A batch is one transaction: after a crash it committed whole or not at all.
        assert.ok(statuses.size === 1, `a batch half applied: ${[...statuses]}`);
        assert.equal(r.lastMutationId, from + body.mutations.length);
        acknowledged = r.lastMutationId;
        if (resending) {
          outcomes.push(resentOutcome(r));
          resending = false;
        }
      }
      ++batch;
    }
    assert.equal(killAt.size, 0, 'every planned kill happened');

    const {rows, lastMutationId} = await pullAll(server, clientId);
    assert.equal(lastMutationId, kMutations);
    assert.equal(rows.length, kMutations, 'exactly 10,000 tasks');
    const byTitle = new Map();
    for (const row of rows) byTitle.set(row.title, (byTitle.get(row.title) ?? 0) + 1);
    for (const m of mutations) {
      assert.equal(byTitle.get(m.args.title), 1, `"${m.args.title}" present exactly once`);
    }
    const want = new Map(mutations.map((m) => [m.args.id, m.args.title]));
    for (const row of rows) {
      assert.equal(row.title, want.get(row.id), `task ${row.id} holds its own title`);
      assert.equal(row.version, 1);
      assert.equal(row.deleted, 0);
    }
    return {seed, outcomes};
  } catch (e) {
    e.message += `\n(replay: ENSEMBLE_CRASH_SEED=${seed}; kills: ${outcomes.join(', ')})` +
                 `\n--- server log ---\n${server.log}`;
    throw e;
  } finally {
    await server.stop();
    fs.rmSync(dataDir, {recursive: true, force: true});
  }
}

test('kill -9 mid-push loses and duplicates nothing (SQLite store)', {timeout: kTestTimeoutMs},
     async (t) => {
       const {seed, outcomes} = await killDuringPush({databaseUrl: null});
       t.diagnostic(`seed ${seed}; killed batches: ${outcomes.join('; ')}`);
     });

const pgAdminUrl = process.env.ENSEMBLE_TEST_DATABASE_URL;
const requirePg = process.env.ENSEMBLE_REQUIRE_PG === '1';

test('kill -9 mid-push loses and duplicates nothing (PostgreSQL store)', {
  timeout: kTestTimeoutMs,
  skip: !pgAdminUrl && !requirePg ? 'ENSEMBLE_TEST_DATABASE_URL is not set' : false,
}, async (t) => {
  assert.ok(pgAdminUrl, 'ENSEMBLE_REQUIRE_PG=1 but ENSEMBLE_TEST_DATABASE_URL is not set');
  const pg = createPgDatabase(pgAdminUrl);
  try {
    const {seed, outcomes} = await killDuringPush({databaseUrl: pg.url});
    t.diagnostic(`seed ${seed}; killed batches: ${outcomes.join('; ')}`);
  } finally {
    pg.drop();
  }
});
