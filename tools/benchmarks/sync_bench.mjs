#!/usr/bin/env node
// The sync suite of tools/bench: prints one JSON object per line,
// {"metric", "value", "unit", "better"}. Everything runs against real server
// processes on 127.0.0.1 (ENSEMBLE_SERVER_BIN, default
// build/native/server/ensemble_server), one per store, over keep-alive HTTP
// (the pushing clients through node:http, each on its own connection).
//
//   sync.push_mut_s.batchB.pg|.sqlite  task.create mutations per second, one
//                                      client pushing batches of B (1, 100,
//                                      1,000) one after another
//   sync.push_p99_ms.c50               50 clients each pushing batch-1 as fast
//                                      as answered (PostgreSQL): p99 latency
//   sync.push_mut_s.c50.pg             ... and their total rate
//   sync.catchup_10k_s.pull.pg|.sqlite a replica (the core's ClientReplica,
//                                      the wasm build under Node) offline while
//                                      another client made 10,000 changes:
//                                      pull until converged
//   sync.catchup_10k_s.push.pg|.sqlite a replica that made 10,000 changes
//                                      offline: push and pull until its outbox
//                                      is empty and it holds the server's rows
//   sync.catchup_10k_s                 the slower of the two, PostgreSQL
//   sync.pgbench_tps.c1, .c50          pgbench, a single-row INSERT per
//                                      transaction, same PostgreSQL, 1 and 50
//                                      clients
//   sync.healthz_req_s.pg              GET /healthz (one SELECT 1 through the
//                                      store) one after another, one client:
//                                      the ceiling for a request that reaches
//                                      the store
//   sync.push_ratio_node_peer          our batch-1 pushes/s ÷ the Node peer's
//                                      (node_push_peer.mjs: a Replicache-style
//                                      push handler on node-postgres, same
//                                      cluster, same client and body), one
//                                      client, in rounds alternating between
//                                      the two (ours-peer, peer-ours, …)
//   sync.push_ratio_node_peer.c50      the same with 50 clients at once
//   sync.push_per_s.batch1.pg, .c50.pg the two sides' pushes/s in those rounds
//   sync.node_peer_push_per_s.batch1,  (a ratio is the quotient of its two)
//     .c50
//
// PostgreSQL: ENSEMBLE_TEST_DATABASE_URL names an admin connection; each
// store run gets a fresh database, dropped afterwards. Without it the .pg
// metrics are skipped (tools/bench sync starts its own cluster).
// --quick: fewer mutations per measurement. Progress goes to stderr.

import {execFileSync, spawn} from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

import {createPgDatabase, freePort, ServerProcess, tempDir} from '../lib/harness.mjs';
import {loadCore, ok} from '../lib/core_loader.mjs';

const quick = process.argv.includes('--quick');
// Mutations pushed per batch size: enough for a steady rate (a second or
// more each), few enough for --quick to stay within two minutes.
const kPushMutations = quick ? {1: 1000, 100: 5000, 1000: 10000} : {1: 3000, 100: 20000, 1000: 40000};
const kConcurrentClients = 50;
const kConcurrentPushesEach = quick ? 20 : 60;
const kCatchupChanges = 10000;
const kSeedBatch = 1000;  // The server's kMaxPushMutations.
const kPgbenchSeconds = quick ? 3 : 8;
const kHealthRequests = quick ? 2000 : 5000;
const kMaxPullPages = 1000;
const kPgBin = process.env.ENSEMBLE_PG_BIN ?? '/usr/lib/postgresql/15/bin';
// Against the Node peer: rounds per side, alternating, and pushes per round
// (one client; each of the 50 clients). A round lasts under a second, short
// enough that the machine's load is about the same for the two sides of a
// pair; the sum over the rounds gives a steady rate. The warm-up is long
// because the peer's rate climbs for its first 3,000 or so pushes (V8
// compiling the handler and pg's protocol code), from a quarter or a third
// of its steady rate; ours by about a third. After only 100 pushes each the
// ratio came out 1.3-1.6 instead of the steady 0.8-0.9.
const kPeerRounds = quick ? 8 : 16;
const kPeerPushesPerRound = quick ? 250 : 500;
const kPeerConcurrentPushesEach = quick ? 10 : 20;
const kPeerWarmupPushes = 4000;
const kPeerConcurrentWarmupPushes = 2000;  // In all, from the 50 clients.
const kPeerScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'node_push_peer.mjs');

