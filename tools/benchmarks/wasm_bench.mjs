#!/usr/bin/env node
// The wasm suite of tools/bench: prints one JSON object per line,
// {"metric", "value", "unit", "better"}.
//
//   wasm.size_raw_kb, wasm.size_gzip_kb,  every module's .wasm + .js as shipped
//   wasm.size_br_kb                       (gzip: node:zlib, level 9; Brotli: the
//                                         build's .br copies, as served), and
//   wasm.size_gzip_kb.<module>, ...br_kb  per module
//   wasm.first_visit_ms                   headless Chromium, nothing cached, 5,000
//                                         tasks on the server: navigation start to
//                                         the first frame painted with task rows
//   wasm.first_load_kb.br                 what that first visit received (bodies
//                                         and headers, as encoded on the wire:
//                                         Chromium asks for Brotli) until then:
//                                         the page's, its worker's and its service
//                                         worker's downloads
//   wasm.cold_start_ms                    5,000 tasks in the OPFS database:
//                                         navigation start to the list painted
//                                         (performance.mark('tasks-painted'), the
//                                         frame after 'tasks-listed') on a reload
//                                         of a settled page (module cached),
//                                         median of runs
//   wasm.cold_start_ms.50k                the same with 50,000 tasks
//   wasm.trace.<phase>_ms                 the median reload's timeline: page
//                                         document, worker started, module glue
//                                         loaded, wasm compiled and instantiated,
//                                         database open, tasks read, list built,
//                                         list painted, and the whole list built
//                                         (after its first screen)
//   wasm.second_half_ms                   that reload: navigation start to the
//                                         module's second half installed (the
//                                         worker asks for it after the first
//                                         screen)
//   wasm.commit_ms.rows1k, .rows50k       one single-row commit (the app's
//                                         mutate method, task.create: the row, its
//                                         outbox entry, the counters) in the OPFS
//                                         database holding 1,000 and 50,000 tasks
//                                         (pulled from the server), median, timed
//                                         in the worker, offline; equal costs mean
//                                         persistence is incremental
//
// Drives the page only through the app's own worker methods
// (window.ensemble.rpc); tasks reach the page by sync, as in use.
// Spawns the server (ENSEMBLE_SERVER_BIN, default build/native/server/
// ensemble_server) on a free port with a throwaway data directory, one
// for the cold starts and one for the commits; the app
// from ENSEMBLE_BENCH_WEB_ROOT and ENSEMBLE_WASM_DIR when set (an older
// build's, to compare in one run).
// --quick: fewer runs. Progress goes to stderr.

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

import {freePort, launchBrowser, ServerProcess, tempDir, wasmDir} from '../lib/harness.mjs';

const quick = process.argv.includes('--quick');
const kColdRuns = quick ? 3 : 7;
const kCommitSamples = quick ? 15 : 40;
const kColdTasks = 5000;
const kColdTasksLarge = 50000;
const kCommitTasks = 1000;
const kCommitTasksLarge = 50000;

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

// Sizes as shipped: the app's module set in total (the names the suite has
// always printed), and per module (<name>.wasm + <name>.js, where a module
// has glue of its own: ensemble_core.deferred, the second half, has none).
function sizes() {
  const modules = fs.readdirSync(wasmDir).filter((f) => f.endsWith('.wasm')).map((f) => f.slice(0, -5));
  const total = {raw: 0, gz: 0, br: 0};
  for (const module of modules.sort()) {
    const size = {raw: 0, gz: 0, br: 0};
    const files = [`${module}.wasm`, `${module}.js`].map((f) => path.join(wasmDir, f));
    for (const file of files.filter((f) => fs.existsSync(f))) {
      const bytes = fs.readFileSync(file);
      size.raw += bytes.length;
      size.gz += zlib.gzipSync(bytes, {level: 9}).length;
      // The build's copy, as served (an older build has none: NaN, not printed).
      size.br += fs.existsSync(`${file}.br`) ? fs.statSync(`${file}.br`).size : NaN;
    }
    emit(`wasm.size_gzip_kb.${module}`, size.gz / 1024, 'KiB', 'lower');
    if (size.br) emit(`wasm.size_br_kb.${module}`, size.br / 1024, 'KiB', 'lower');
    for (const k of Object.keys(total)) total[k] += size[k];
  }
  emit('wasm.size_raw_kb', total.raw / 1024, 'KiB', 'lower');
  emit('wasm.size_gzip_kb', total.gz / 1024, 'KiB', 'lower');
  if (total.br) emit('wasm.size_br_kb', total.br / 1024, 'KiB', 'lower');
}

