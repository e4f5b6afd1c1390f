// The service worker's install list (kShell in web-shell/sw.js) holds what the
// app loads by a plain URL. The page's modules and style sheet come under
// hashed names from index.html's import map, which the service worker reads;
// the db worker has no import map, so it and every module it imports must be
// listed, or an offline start has no database. After a deploy, the new build
// is cached whole before the old one is dropped (keepNewBuild).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';
import vm from 'node:vm';

import {repoRoot} from '../../tools/lib/harness.mjs';

const webRoot = path.join(repoRoot, 'web-shell');

// sw.js's kShell and kHashedAsset, from running it against a stub `self`.
function serviceWorker() {
  const source = fs.readFileSync(path.join(webRoot, 'sw.js'), 'utf8');
  const context = vm.createContext({self: {addEventListener() {}, location: new URL('http://localhost/')}});
  vm.runInContext(`${source}\n;globalThis.out = {kShell, kHashedAsset};`, context);
  // Copied into this realm (deepEqual tells the realms' arrays apart).
  return {kShell: [...context.out.kShell], kHashedAsset: new RegExp(context.out.kHashedAsset.source)};
}

// The plain URLs of `entry` and of every module it imports, statically.
function importGraph(entry) {
  const seen = new Set();
  const visit = (url) => {
    if (seen.has(url)) return;
    seen.add(url);
    const source = fs.readFileSync(path.join(webRoot, url), 'utf8');
    for (const [, spec] of source.matchAll(/^import\s(?:[^;]*?\sfrom\s)?'([^']+)'/gm)) {
      visit(new URL(spec, `http://localhost${url}`).pathname);
    }
  };
  visit(entry);
  return [...seen];
}

test('the service worker installs every file the app loads by a plain URL', () => {
  const {kShell} = serviceWorker();
  const shell = new Set(kShell);
  const worker = importGraph('/db-worker.js');
  assert.ok(worker.includes('/sync.js'), `the worker's graph: ${worker}`);
  assert.deepEqual(worker.filter((f) => !shell.has(f)), [], 'add these to kShell in web-shell/sw.js');
  // The page under both names, the wasm manifest, and what index.html names
  // that is no script or style (those the server maps to hashed names).
  const html = fs.readFileSync(path.join(webRoot, 'index.html'), 'utf8');
  const linked = [...html.matchAll(/(?:src|href)="(\/[^"]*)"/g)].map((m) => m[1])
    .filter((f) => !/\.(js|css)$/.test(f));
  assert.ok(linked.includes('/favicon.svg'));
  for (const f of ['/', '/index.html', '/wasm/manifest.json', ...linked]) {
    assert.ok(shell.has(f), `${f} is not in kShell`);
  }
  // No other module: the page's come hashed, and a stale entry fails the install.
  assert.deepEqual(kShell.filter((f) => /\.(js|css)$/.test(f) && !worker.includes(f)), []);
  for (const f of shell) {
    if (f === '/' || f.startsWith('/wasm/')) continue;
    assert.ok(fs.existsSync(path.join(webRoot, f)), `${f} is in the shell but not in web-shell/`);
  }
});

test('the service worker knows the server\'s hashed names, in any folder', () => {
  const {kHashedAsset} = serviceWorker();
  for (const p of ['/app.0123456789abcdef.js', '/views/tasks.0123456789abcdef.js',
                   '/styles.0123456789abcdef.css', '/wasm/ensemble_core.0123456789abcdef.wasm']) {
    assert.ok(kHashedAsset.test(p), p);
  }
  for (const p of ['/', '/app.js', '/db-worker.js', '/views/tasks.js', '/wasm/manifest.json',
                   '/shell-manifest.json', '/app.0123456789abcde.js', '/app.0123456789ABCDEF.js']) {
    assert.ok(!kHashedAsset.test(p), p);
  }
});

// A Cache of the Cache API over a Map, keyed by path.
class FakeCache {
  constructor() {
    this.entries = new Map();
  }
  key(request) {
    return typeof request === 'string' ? request : new URL(request.url).pathname;
  }
  async match(request) {
    return this.entries.get(this.key(request))?.clone();
  }
  async put(request, response) {
    this.entries.set(this.key(request), response);
  }
  async delete(request) {
    return this.entries.delete(this.key(request));
  }
  async keys() {
    return [...this.entries.keys()].map((p) => ({url: `http://localhost${p}`}));
  }
}