// The replica logs each pending mutation that no longer applies during a
// rebase (one line per mutation per pull page) through console.log, which
// would mix with the metrics: counted, not printed. Installed before the wasm
// module binds the console.
const printOut = console.log.bind(console);
const printErr = console.error.bind(console);
let replayFailures = 0;
const filtered = (...args) => {
  if (typeof args[0] === 'string' && args[0].includes('no longer applies locally')) {
    ++replayFailures;
    return;
  }
  printErr(...args);
};
console.log = filtered;
console.error = filtered;
const log = (...args) => printErr('[sync_bench]', ...args);
const emit = (metric, value, unit, better) =>
  printOut(JSON.stringify({metric, value: Math.round(value * 100) / 100, unit, better}));
const now = () => performance.now();

// Record ids in the core's shape (26 Crockford base32 characters, the first
// at most '7'), ordered by `n`, unique per prefix.
const kCrockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const newPrefix = () => Array.from(crypto.randomBytes(14), (b) => kCrockford[b % 32]).join('');
function benchId(prefix, n) {
  let s = '';
  for (let i = 0; i < 10; i++, n = Math.floor(n / 32)) s = kCrockford[n % 32] + s;
  return `01${prefix}`.slice(0, 16) + s;
}

// One pushing client: its own id and mutation counter.
class RawClient {
  constructor(url) {
    this.url = url;
    this.clientId = `bench-${crypto.randomUUID()}`;
    this.body = {clientGroupId: `g-${this.clientId}`, clientId: this.clientId};
    this.prefix = newPrefix();
    this.next = 1;
    this.agent = new http.Agent({keepAlive: true, maxSockets: 1});
  }

  mutations(count) {
    const t = Date.now();
    return Array.from({length: count}, () => {
      const id = this.next++;
      return {id, name: 'task.create', clientTime: t,
              args: {id: benchId(this.prefix, id), spaceId: 'personal', title: `bench ${id}`}};
    });
  }

