// How the app's files reach the browser: the page's modules and style sheet
// and the wasm module under content-hashed names (index.html's import map,
// /wasm/manifest.json) with immutable caching and Brotli, kept by the service
// worker so a reload fetches none of them, and a new build picked up at once
// with the old build's files dropped from the cache, online and offline.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';

import {repoRoot, tempDir, wasmDir} from '../../tools/lib/harness.mjs';
import {byTestId, expectText, startApp} from './app_harness.mjs';

const kCacheName = 'ensemble-shell-v5';
const kHashed = /^\/(?:[^/]+\/)*[^/]+\.[0-9a-f]{16}\.[a-z]+$/;
// What the page loads by a plain URL: the db worker and its imports (a worker
// has no import map) and the service worker.
const kPlainScripts = new Set(['/db-worker.js', '/sync.js', '/api.js', '/sw.js']);

// Copies of the wasm folder and of the web root this test may "rebuild".
function wasmCopy() {
  const dir = tempDir('ensemble-e2e-wasm-');
  for (const name of fs.readdirSync(wasmDir)) {
    if (/^ensemble_core\./.test(name)) fs.copyFileSync(path.join(wasmDir, name), path.join(dir, name));
  }
  return dir;
}

function webCopy() {
  const dir = tempDir('ensemble-e2e-web-');
  fs.cpSync(path.join(repoRoot, 'web-shell'), dir, {recursive: true});
  return dir;
}

// Every hashed file in the service worker's cache, sorted.
async function cachedHashed(page) {
  return page.evaluate(async (source) => {
    const keys = await (await caches.open('ensemble-shell-v5')).keys();
    return keys.map((r) => new URL(r.url).pathname).filter((p) => new RegExp(source).test(p)).sort();
  }, kHashed.source);
}

// The hashed files both manifests name, sorted, and the manifests.
async function current(server) {
  const wasm = await (await fetch(`${server.url}/wasm/manifest.json`)).json();
  const shell = await (await fetch(`${server.url}/shell-manifest.json`)).json();
  return {wasm, shell, files: [...Object.values(wasm), ...Object.values(shell)].sort()};
}

// The paths the browser asks for, each {path, sw}: sw when the service worker
// asks (a request that leaves the browser for the server), else the page or
// its worker (which the service worker answers).
function watchRequests(context) {
  const seen = [];
  context.on('request', (r) => seen.push({path: new URL(r.url()).pathname, sw: Boolean(r.serviceWorker())}));
  return seen;
}

async function reload(page) {
  await page.reload();
  await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
}