// sw.js's keepNewBuild and cacheFirst over `cache`, with `fetch` as the network.
function buildKeeper(cache, fetch) {
  const source = fs.readFileSync(path.join(webRoot, 'sw.js'), 'utf8');
  const context = vm.createContext({
    self: {addEventListener() {}, location: new URL('http://localhost/')},
    caches: {open: async () => cache},
    fetch, URL, Response,
  });
  vm.runInContext(`${source}\n;globalThis.out = {keepNewBuild, cacheFirst, plainFile};`, context);
  return context.out;
}

const h = (n) => String(n).repeat(16);
// A same-origin answer, as fetch() gives in a service worker.
const sameOrigin = (response) => Object.defineProperty(response, 'type', {value: 'basic'});
const page = (files) => new Response(
  `<script type="importmap">${JSON.stringify({imports: files})}</script>`);

test('a new build is cached whole before the old one is dropped', async () => {
  const cache = new FakeCache();
  await cache.put('/', page({'/app.js': `/app.${h(2)}.js`, '/views/x.js': `/views/x.${h(2)}.js`}));
  await cache.put(`/app.${h(1)}.js`, new Response('old app'));
  await cache.put(`/app.${h(2)}.js`, new Response('new app'));  // The page asked for it already.
  const fetched = [];
  const {keepNewBuild, cacheFirst} = buildKeeper(cache, async (url) => {
    fetched.push(url);
    await new Promise((resolve) => setTimeout(resolve, 10));
    return sameOrigin(new Response(`body of ${url}`));
  });
  // The page asks for the view while the worker brings the build in: one download.
  const [, asked] = await Promise.all([
    keepNewBuild(cache), cacheFirst(`/views/x.${h(2)}.js`)]);
  assert.equal(await asked.text(), `body of /views/x.${h(2)}.js`);
  assert.deepEqual(fetched, [`/views/x.${h(2)}.js`]);
  assert.deepEqual([...cache.entries.keys()].sort(),
                   ['/', `/app.${h(2)}.js`, `/views/x.${h(2)}.js`].sort());
});

test('a build that could not be fetched whole leaves the old files', async () => {
  const cache = new FakeCache();
  await cache.put('/', page({'/app.js': `/app.${h(2)}.js`}));
  await cache.put(`/app.${h(1)}.js`, new Response('old app'));
  const {keepNewBuild} = buildKeeper(cache, async () => {
    throw new TypeError('offline');
  });
  await keepNewBuild(cache);
  assert.ok(cache.entries.has(`/app.${h(1)}.js`), 'the old build was dropped before the new came');
});

test('the db worker\'s plain scripts come from the cached page\'s build, not the network', async () => {
  const cache = new FakeCache();
  await cache.put('/index.html', page({'/sync.js': `/sync.${h(3)}.js`, '/api.js': `/api.${h(3)}.js`}));
  await cache.put(`/sync.${h(3)}.js`, new Response('sync of build 3'));
  const fetched = [];
  const {plainFile} = buildKeeper(cache, async (request) => {
    const url = typeof request === 'string' ? request : new URL(request.url).pathname;
    fetched.push(url);
    return sameOrigin(new Response(`network ${url}`));
  });
  const ask = (p, mode = 'same-origin') =>
    plainFile({request: {url: `http://localhost${p}`, mode}, waitUntil() {}});
  assert.equal(await (await ask('/sync.js')).text(), 'sync of build 3');
  assert.deepEqual(fetched, []);
  // Mapped but not cached yet: the hashed file, downloaded and kept.
  assert.equal(await (await ask('/api.js')).text(), `network /api.${h(3)}.js`);
  assert.ok(cache.entries.has(`/api.${h(3)}.js`));
  // What the page does not map goes to the network under its own name.
  assert.equal(await (await ask('/favicon.svg')).text(), 'network /favicon.svg');
  assert.deepEqual(fetched, [`/api.${h(3)}.js`, '/favicon.svg']);
});

test('offline, a mapped script the cache lacks comes from its plain-named copy', async () => {
  const cache = new FakeCache();
  await cache.put('/index.html', page({'/sync.js': `/sync.${h(4)}.js`}));
  await cache.put('/sync.js', new Response('sync kept at install'));
  const {plainFile} = buildKeeper(cache, async () => {
    throw new TypeError('offline');
  });
  const answer = await plainFile({request: {url: 'http://localhost/sync.js', mode: 'same-origin'},
                                  waitUntil() {}});
  assert.equal(await answer.text(), 'sync kept at install');
});