  async push(count) {
    const {status, body} = await requestJson(
        this.agent, 'POST', `${this.url}/api/sync/push`,
        JSON.stringify({...this.body, mutations: this.mutations(count)}));
    if (status !== 200 || body.lastMutationId !== this.next - 1) {
      throw new Error(`push answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
    }
  }
}

// One request on the client's own keep-alive connection, its answer parsed
// as JSON. node:http, not fetch: fetch (undici) spends 0.3-0.4 ms of its own
// on each request on this machine, as much as the server's whole batch-1
// push, and that is the client's cost, not the server's.
function requestJson(agent, method, url, body = null) {
  return new Promise((resolve, reject) => {
    const headers = body === null ? {} : {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    };
    const req = http.request(url, {method, agent, headers}, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => {
        try {
          resolve({status: res.statusCode, body: JSON.parse(text)});
        } catch (e) {
          reject(new Error(`${method} ${url} answered ${res.statusCode} with no JSON: ${text.slice(0, 300)}`));
        }
      });
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

// GET /healthz one after another from one client: a request whose only
// store work is one `SELECT 1` round trip, the ceiling for any request that
// reaches the store (a push does that and writes and commits besides).
async function healthRate(url) {
  const agent = new http.Agent({keepAlive: true, maxSockets: 1});
  const total = kHealthRequests;
  for (let i = 0; i < 200; ++i) await requestJson(agent, 'GET', `${url}/healthz`);  // Warm-up.
  const start = now();
  for (let done = 0; done < total; ++done) {
    const {status} = await requestJson(agent, 'GET', `${url}/healthz`);
    if (status !== 200) throw new Error(`healthz answered ${status}`);
  }
  return total / ((now() - start) / 1000);
}

async function pushRate(url, batch) {
  const client = new RawClient(url);
  await client.push(batch);  // Warm-up: connection, statement caches.
  const total = kPushMutations[batch];
  const start = now();
  for (let done = 0; done < total; done += batch) await client.push(batch);
  return total / ((now() - start) / 1000);
}

async function concurrentPushes(url) {
  const clients = Array.from({length: kConcurrentClients}, () => new RawClient(url));
  await Promise.all(clients.map((c) => c.push(1)));
  const latencies = [];
  const start = now();
  await Promise.all(clients.map(async (c) => {
    for (let i = 0; i < kConcurrentPushesEach; ++i) {
      const t = now();
      await c.push(1);
      latencies.push(now() - t);
    }
  }));
  const seconds = (now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)];
  return {p99, rate: latencies.length / seconds};
}

// The core's replica (wasm build), a fresh in-memory database.
async function newReplica() {
  const core = await loadCore();
  ok(core, 'open', ':memory:', '');
  return core;
}

async function pullUntilConverged(core, url) {
  for (let page = 0; page < kMaxPullPages; ++page) {
    const {request} = ok(core, 'pullRequest');
    const res = await fetch(`${url}/api/sync/pull?clientId=${request.clientId}&cursor=${request.cursor}`);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`pull answered ${res.status}: ${text.slice(0, 300)}`);
    if (!ok(core, 'applyPull', text).more) return;
  }
  throw new Error('pull did not converge');
}

async function pushUntilEmpty(core, url) {
  for (;;) {
    const {request, count} = ok(core, 'pushRequest');
    if (count === 0) return;
    const res = await fetch(`${url}/api/sync/push`, {
      method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(request),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`push answered ${res.status}: ${text.slice(0, 300)}`);
    ok(core, 'applyPushResponse', text);
  }
}

function taskCount(core) {
  return ok(core, 'listTasks').tasks.length;
}

async function catchupPull(url) {
  const writer = new RawClient(url);
  for (let done = 0; done < kCatchupChanges; done += kSeedBatch) await writer.push(kSeedBatch);
  const reader = await newReplica();
  const start = now();
  await pullUntilConverged(reader, url);
  const seconds = (now() - start) / 1000;
  const have = taskCount(reader);
  if (have < kCatchupChanges) throw new Error(`the reader holds ${have} tasks after catch-up`);
  return seconds;
}

async function catchupPush(url) {
  const core = await newReplica();
  const prefix = newPrefix();
  for (let i = 0; i < kCatchupChanges; ++i) {
    ok(core, 'mutate', 'task.create',
       JSON.stringify({id: benchId(prefix, i), spaceId: 'personal', title: `offline ${i}`}));
  }
  replayFailures = 0;
  const start = now();
  await pushUntilEmpty(core, url);
  await pullUntilConverged(core, url);
  const seconds = (now() - start) / 1000;
  const pending = ok(core, 'pendingCount').count;
  if (pending !== 0) throw new Error(`${pending} mutations still pending after catch-up`);
  const have = taskCount(core);
  if (have !== kCatchupChanges) throw new Error(`the writer holds ${have} tasks after catch-up`);
  log(`  ${replayFailures} replays of already-applied mutations failed locally during the pull pages`);
  return seconds;
}

async function withServer(label, databaseUrl, fn) {
  const dataDir = tempDir('ensemble-sync-bench-');
  const server = new ServerProcess({port: await freePort(), dataDir, databaseUrl});
  try {
    await server.start();
    return await fn(server.url);
  } catch (e) {
    e.message += `\n--- ${label} server log ---\n${server.log}`;
    throw e;
  } finally {
    await server.stop();
    fs.rmSync(dataDir, {recursive: true, force: true});
  }
}

async function withStore(kind, adminUrl, fn) {
  if (kind === 'sqlite') return withServer(kind, null, fn);
  const pg = createPgDatabase(adminUrl);
  try {
    return await withServer(kind, pg.url, fn);
  } finally {
    pg.drop();
  }
}

// The Node peer (node_push_peer.mjs) as a child process with a fresh database
// of the same cluster. It also exits when its stdin closes, so it does not
// outlive a bench that fails before the finally below.
async function withPeer(adminUrl, fn) {
  const pg = createPgDatabase(adminUrl);
  const child = spawn(process.execPath, [kPeerScript], {
    env: {...process.env, PEER_DATABASE_URL: pg.url},
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let peerLog = '';
  child.stderr.on('data', (chunk) => { peerLog += chunk; });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const port = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const m = out.match(/listening (\d+)\n/);
        if (m) resolve(Number(m[1]));
      });
      exited.then((code) => reject(new Error(`the peer exited at start (${code})`)));
    });
    return await fn(`http://127.0.0.1:${port}`);
  } catch (e) {
    e.message += `\n--- peer log ---\n${peerLog}`;
    throw e;
  } finally {
    child.kill('SIGTERM');
    await exited;
    pg.drop();
  }
}

// Runs `round.ours()` and `round.peer()` one after the other, `kPeerRounds`
// times each, and returns each side's pushes per second over all its rounds.
// Alternating gives both sides the same machine: a burst of load from
// elsewhere lands on a round of each rather than on one side's whole figure.
// Pairs go ours-peer, then peer-ours, and so on, so that a rate drifting
// through the run favours neither side.
async function alternate(round) {
  const pushes = {ours: 0, peer: 0};
  const ms = {ours: 0, peer: 0};
  const rounds = [];
  for (let i = 0; i < kPeerRounds; ++i) {
    const rate = {};
    for (const side of i % 2 === 0 ? ['ours', 'peer'] : ['peer', 'ours']) {
      const start = now();
      const count = await round[side]();
      const elapsed = now() - start;
      pushes[side] += count;
      ms[side] += elapsed;
      rate[side] = Math.round(count / (elapsed / 1000));
    }
    rounds.push(`${rate.ours}/${rate.peer}`);
  }
  log(`  push/s per round, ours/peer: ${rounds.join(' ')}`);
  return {ours: pushes.ours / (ms.ours / 1000), peer: pushes.peer / (ms.peer / 1000)};
}

async function pushSequentially(client, count) {
  for (let i = 0; i < count; ++i) await client.push(1);
  return count;
}

async function pushConcurrently(clients, each) {
  await Promise.all(clients.map((c) => pushSequentially(c, each)));
  return clients.length * each;
}

// Our server and the Node peer, each with a fresh database of the same
// cluster, driven by the same RawClient (same body, same keep-alive
// node:http connection per client), batch-1 pushes: one client, then 50.
async function compareWithPeer(adminUrl) {
  return withStore('pg', adminUrl, (oursUrl) => withPeer(adminUrl, async (peerUrl) => {
    const url = {ours: oursUrl, peer: peerUrl};
    const one = {ours: new RawClient(url.ours), peer: new RawClient(url.peer)};
    // Warm-up: connections, prepared statements, the JIT of both processes.
    for (const side of ['ours', 'peer']) await pushSequentially(one[side], kPeerWarmupPushes);
    const sequential = await alternate({
      ours: () => pushSequentially(one.ours, kPeerPushesPerRound),
      peer: () => pushSequentially(one.peer, kPeerPushesPerRound),
    });
    const many = {};
    for (const side of ['ours', 'peer']) {
      many[side] = Array.from({length: kConcurrentClients}, () => new RawClient(url[side]));
      // Every store connection opened, and the concurrent paths warm.
      await pushConcurrently(many[side], kPeerConcurrentWarmupPushes / kConcurrentClients);
    }
    const concurrent = await alternate({
      ours: () => pushConcurrently(many.ours, kPeerConcurrentPushesEach),
      peer: () => pushConcurrently(many.peer, kPeerConcurrentPushesEach),
    });
    return {sequential, concurrent};
  }));
}

// pgbench: one single-row INSERT per transaction into a table shaped like a
// small task row, `clients` connections, against a fresh database.
function pgbench(adminUrl, clients) {
  const pg = createPgDatabase(adminUrl);
  const script = path.join(os.tmpdir(), `sync_bench_${process.pid}.sql`);
  try {
    execFileSync('psql', [pg.url, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c',
                          'CREATE TABLE bench_rows (id BIGSERIAL PRIMARY KEY, title TEXT NOT NULL,' +
                          ' created_at BIGINT NOT NULL)']);
    fs.writeFileSync(script, "INSERT INTO bench_rows (title, created_at) VALUES ('bench', :client_id);\n");
    const out = execFileSync(path.join(kPgBin, 'pgbench'),
                             ['-n', '-f', script, '-c', String(clients), '-j', String(Math.min(clients, 2)),
                              '-T', String(kPgbenchSeconds), pg.url],
                             {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']});
    const m = out.match(/tps = ([0-9.]+) \(without initial connection time\)/) ??
              out.match(/tps = ([0-9.]+)/);
    if (!m) throw new Error(`cannot read pgbench's TPS:\n${out}`);
    return Number(m[1]);
  } finally {
    fs.rmSync(script, {force: true});
    pg.drop();
  }
}

async function main() {
  const adminUrl = process.env.ENSEMBLE_TEST_DATABASE_URL;
  const stores = adminUrl ? ['pg', 'sqlite'] : ['sqlite'];
  if (!adminUrl) log('ENSEMBLE_TEST_DATABASE_URL is not set: PostgreSQL metrics skipped');
  const catchup = {};
  for (const store of stores) {
    await withStore(store, adminUrl, async (url) => {
      for (const batch of [1, 100, 1000]) {
        log(`${store}: pushing ${kPushMutations[batch]} mutations in batches of ${batch}`);
        const rate = await pushRate(url, batch);
        emit(`sync.push_mut_s.batch${batch}.${store}`, rate, 'mut/s', 'higher');
      }
      if (store === 'pg') {
        log(`pg: ${kHealthRequests} health checks from one client`);
        emit('sync.healthz_req_s.pg', await healthRate(url), 'req/s', 'higher');
        log(`pg: ${kConcurrentClients} clients pushing batch-1`);
        const c50 = await concurrentPushes(url);
        emit('sync.push_p99_ms.c50', c50.p99, 'ms', 'lower');
        emit('sync.push_mut_s.c50.pg', c50.rate, 'mut/s', 'higher');
      }
    });
    // Catch-up needs a store holding only its own 10,000 changes.
    await withStore(store, adminUrl, async (url) => {
      log(`${store}: catch-up of ${kCatchupChanges} changes by pull`);
      const pull = await catchupPull(url);
      emit(`sync.catchup_10k_s.pull.${store}`, pull, 's', 'lower');
      catchup[store] = pull;
    });
    await withStore(store, adminUrl, async (url) => {
      log(`${store}: catch-up of ${kCatchupChanges} offline changes by push and pull`);
      const push = await catchupPush(url);
      emit(`sync.catchup_10k_s.push.${store}`, push, 's', 'lower');
      catchup[store] = Math.max(catchup[store], push);
    });
  }
  emit('sync.catchup_10k_s', catchup.pg ?? catchup.sqlite, 's', 'lower');
  if (adminUrl) {
    log(`node peer: ${kPeerRounds} rounds each of ${kPeerPushesPerRound} batch-1 pushes from one` +
        ` client, then of ${kPeerConcurrentPushesEach} from each of ${kConcurrentClients}, alternating`);
    const {sequential, concurrent} = await compareWithPeer(adminUrl);
    const c = `c${kConcurrentClients}`;
    emit('sync.push_per_s.batch1.pg', sequential.ours, 'push/s', 'higher');
    emit('sync.node_peer_push_per_s.batch1', sequential.peer, 'push/s', 'higher');
    emit('sync.push_ratio_node_peer', sequential.ours / sequential.peer, 'ratio', 'higher');
    emit(`sync.push_per_s.${c}.pg`, concurrent.ours, 'push/s', 'higher');
    emit(`sync.node_peer_push_per_s.${c}`, concurrent.peer, 'push/s', 'higher');
    emit(`sync.push_ratio_node_peer.${c}`, concurrent.ours / concurrent.peer, 'ratio', 'higher');
    log(`pgbench: ${kPgbenchSeconds} s with 1 client, then ${kConcurrentClients}`);
    const tps1 = pgbench(adminUrl, 1);
    const tps50 = pgbench(adminUrl, kConcurrentClients);
    emit('sync.pgbench_tps.c1', tps1, 'tx/s', 'higher');
    emit(`sync.pgbench_tps.c${kConcurrentClients}`, tps50, 'tx/s', 'higher');
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
