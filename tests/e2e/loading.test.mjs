// How the app's files reach the browser: the wasm module under content-hashed
// names with immutable caching and Brotli, kept by the service worker so a
// reload fetches none of it, and a new build picked up at once with the old
// build's files dropped from the cache.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';

import {tempDir, wasmDir} from '../../tools/lib/harness.mjs';
import {byTestId, startApp} from './app_harness.mjs';

const kHashed = /\/wasm\/ensemble_core\.([0-9a-f]{16})\.(js|wasm)$/;

// A copy of the wasm folder this test may "rebuild".
function wasmCopy() {
  const dir = tempDir('ensemble-e2e-wasm-');
  for (const name of fs.readdirSync(wasmDir)) {
    if (/^ensemble_core\./.test(name)) fs.copyFileSync(path.join(wasmDir, name), path.join(dir, name));
  }
  return dir;
}

async function cachedWasm(page) {
  return page.evaluate(async () => {
    const keys = await (await caches.open('ensemble-shell-v4')).keys();
    return keys.map((r) => new URL(r.url).pathname)
      .filter((p) => p.startsWith('/wasm/ensemble_core.')).sort();
  });
}

test('the module arrives hashed, compressed and cached, and a new build replaces it', async () => {
  const dir = wasmCopy();
  const app = await startApp({env: {ENSEMBLE_WASM_DIR: dir}});
  const {page, browser} = app;
  try {
    // startApp's first visit is over; what it fetched is in the caches now.
    const manifest = await page.evaluate(async () => (await fetch('/wasm/manifest.json')).json());
    assert.match(manifest['ensemble_core.wasm'], kHashed);
    assert.match(manifest['ensemble_core.js'], kHashed);
    const wasm = await page.evaluate(async (url) => {
      const r = await fetch(url);
      return {type: r.headers.get('content-type'), cache: r.headers.get('cache-control'),
              bytes: (await r.arrayBuffer()).byteLength};
    }, manifest['ensemble_core.wasm']);
    assert.equal(wasm.type, 'application/wasm');
    assert.match(wasm.cache, /immutable/);
    assert.equal(wasm.bytes, fs.statSync(path.join(dir, 'ensemble_core.wasm')).size);
    await page.waitForSelector(`${byTestId('app')}[data-offline-ready="true"]`, {timeout: 20000});

    // A reload: the worker asks for the hashed files, and the service worker
    // answers from its cache without going to the network.
    const fromNetwork = [];
    browser.context.on('request', (r) => {
      if (r.serviceWorker() && kHashed.test(r.url())) fromNetwork.push(r.url());
    });
    await page.reload();
    await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
    assert.deepEqual(fromNetwork, []);
    assert.deepEqual(await cachedWasm(page),
                     [manifest['ensemble_core.js'], manifest['ensemble_core.wasm']].sort());

    // A new build of the glue: the next start uses it, and the cache keeps
    // only the current build's files.
    fs.appendFileSync(path.join(dir, 'ensemble_core.js'), '\n// rebuilt\n');
    await page.reload();
    await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
    const next = await page.evaluate(async () => (await fetch('/wasm/manifest.json')).json());
    assert.notEqual(next['ensemble_core.js'], manifest['ensemble_core.js']);
    assert.equal(next['ensemble_core.wasm'], manifest['ensemble_core.wasm']);
    const want = [next['ensemble_core.js'], next['ensemble_core.wasm']].sort();
    // The worker's fetch of the new manifest prunes the cache a moment after.
    let cached = await cachedWasm(page);
    for (const deadline = Date.now() + 10000; String(cached) !== String(want) && Date.now() < deadline;) {
      await page.waitForTimeout(100);
      cached = await cachedWasm(page);
    }
    assert.deepEqual(cached, want);
    // Scripts come compressed too (the build's Brotli copies of web-shell/).
    assert.equal(await page.evaluate(async () =>
      (await fetch('/app.js', {cache: 'no-store'})).headers.get('content-encoding')), 'br');
    assert.deepEqual(app.pageErrors, []);
  } finally {
    await app.close();
    fs.rmSync(dir, {recursive: true, force: true});
  }
});