test('the app\'s files arrive hashed, compressed and cached, and a new build replaces them', async () => {
  const wasmDirCopy = wasmCopy();
  const webDir = webCopy();
  // The build's Brotli mirror names each copy by the content it was made
  // from, so it serves the unchanged files of the copy too.
  const app = await startApp({env: {
    ENSEMBLE_WASM_DIR: wasmDirCopy, ENSEMBLE_WEB_ROOT: webDir,
    ENSEMBLE_WEB_COMPRESSED_DIR: path.join(repoRoot, 'build', 'wasm', 'web-shell'),
  }});
  const {page, browser, server} = app;
  try {
    // startApp's first visit is over; what it fetched is in the caches now.
    const first = await current(server);
    assert.match(first.wasm['ensemble_core.wasm'], /^\/wasm\/ensemble_core\.[0-9a-f]{16}\.wasm$/);
    assert.match(first.wasm['ensemble_core.js'], /^\/wasm\/ensemble_core\.[0-9a-f]{16}\.js$/);
    assert.match(first.wasm['ensemble_core.deferred.wasm'],
                 /^\/wasm\/ensemble_core\.deferred\.[0-9a-f]{16}\.wasm$/);
    assert.match(first.shell['/app.js'], /^\/app\.[0-9a-f]{16}\.js$/);
    assert.match(first.shell['/views/tasks.js'], /^\/views\/tasks\.[0-9a-f]{16}\.js$/);
    assert.match(first.shell['/styles.css'], /^\/styles\.[0-9a-f]{16}\.css$/);
    for (const url of [first.wasm['ensemble_core.wasm'], first.shell['/views/tasks.js']]) {
      const r = await fetch(`${server.url}${url}`, {method: 'HEAD'});
      assert.match(r.headers.get('cache-control'), /immutable/, url);
    }
    const wasm = await page.evaluate(async (url) => {
      const r = await fetch(url);
      return {type: r.headers.get('content-type'), bytes: (await r.arrayBuffer()).byteLength};
    }, first.wasm['ensemble_core.wasm']);
    assert.equal(wasm.type, 'application/wasm');
    assert.equal(wasm.bytes, fs.statSync(path.join(wasmDirCopy, 'ensemble_core.wasm')).size);
    // Scripts come compressed too (the build's Brotli copies of web-shell/).
    assert.equal(await page.evaluate(async (url) =>
      (await fetch(url, {cache: 'no-store'})).headers.get('content-encoding'), first.shell['/app.js']), 'br');
    await page.waitForSelector(`${byTestId('app')}[data-offline-ready="true"]`, {timeout: 20000});
    // The service worker registers once the db worker has the module's second
    // half, which it asked for after the first screen, not during it.
    assert.equal((await page.evaluate(() => window.ensemble.rpc('status'))).deferred, 'prefetch');
    // The service worker installed both builds' files (both module halves).
    assert.deepEqual(await cachedHashed(page), first.files);
    // The views other than the task list came after its first paint, and
    // each of them did come (app.js, kLaterViews).
    const later = await page.evaluate(() => {
      const painted = performance.getEntriesByName('tasks-painted')[0]?.startTime;
      const views = performance.getEntriesByType('resource')
        .map((e) => ({path: new URL(e.name).pathname, at: e.startTime}))
        .filter((e) => /^\/views\/(boards|settings|sharing|today|trash)\./.test(e.path));
      return {painted, views};
    });
    assert.ok(Number.isFinite(later.painted), 'no tasks-painted mark');
    assert.equal(new Set(later.views.map((v) => v.path.split('.')[0])).size, 5, JSON.stringify(later));
    for (const view of later.views) {
      assert.ok(view.at > later.painted, `${view.path} was asked for before the list was painted`);
    }

    // A reload: the page and its worker ask for the hashed files (the worker
    // by plain names), and the service worker answers them from its cache
    // without going to the network.
    const seen = watchRequests(browser.context);
    await reload(page);
    const asked = seen.filter((r) => !r.sw && /\.(js|css)$/.test(r.path)).map((r) => r.path);
    assert.deepEqual(asked.filter((p) => !kHashed.test(p) && !kPlainScripts.has(p)), [],
                     'the page asks for modules by their plain names');
    for (const url of [first.shell['/app.js'], first.shell['/views/tasks.js'], first.shell['/styles.css'],
                       first.wasm['ensemble_core.js']]) {
      assert.ok(asked.includes(url), `${url} not asked for: ${asked}`);
    }
    // The service worker did go to the network, for the page itself.
    assert.ok(seen.some((r) => r.sw && r.path === '/'), 'no request of the service worker seen');
    assert.deepEqual(seen.filter((r) => r.sw && kHashed.test(r.path)).map((r) => r.path), []);
    // The db worker's scripts too: the cached page maps their plain names.
    assert.deepEqual(seen.filter((r) => r.sw && kPlainScripts.has(r.path) && r.path !== '/sw.js')
      .map((r) => r.path), []);
    assert.deepEqual(await cachedHashed(page), first.files);

    // A new build of a view and of the glue: the next start asks the server
    // for those two files alone, and the cache keeps only the current files.
    fs.appendFileSync(path.join(webDir, 'views', 'trash.js'), '\n// rebuilt\n');
    fs.appendFileSync(path.join(wasmDirCopy, 'ensemble_core.js'), '\n// rebuilt\n');
    seen.length = 0;
    await reload(page);
    const next = await current(server);
    assert.notEqual(next.shell['/views/trash.js'], first.shell['/views/trash.js']);
    assert.notEqual(next.wasm['ensemble_core.js'], first.wasm['ensemble_core.js']);
    assert.equal(next.shell['/app.js'], first.shell['/app.js']);
    assert.deepEqual(seen.filter((r) => r.sw && kHashed.test(r.path)).map((r) => r.path).sort(),
                     [next.shell['/views/trash.js'], next.wasm['ensemble_core.js']].sort());
    // The new page and manifest prune the cache a moment after they arrive.
    let cached = await cachedHashed(page);
    for (const deadline = Date.now() + 10000; String(cached) !== String(next.files) && Date.now() < deadline;) {
      await page.waitForTimeout(100);
      cached = await cachedHashed(page);
    }
    assert.deepEqual(cached, next.files);

    // With the server down, a reload starts the new build from the cache.
    await server.stop();
    await reload(page);
    assert.notEqual(await page.textContent(byTestId('connection-state')), 'Online');
    await page.click(byTestId('nav-trash'));  // The rebuilt view.
    await expectText(page, byTestId('trash-empty'), 'Trash is empty.');
    assert.deepEqual(app.pageErrors, []);
  } finally {
    await app.close();
    fs.rmSync(wasmDirCopy, {recursive: true, force: true});
    fs.rmSync(webDir, {recursive: true, force: true});
  }
});
