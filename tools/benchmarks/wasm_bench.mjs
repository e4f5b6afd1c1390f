#!/usr/bin/env node
// The wasm suite of tools/bench: prints one JSON object per line,
// {"metric", "value", "unit", "better"}.
//
//   wasm.size_raw_kb, wasm.size_gzip_kb   ensemble_core.wasm + ensemble_core.js as
//                                         shipped (gzip: node:zlib, level 9)
//   wasm.cold_start_ms                    headless Chromium, 5,000 tasks in the OPFS
//                                         database: navigation start to
//                                         performance.mark('tasks-listed') on a
//                                         reload, median of several runs
//   wasm.commit_ms.rows1k, .rows50k       one single-row commit (task.create: the
//                                         row, its outbox entry, the counters) in
//                                         the OPFS database holding 1,000 and
//                                         50,000 tasks, median, timed in the worker;
//                                         equal costs mean persistence is
//                                         incremental
//
// Spawns the server (ENSEMBLE_SERVER_BIN, default build/native/server/
// ensemble_server) on a free port with a throwaway data directory.
// --quick: fewer runs. Progress goes to stderr.

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

import {freePort, launchBrowser, ServerProcess, tempDir, wasmDir} from '../lib/harness.mjs';

const quick = process.argv.includes('--quick');
const kColdRuns = quick ? 3 : 7;
const kCommitSamples = quick ? 15 : 40;
const kColdTasks = 5000;
const kSeedBatch = 5000;

const log = (...args) => console.error('[wasm_bench]', ...args);
const emit = (metric, value, unit, better) =>
  console.log(JSON.stringify({metric, value: Math.round(value * 100) / 100, unit, better}));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// Record ids in the core's shape (26 Crockford base32 characters, the first
// at most '7'), ordered by `n`.
const kCrockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function benchId(prefix, n) {
  let s = '';
  for (let i = 0; i < 10; i++, n = Math.floor(n / 32)) s = kCrockford[n % 32] + s;
  return `01${prefix}`.padEnd(16, '0') + s;
}

function sizes() {
  const files = ['ensemble_core.wasm', 'ensemble_core.js'].map((f) => path.join(wasmDir, f));
  let raw = 0;
  let gz = 0;
  for (const f of files) {
    const bytes = fs.readFileSync(f);
    raw += bytes.length;
    gz += zlib.gzipSync(bytes, {level: 9}).length;
  }
  emit('wasm.size_raw_kb', raw / 1024, 'KiB', 'lower');
  emit('wasm.size_gzip_kb', gz / 1024, 'KiB', 'lower');
}

