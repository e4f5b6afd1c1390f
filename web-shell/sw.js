// The service worker: lets the app start while the server is down.
//
// The app shell and the wasm files are fetched network-first (so an online
// start always gets the current files) and every good answer is kept in the
// cache, which answers when the network cannot. The sync API and the health
// check are never cached: a stale answer there would lie about the server.
// The wasm module's content-hashed files never change, so they are answered
// from the cache first; /wasm/manifest.json names the current ones, and a
// new manifest drops the files of older builds from the cache.

const kCacheName = 'ensemble-shell-v4';
// "<name>.<16 hex>.<ext>": the server's content-hashed asset names.
const kHashedAsset = /^\/wasm\/[^/]+\.[0-9a-f]{16}\.[a-z]+$/;
const kManifest = '/wasm/manifest.json';
const kShell = [
  '/',
  '/index.html',
  '/api.js',
  '/app.js',
  '/rpc.js',
  '/state.js',
  '/util.js',
  '/views/account.js',
  '/views/activity.js',
  '/views/board-columns.js',
  '/views/boards.js',
  '/views/comments.js',
  '/views/desk.js',
  '/views/dock.js',
  '/views/dock-render.js',
  '/views/dock-chats.js',
  '/views/mentions.js',
  '/views/needs-me.js',
  '/views/offline-exchanges.js',
  '/views/pages.js',
  '/views/people.js',
  '/views/person-page.js',
  '/views/problems.js',
  '/views/projects.js',
  '/views/record-form.js',
  '/views/routines.js',
  '/views/settings.js',
  '/views/sharing.js',
  '/views/task-list-filters.js',
  '/views/task-bulk.js',
  '/views/task-detail.js',
  '/views/tasks.js',
  '/views/today.js',
  '/views/trash.js',
  '/db-worker.js',
  '/shortcuts.js',
  '/sync.js',
  '/toast.js',
  '/styles.css',
  '/favicon.svg',
  '/wasm/manifest.json',
];

// The hashed files a manifest response names.
async function manifestFiles(response) {
  try {
    return Object.values(await response.clone().json()).filter((u) => kHashedAsset.test(u));
  } catch {
    return [];
  }
}

// Drops cached hashed files that the current manifest no longer names.
async function pruneOldBuilds(cache, manifest) {
  const keep = new Set(await manifestFiles(manifest));
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (kHashedAsset.test(path) && !keep.has(path)) await cache.delete(request);
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(kCacheName);
    // 'reload' skips the HTTP cache: the shell must be the server's current one.
    await cache.addAll(kShell.map((url) => new Request(url, {cache: 'reload'})));
    const manifest = await cache.match(kManifest);
    if (manifest) await cache.addAll(await manifestFiles(manifest));
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

async function networkFirst(request) {
  const cache = await caches.open(kCacheName);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') {
      await cache.put(request, response.clone());
      if (new URL(request.url).pathname === kManifest) await pruneOldBuilds(cache, response);
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

async function cacheFirst(request) {
  const cache = await caches.open(kCacheName);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const {request} = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (bypassesCache(url)) return;  // Straight to the network, never cached.
  event.respondWith(kHashedAsset.test(url.pathname) ? cacheFirst(request) : networkFirst(request));
});