// Pushes task.create mutations `from`..`count` to the server as one client.
async function seedServer(server, count, from = 1) {
  const clientId = benchId('BENCHC', 1);
  const clientTime = Date.UTC(2026, 0, 1);
  for (let first = from; first <= count; first += 1000) {
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

// Waits for the list to be painted and then built whole (the page shows
// its first screen first), and for the page to be idle: the next reload then
// times a start, not the end of this one.
async function waitListed(page) {
  await page.waitForFunction(() => performance.getEntriesByName('tasks-painted').length > 0 &&
                                   performance.getEntriesByName('tasks-all-listed').length > 0,
                             null, {timeout: 60000});
  await page.waitForFunction(
    () => document.querySelector('[data-testid="sync-activity"]').hidden &&
          document.querySelector('[data-testid="connection-state"]').dataset.state === 'online',
    null, {timeout: 60000});
  return page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    // The module's second half, which the worker loads after the whole list.
    let status = {};
    for (let tries = 0; !status.db?.timings?.deferredLoaded && tries < 400; tries++) {
      status = await window.ensemble.rpc('status');
      if (!status.db?.timings?.deferredLoaded) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const secondHalf = (status.db?.timings?.deferredLoaded ?? NaN) - performance.timeOrigin;
    const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
    const [nav] = performance.getEntriesByType('navigation');
    const [all] = performance.getEntriesByName('tasks-all-listed');
    return {
      ms: at('tasks-painted'), count: all.detail?.count,
      // The reload's timeline, each phase ending at its milestone.
      trace: {
        document: nav.responseEnd, pageScripts: nav.domContentLoadedEventEnd,
        workerStarted: at('worker:started'), glueLoaded: at('worker:glueLoaded'),
        coreLoaded: at('worker:coreLoaded'), dbOpen: at('worker:dbOpen'),
        tasksFetched: at('tasks-fetched'), tasksListed: at('tasks-listed'),
        tasksPainted: at('tasks-painted'), allListed: all.startTime,
      },
      secondHalf,
    };
  });
}

async function taskCount(page) {
  return page.evaluate(async () =>
    JSON.parse((await window.ensemble.rpc('listTasks')).json).tasks.length);
}

// Marks 'bench:rows-painted' at the first frame painted with a task row in
// the list: a first visit's database starts empty and fills as it pulls.
function markFirstRows() {
  const check = () => {
    if (document.querySelector('[data-testid="task-row"]')) {
      setTimeout(() => performance.mark('bench:rows-painted'));
    } else {
      requestAnimationFrame(check);
    }
  };
  requestAnimationFrame(check);
}

// A first visit with nothing cached: how long to the list, and how many
// bytes the page, its worker and its service worker received by then. An
// answer the service worker gave is not counted again: its download is.
async function firstVisit(browser, server) {
  const {context, page} = browser;
  const finished = [];
  const onFinished = (request) => finished.push({request, at: Date.now()});
  context.on('requestfinished', onFinished);
  await page.addInitScript(markFirstRows);
  await page.goto(`${server.url}/`);
  await page.waitForFunction(() => performance.getEntriesByName('bench:rows-painted').length > 0,
                             null, {timeout: 60000});
  const shownAt = Date.now();
  const ms = await page.evaluate(() => performance.getEntriesByName('bench:rows-painted')[0].startTime);
  context.off('requestfinished', onFinished);
  let bytes = 0;
  const counted = [];
  for (const {request, at} of finished) {
    const response = await request.response();
    if (at > shownAt || !response || response.fromServiceWorker()) continue;
    const sizes = await request.sizes();
    const size = Math.max(0, sizes.responseBodySize) + sizes.responseHeadersSize;
    bytes += size;
    counted.push({path: new URL(request.url()).pathname, size});
  }
  // 'call' would mean the first screen needed the module's second half
  // (wasm/split/first_screen.mjs misses what it ran).
  const {deferred} = await page.evaluate(() => window.ensemble.rpc('status'));
  log(`first visit: ${ms.toFixed(1)} ms, second half ${deferred ?? 'not loaded yet'}, ` +
      `${counted.length} downloads, ` +
      `${(bytes / 1024).toFixed(0)} KiB; largest: ` +
      counted.sort((a, b) => b.size - a.size).slice(0, 6)
        .map((d) => `${d.path} ${(d.size / 1024).toFixed(0)}`).join(', '));
  return {ms, kb: bytes / 1024};
}

// Reloads with `tasks` tasks in the OPFS database; the median run and its trace.
async function reloads(page, tasks) {
  const runs = [];
  for (let i = 0; i < kColdRuns + 1; i++) {
    await page.reload();
    const run = await waitListed(page);
    if (run.count !== tasks) throw new Error(`listed ${run.count} tasks, expected ${tasks}`);
    if (i > 0) runs.push(run);  // The first reload warms the HTTP and code caches.
    log(`cold start ${tasks} ${i}: ${run.ms.toFixed(1)} ms ${JSON.stringify(run.trace)}`);
  }
  runs.sort((a, b) => a.ms - b.ms);
  return runs[(runs.length - 1) >> 1];
}

async function coldStart(server) {
  await seedServer(server, kColdTasks);
  const browser = await launchBrowser();
  try {
    const {page} = browser;
    const first = await firstVisit(browser, server);
    emit('wasm.first_visit_ms', first.ms, 'ms', 'lower');
    emit('wasm.first_load_kb.br', first.kb, 'KiB', 'lower');
    // The first visit pulls the 5,000 tasks into the OPFS database.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="pending-count"]').textContent === '0' &&
            document.querySelector('[data-testid="app"]').dataset.offlineReady === 'true',
      null, {timeout: 60000});
    await waitForTasks(page, kColdTasks);
    const median = await reloads(page, kColdTasks);
    emit('wasm.cold_start_ms', median.ms, 'ms', 'lower');
    emit('wasm.second_half_ms', median.secondHalf, 'ms', 'lower');
    let before = 0;
    for (const [phase, at] of Object.entries(median.trace)) {
      emit(`wasm.trace.${phase}_ms`, at - before, 'ms', 'lower');
      if (Number.isFinite(at)) before = at;
    }

    await seedServer(server, kColdTasksLarge, kColdTasks + 1);
    await page.evaluate(() => window.ensemble.rpc('syncNow'));
    await waitForTasks(page, kColdTasksLarge);
    emit('wasm.cold_start_ms.50k', (await reloads(page, kColdTasksLarge)).ms, 'ms', 'lower');
  } finally {
    await browser.close();
  }
}