// Pushes `count` task.create mutations to the server as one client.
async function seedServer(server, count) {
  const clientId = benchId('BENCHC', 1);
  const clientTime = Date.UTC(2026, 0, 1);
  for (let first = 1; first <= count; first += 1000) {
    const mutations = [];
    for (let id = first; id < Math.min(first + 1000, count + 1); id++) {
      mutations.push({
        id, name: 'task.create', clientTime: clientTime + id,
        args: {id: benchId('BENCHT', id), spaceId: 'personal', title: `Benchmark task number ${id}`},
      });
    }
    const res = await fetch(`${server.url}/api/sync/push`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({clientGroupId: benchId('BENCHG', 1), clientId, mutations}),
    });
    const body = await res.json();
    if (!res.ok || body.results.some((r) => r.status !== 'applied')) {
      throw new Error(`seeding push failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
  }
}

async function waitListed(page) {
  await page.waitForFunction(() => performance.getEntriesByName('tasks-listed').length > 0, null,
                             {timeout: 60000});
  return page.evaluate(() => {
    const [mark] = performance.getEntriesByName('tasks-listed');
    return {ms: mark.startTime, count: mark.detail?.count};
  });
}

async function coldStart(server) {
  await seedServer(server, kColdTasks);
  const browser = await launchBrowser();
  try {
    const {page} = browser;
    await page.goto(`${server.url}/`);
    // The first visit pulls the 5,000 tasks into the OPFS database.
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="task-row"]').length === n,
                               kColdTasks, {timeout: 120000});
    await page.waitForFunction(
      () => document.querySelector('[data-testid="pending-count"]').textContent === '0' &&
            document.querySelector('[data-testid="app"]').dataset.offlineReady === 'true',
      null, {timeout: 60000});
    const runs = [];
    for (let i = 0; i < kColdRuns + 1; i++) {
      await page.reload();
      const {ms, count} = await waitListed(page);
      if (count !== kColdTasks) throw new Error(`listed ${count} tasks, expected ${kColdTasks}`);
      if (i > 0) runs.push(ms);  // The first reload warms the HTTP and code caches.
      log(`cold start ${i}: ${ms.toFixed(1)} ms`);
    }
    emit('wasm.cold_start_ms', median(runs), 'ms', 'lower');
  } finally {
    await browser.close();
  }
}

// Fills the page's database up to `total` tasks through applyPull (one
// transaction per batch), as a pull from the server would.
async function seedPage(page, from, total) {
  for (let start = from; start < total; start += kSeedBatch) {
    const end = Math.min(start + kSeedBatch, total);
    await page.evaluate(async ([s, e]) => {
      const changes = [];
      const pad = (n) => String(n).padStart(22, '0');
      for (let i = s; i < e; i++) {
        changes.push({kind: 'task', row: {
          id: `01JD${pad(i)}`, space_id: 'personal', title: `Seeded task number ${i}`, status: 'todo',
          due: null, version: 1, deleted: 0, created_at: 1764000000000, updated_at: 1764000000000,
          row_version: e,
        }});
      }
      const r = await window.ensemble.rpc('core', {name: 'applyPull', args: [
        JSON.stringify({cursor: e, lastMutationId: 0, changes, more: false})]});
      if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
    }, [start, end]);
  }
}

async function commitSamples(page, label) {
  const times = await page.evaluate(async ([n, tag]) => {
    const out = [];
    for (let i = 0; i < n; i++) {
      const {id} = await window.ensemble.rpc('core', {name: 'newId'});
      const args = JSON.stringify({id, spaceId: 'personal', title: `Commit probe ${tag} ${i}`});
      const {result, workerMs} = await window.ensemble.rpcTimed('core', {name: 'mutate', args: ['task.create', args]});
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
      out.push(workerMs);
    }
    return out;
  }, [kCommitSamples, label]);
  log(`commit ${label}: median ${median(times).toFixed(2)} ms, min ${Math.min(...times).toFixed(2)}, ` +
      `max ${Math.max(...times).toFixed(2)}`);
  return median(times);
}

async function commitCost(server) {
  const browser = await launchBrowser();
  try {
    const {page} = browser;
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid="app"][data-db-state="ready"]', {timeout: 30000});
    const status = await page.evaluate(() => window.ensemble.rpc('status'));
    if (status.db.storage !== 'opfs') throw new Error(`storage is ${status.db.storage}, not opfs`);
    // Offline from here on: the sync loop stays out of the timings and the
    // seeded rows stay local.
    await server.stop();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="connection-state"]').textContent === 'Offline');
    await seedPage(page, 0, 1000);
    emit('wasm.commit_ms.rows1k', await commitSamples(page, '1k'), 'ms', 'lower');
    await seedPage(page, 1000, 50000);
    const count = await page.evaluate(async () =>
      (await window.ensemble.rpc('core', {name: 'listTasks'})).tasks.length);
    if (count < 50000) throw new Error(`seeded ${count} tasks, expected 50,000`);
    emit('wasm.commit_ms.rows50k', await commitSamples(page, '50k'), 'ms', 'lower');
  } finally {
    await browser.close();
  }
}

async function main() {
  sizes();
  const dataDir = tempDir('ensemble-bench-');
  const server = new ServerProcess({port: await freePort(), dataDir});
  try {
    await server.start();
    await coldStart(server);
    await commitCost(server);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, {recursive: true, force: true});
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});

