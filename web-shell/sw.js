// The service worker: lets the app start while the server is down.
//
// The app shell and the wasm files are fetched network-first (so an online
// start always gets the current files) and every good answer is kept in the
// cache, which answers when the network cannot. The sync API and the health
// check are never cached: a stale answer there would lie about the server.

const kCacheName = 'ensemble-shell-v3';
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
  '/wasm/ensemble_core.js',
  '/wasm/ensemble_core.wasm',
];

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(kCacheName);
    // 'reload' skips the HTTP cache: the shell must be the server's current one.
    await cache.addAll(kShell.map((url) => new Request(url, {cache: 'reload'})));
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

self.addEventListener('fetch', (event) => {
  const {request} = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (bypassesCache(url)) return;  // Straight to the network, never cached.
  event.respondWith(networkFirst(request));
});
