// The service worker: lets the app start while the server is down.
//
// The page, the db worker's scripts and the manifests are fetched network-first
// (so an online start always gets the current files) and every good answer is
// kept in the cache, which answers when the network cannot. The sync API and
// the health check are never cached: a stale answer there would lie about the
// server.
//
// Everything else the app loads has a content-hashed name that never changes,
// so it is answered from the cache first, without a request: the page's
// modules and style sheet (index.html's import map and its src/href name them;
// the server's /shell-manifest.json is the same map) and the wasm module's
// files (/wasm/manifest.json). Each new index.html or wasm manifest first
// caches every hashed file they name, then drops those that neither the cached
// page nor the cached manifest names, so the cache holds one whole build.
//
// The db worker has no import map: it and its imports (sync.js, api.js) ask
// for their plain names. Those are answered with the hashed files the cached
// page's import map names, cache-first, so the worker runs the page's own
// build without a request; they are network-first only until a page is cached.

const kCacheName = 'ensemble-shell-v5';
// "/<dirs>/<name>.<16 hex>.<ext>": the server's content-hashed asset names.
const kHashedAsset = /^\/(?:[^/]+\/)*[^/]+\.[0-9a-f]{16}\.[a-z]+$/;
const kWasmManifest = '/wasm/manifest.json';
// The page, under both of its names: an offline navigation is answered with it.
const kPages = ['/', '/index.html'];
// What is cached at install besides the hashed files: the page, the icon, the
// wasm manifest, and the db worker with its import graph (plain URLs).
const kShell = [
  ...kPages,
  '/favicon.svg',
  kWasmManifest,
  '/db-worker.js',
  '/sync.js',
  '/api.js',
];

// The hashed paths among `urls`.
function hashed(urls) {
  return urls.filter((u) => typeof u === 'string' && kHashedAsset.test(u));
}

// The hashed files a manifest response names.
async function manifestFiles(response) {
  try {
    return hashed(Object.values(await response.clone().json()));
  } catch {
    return [];
  }
}

// The import map of an index.html response: {plain path: hashed path}.
async function importMap(response) {
  try {
    const map = /<script type="importmap">([\s\S]*?)<\/script>/.exec(await response.clone().text());
    return map ? JSON.parse(map[1]).imports ?? {} : {};
  } catch {
    return {};
  }
}

// The hashed files the import map of an index.html response names.
async function pageFiles(response) {
  return hashed(Object.values(await importMap(response)));
}

// The cached page's import map, read once per page the cache takes (null
// until read again).
let pageMap = null;

function cachedPageMap(cache) {
  pageMap ??= cache.match('/index.html').then((page) => (page ? importMap(page) : {}))
    .catch(() => {
      pageMap = null;  // Read again next time.
      return {};
    });
  return pageMap;
}

// Every hashed file the cached page and the cached wasm manifest need.
async function cachedBuildFiles(cache) {
  const files = [];
  for (const page of kPages) {
    const response = await cache.match(page);
    if (response) files.push(...await pageFiles(response));
  }
  const manifest = await cache.match(kWasmManifest);
  if (manifest) files.push(...await manifestFiles(manifest));
  return new Set(files);
}

// Drops cached hashed files that neither the cached page nor the cached wasm
// manifest names. The keys are listed before the names are read: a file cached
// meanwhile was asked for by a page already in the cache, so it is kept.
async function pruneOldBuilds(cache) {
  const requests = await cache.keys();
  const keep = await cachedBuildFiles(cache);
  for (const request of requests) {
    const path = new URL(request.url).pathname;
    if (kHashedAsset.test(path) && !keep.has(path)) await cache.delete(request);
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(kCacheName);
    // 'reload' skips the HTTP cache: the shell must be the server's current one.
    await cache.addAll(kShell.map((url) => new Request(url, {cache: 'reload'})));
    // The page's import map is the shell manifest; the hashed files are
    // immutable, so the HTTP cache may answer for them.
    await cache.addAll([...await cachedBuildFiles(cache)]);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== kCacheName) await caches.delete(name);
    }
    // Control the page that installed us, so its next reload works offline.
    await self.clients.claim();
  })());
});

function bypassesCache(url) {
  return url.origin !== self.location.origin || url.pathname.startsWith('/api/') ||
         url.pathname === '/healthz';
}

// `event` keeps the worker alive while a new page or manifest brings in its
// build and prunes the cache after the answer has gone (keepNewBuild).
async function networkFirst(event) {
  const {request} = event;
  const path = new URL(request.url).pathname;
  const cache = await caches.open(kCacheName);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') {
      if (kPages.includes(path)) {
        // One page under both names, so the cache never holds two builds' pages.
        await Promise.all(kPages.map((page) => cache.put(page, response.clone())));
        pageMap = null;
      } else {
        await cache.put(request, response.clone());
      }
      if (kPages.includes(path) || path === kWasmManifest) {
        event.waitUntil(keepNewBuild(cache));
      }
    }
    return response;
  } catch (networkError) {
    const cached = await cache.match(request, {ignoreSearch: true});
    if (cached) return cached;
    if (request.mode === 'navigate') {
      const shell = await cache.match('/index.html');
      if (shell) return shell;
    }
    throw networkError;
  }
}

// Hashed files being fetched now, by path: a page's request and
// keepNewBuild's share one download.
const inflight = new Map();

// The hashed file at `path` from the network, kept in `cache` when good.
function fetchHashed(cache, path) {
  let pending = inflight.get(path);
  if (!pending) {
    pending = fetch(path).then(async (response) => {
      if (response.ok && response.type === 'basic') await cache.put(path, response.clone());
      return response;
    }).finally(() => inflight.delete(path));
    inflight.set(path, pending);
  }
  return pending.then((response) => response.clone());
}

// After a new page or wasm manifest: caches every hashed file they name
// first, so an offline start right after a deploy finds the whole new build,
// and only then drops the old one's. If the network fails meanwhile, the old
// files stay until the next try.
async function keepNewBuild(cache) {
  try {
    const missing = [];
    for (const path of await cachedBuildFiles(cache)) {
      if (!(await cache.match(path))) missing.push(path);
    }
    const fetched = await Promise.all(missing.map((path) => fetchHashed(cache, path)));
    if (fetched.some((response) => !response.ok)) return;
  } catch {
    return;
  }
  await pruneOldBuilds(cache);
}

// The hashed file at `path` from the cache, else from the network.
async function cacheFirst(path) {
  const cache = await caches.open(kCacheName);
  const cached = await cache.match(path);
  if (cached) return cached;
  return fetchHashed(cache, path);
}

// A file asked for by its plain name: the hashed file the cached page maps
// it to, when the page maps it (the db worker's scripts); else, or when that
// file can be neither found nor fetched, network-first under its own name
// (whose copy the install kept for an offline start).
async function plainFile(event) {
  const path = new URL(event.request.url).pathname;
  if (event.request.mode !== 'navigate' && !kPages.includes(path)) {
    const mapped = (await cachedPageMap(await caches.open(kCacheName)))[path];
    if (typeof mapped === 'string' && kHashedAsset.test(mapped)) {
      try {
        const response = await cacheFirst(mapped);
        if (response.ok) return response;
      } catch {
        // Offline and not cached: the plain name below.
      }
    }
  }
  return networkFirst(event);
}

self.addEventListener('fetch', (event) => {
  const {request} = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (bypassesCache(url)) return;  // Straight to the network, never cached.
  event.respondWith(kHashedAsset.test(url.pathname) ? cacheFirst(url.pathname) : plainFile(event));
});