async function waitForTasks(page, n) {
  const deadline = Date.now() + 180000;
  for (;;) {
    const count = await taskCount(page);
    if (count === n) return;
    if (Date.now() > deadline) throw new Error(`the page holds ${count} tasks, expected ${n}`);
    await page.waitForTimeout(500);  // Polling the worker's database: no event says "all pulled".
  }
}

async function commitSamples(page, label) {
  const times = await page.evaluate(async ([n, tag]) => {
    const out = [];
    for (let i = 0; i < n; i++) {
      const {id} = await window.ensemble.rpc('newId');
      const args = {id, spaceId: 'personal', title: `Commit probe ${tag} ${i}`};
      const {workerMs} = await window.ensemble.rpcTimed('mutate', {name: 'task.create', args});
      out.push(workerMs);
    }
    return out;
  }, [kCommitSamples, label]);
  log(`commit ${label}: median ${median(times).toFixed(2)} ms, min ${Math.min(...times).toFixed(2)}, ` +
      `max ${Math.max(...times).toFixed(2)}`);
  return median(times);
}

// Once the page holds `tasks` tasks and has sent everything, stops the
// server: the sync loop stays out of the timings and the probes stay local.
async function goOffline(page, server, tasks) {
  await waitForTasks(page, tasks);
  await page.waitForFunction(
    () => document.querySelector('[data-testid="pending-count"]').textContent === '0', null,
    {timeout: 60000});
  await server.stop();
  await page.waitForFunction(
    () => document.querySelector('[data-testid="connection-state"]').textContent === 'Offline',
    null, {timeout: 60000});
}

async function commitCost(server) {
  await seedServer(server, kCommitTasks);
  const browser = await launchBrowser();
  try {
    const {page} = browser;
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid="app"][data-db-state="ready"]', {timeout: 30000});
    const status = await page.evaluate(() => window.ensemble.rpc('status'));
    if (status.db.storage !== 'opfs') throw new Error(`storage is ${status.db.storage}, not opfs`);
    await goOffline(page, server, kCommitTasks);
    emit('wasm.commit_ms.rows1k', await commitSamples(page, '1k'), 'ms', 'lower');
    // Back online: the probes go up, and the page pulls the rest of 50,000.
    await server.start();
    await seedServer(server, kCommitTasksLarge - kCommitSamples, kCommitTasks + 1);
    await page.evaluate(() => window.ensemble.rpc('syncNow'));
    await goOffline(page, server, kCommitTasksLarge);
    emit('wasm.commit_ms.rows50k', await commitSamples(page, '50k'), 'ms', 'lower');
  } finally {
    await browser.close();
  }
}

// Runs `fn(server)` against a server of its own, on a throwaway data directory.
async function withServer(fn) {
  const dataDir = tempDir('ensemble-bench-');
  // ENSEMBLE_BENCH_WEB_ROOT: another web shell (an older commit's), to compare.
  const webRoot = process.env.ENSEMBLE_BENCH_WEB_ROOT || undefined;
  const server = new ServerProcess({port: await freePort(), dataDir, webRoot});
  try {
    await server.start();
    await fn(server);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, {recursive: true, force: true});
  }
}

async function main() {
  sizes();
  await withServer(coldStart);
  await withServer(commitCost);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});

