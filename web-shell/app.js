// The page: the shell around the views (sidebar, status bar, routing) and the
// start-up. Each view lives in views/*.js and renders from state.js; every
// read and write goes through the db worker (db-worker.js), which owns the
// wasm core, the browser's database and the sync loop, so the page stays
// responsive while SQLite works and keeps working offline.

import {onWorker, poke, rpc, rpcTimed} from './rpc.js';
import * as shortcuts from './shortcuts.js';
import {loadSpaces, reads, setSpace, state, subscribe} from './state.js';
import {byTestId, h, keepFocus} from './util.js';
import * as account from './views/account.js';
import * as activity from './views/activity.js';
import * as dock from './views/dock.js';
import * as problems from './views/problems.js';
import * as tasks from './views/tasks.js';

const el = {
  app: byTestId('app'),
  connection: byTestId('connection-state'),
  syncActivity: byTestId('sync-activity'),
  pendingCount: byTestId('pending-count'),
  pendingLabel: byTestId('pending-label'),
  conflictCount: byTestId('conflict-count'),
  dbState: byTestId('db-state'),
  nav: byTestId('nav'),
  spaceSelect: byTestId('space-select'),
  dockToggle: byTestId('dock-toggle'),
  dock: byTestId('dock'),
};

// The task list is the first screen; every other view is a module of its own,
// fetched once the first screen is painted (loadLaterViews) or when it is
// opened first, whichever comes first. A first visit downloads about 45 KiB
// less before the list shows, and a reload parses that much less script
// before the worker starts (issue 30). Each view's init runs when its module
// arrives, before its first render.
const kLaterViews = {
  today: () => import('./views/today.js'),
  'needs-me': () => import('./views/needs-me.js'),
  boards: () => import('./views/boards.js'),
  projects: () => import('./views/projects.js'),
  pages: () => import('./views/pages.js'),
  people: () => import('./views/people.js'),
  routines: () => import('./views/routines.js'),
  trash: () => import('./views/trash.js'),
  sharing: () => import('./views/sharing.js'),
  settings: () => import('./views/settings.js'),
};
const kViewNames = ['tasks', ...Object.keys(kLaterViews)];
const views = {tasks};  // name -> module, once loaded and initialised
const viewsLoading = new Map();  // name -> promise of its module

// The view's module, initialised: at once when it is loaded, else once it
// arrives. One that failed (offline before the service worker has the
// build) is asked again next time, though a browser may answer from the
// failure it keeps in its module map until the page reloads.
function loadView(name) {
  if (views[name]) return Promise.resolve(views[name]);
  if (!viewsLoading.has(name)) {
    viewsLoading.set(name, kLaterViews[name]().then((view) => {
      view.init?.(ctx);
      views[name] = view;
      return view;
    }).catch((e) => {
      viewsLoading.delete(name);
      throw e;
    }));
  }
  return viewsLoading.get(name);
}

// Says in the view that it could not load, rather than leave it blank.
function viewFailed(name, e) {
  console.warn(`ensemble: the ${name} view did not load`, e);
  const container = byTestId(`view-${name}`);
  if (container.querySelector('[data-testid="view-load-failed"]')) return;
  container.prepend(h('p', {class: 'problem', role: 'status', dataset: {testid: 'view-load-failed'}},
                      'This view could not load. Reload the page once you are online.'));
}

let laterViewsAsked = false;
function loadLaterViews() {
  if (laterViewsAsked) return;
  laterViewsAsked = true;
  for (const name of Object.keys(kLaterViews)) {
    loadView(name).catch((e) => {
      console.warn(`ensemble: the ${name} view did not load`, e);
      if (!laterViewsAsked) return;
      laterViewsAsked = false;  // Try again when the browser is back online.
      window.addEventListener('online', loadLaterViews, {once: true});
    });
  }
}

// ---- Routing: #/<view>[/<id>]. ----

// The skip link's "#view" is not a route: the open view stays.
let lastRoute = {name: 'tasks', id: null};

function route() {
  if (location.hash && !location.hash.startsWith('#/')) return lastRoute;
  const [, name = 'tasks', id = null] = location.hash.split('/');
  lastRoute = {name: kViewNames.includes(name) ? name : 'tasks',
               id: id ? decodeURIComponent(id) : null};
  return lastRoute;
}

function showView() {
  if (location.hash && !location.hash.startsWith('#/')) return;
  const {name, id} = route();
  el.app.dataset.view = name;
  for (const key of kViewNames) {
    byTestId(`view-${key}`).hidden = key !== name;
  }
  for (const a of el.nav.querySelectorAll('a')) {
    if (a.dataset.view === name) {
      a.setAttribute('aria-current', 'page');
    } else {
      a.removeAttribute('aria-current');
    }
  }
  const view = views[name];
  if (!view) {
    // Shown again once it arrives, if it is still the route by then.
    loadView(name).then(() => {
      if (route().name === name) showView();
    }, (e) => viewFailed(name, e));
    return;
  }
  view.render?.();
  if (id) view.open?.(id);
}

// Opens a record wherever it lives (links in the dock, Today, boards).
export function openRecord(kind, id) {
  const view = {task: 'tasks', page: 'pages', board: 'boards', card: 'boards', person: 'people',
                project: 'projects', routine: 'routines'}[kind] ??
    'tasks';
  const hash = `#/${view}/${encodeURIComponent(id)}`;
  if (location.hash === hash) {
    showView();
  } else {
    location.hash = hash;
  }
}

window.addEventListener('hashchange', showView);

// ---- Status bar. ----

function renderSync() {
  const {online, syncing, pending} = state.sync ?? {pending: 0};
  // No verdict yet (starting, or another tab has the database): say so
  // rather than claim to be offline.
  const connection = state.sync ? (online ? 'online' : 'offline')
                                : state.db.state === 'blocked' ? 'paused' : 'connecting';
  el.connection.textContent = {online: 'Online', offline: 'Offline', paused: 'Paused',
                               connecting: 'Connecting…'}[connection];
  el.connection.dataset.state = connection;
  el.syncActivity.hidden = !syncing;
  el.pendingCount.textContent = String(pending);
  el.pendingLabel.textContent = pending === 1 ? 'pending change' : 'pending changes';
  el.pendingCount.parentElement.dataset.pending = pending > 0 ? 'yes' : 'no';
  const conflicts = state.rejections.filter(problems.isConflict).length;
  el.conflictCount.hidden = conflicts === 0;
  el.conflictCount.textContent = conflicts === 1 ? '1 conflict' : `${conflicts} conflicts`;
}

el.conflictCount.addEventListener('click', () => byTestId('problem')?.querySelector('button')?.focus());

const kDbMessages = {
  starting: null,
  opening: null,
  ready: null,
  waiting: 'Waiting for the previous page to let go of your data…',
  blocked: 'Ensemble is open in another tab. Close it there to use it here; this tab takes over ' +
           'as soon as the other one closes.',
  failed: 'Your data could not be opened',
};

function renderDbState() {
  const {state: dbState, storage, message} = state.db;
  el.app.dataset.dbState = dbState;
  let text = kDbMessages[dbState] ?? null;
  if (dbState === 'failed' && message) text = `${text}: ${message}`;
  if (dbState === 'ready' && storage === 'memory') {
    text = 'This browser cannot keep your data on this device: changes made offline are lost ' +
           'when the page closes.';
  }
  el.dbState.hidden = !text;
  el.dbState.textContent = text ?? '';
  el.dbState.dataset.state = dbState;
}

// ---- Spaces. ----

function renderSpaces() {
  const ids = new Set(state.spaces.map((s) => s.id));
  for (const t of state.tasks) if (t.spaceId) ids.add(t.spaceId);
  ids.add(state.space);
  const options = [...ids].map((id) => {
    const space = state.spaces.find((s) => s.id === id);
    const role = space?.role;
    // Named spaces show their name; the one made at sign-up has none, and is the owner's own.
    const own = id === 'personal' || (role === 'owner' && !space?.name);
    const label = space?.name || (own ? 'Personal' : id);
    return h('option', {value: id}, role && role !== 'owner' ? `${label} (${role})` : label);
  });
  const key = [...ids].join('\n');
  if (el.spaceSelect.dataset.key !== key) {
    el.spaceSelect.replaceChildren(...options);
    el.spaceSelect.dataset.key = key;
  }
  el.spaceSelect.value = state.space;
}

el.spaceSelect.addEventListener('change', () => setSpace(el.spaceSelect.value));

// ---- The dock: a column on wide screens, a panel that opens on narrow ones. ----

const wide = window.matchMedia('(min-width: 1100px)');

function setDock(open) {
  el.dock.dataset.open = open ? 'true' : 'false';
  el.dockToggle.setAttribute('aria-expanded', String(open));
  if (open && !wide.matches) byTestId('dock-input').focus();
}

el.dockToggle.addEventListener('click', () => setDock(el.dock.dataset.open !== 'true'));
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && !wide.matches && el.dock.dataset.open === 'true' &&
      el.dock.contains(document.activeElement)) {
    setDock(false);
    el.dockToggle.focus();
  }
});
setDock(wide.matches);
wide.addEventListener('change', () => setDock(wide.matches));

// ---- Layout. ----

// The sidebar and the dock stick under the top bar, whose height changes as
// it wraps (a phone, a long status); CSS reads it from --topbar-height.
const topbar = document.querySelector('.topbar');
new ResizeObserver(() => {
  document.documentElement.style.setProperty('--topbar-height', `${topbar.offsetHeight}px`);
}).observe(topbar);

// The skip link moves focus to the view without touching the address, so
// the open view, its nav highlight and a reload's view all stay as they were.
document.querySelector('.skip-link').addEventListener('click', (e) => {
  e.preventDefault();
  el.app.focus();
});

// ---- Wiring. ----

subscribe((what) => {
  if (what === 'db') {
    renderDbState();
    renderSync();
    keepFocus(() => views[route().name]?.render?.());
  } else if (what === 'sync') {
    renderSync();
    problems.render();
  } else {
    renderSpaces();
    renderSync();
    account.render();
    problems.render();
    keepFocus(() => views[route().name]?.render?.());
  }
});

const ctx = {openRecord, rpc};
for (const view of [tasks, dock, problems, account, shortcuts, activity]) view.init?.(ctx);

window.addEventListener('online', poke);

// Tests and benchmarks drive the worker through this: the app's own methods.
window.ensemble = {rpc, rpcTimed};

// ---- After the first screen. ----

// Once the first sync cycle is over and what it brought is read and painted,
// the db worker may load the module's second half: neither it nor the
// service worker's install below competes with the first screen.
// A tab opened in the background paints no frame: kFirstScreenFallbackMs
// stands in for it.
const kFirstScreenFallbackMs = 2000;
onWorker('firstSyncEnded', async () => {
  await reads();
  let told = false;
  const tell = () => {
    if (told) return;
    told = true;
    rpc('firstScreenShown').catch(() => {});  // A database that never opened: nothing to do.
    loadLaterViews();
  };
  requestAnimationFrame(() => setTimeout(tell));
  setTimeout(tell, kFirstScreenFallbackMs);
});
// A database that never opens has no first sync: the other views load anyway.
const kLaterViewsFallbackMs = 10000;
setTimeout(loadLaterViews, kLaterViewsFallbackMs);

// ---- Offline start. ----

// The service worker serves the app shell and the wasm files when the server
// cannot, so a reload works offline. data-offline-ready tells tests when it
// controls the page.
//
// It is registered once the first screen is done, when the db worker has the
// module's second half ('deferred'): its install caches the whole build, and
// on a first visit those downloads would otherwise share the line with the
// first screen's; after it, they come from the HTTP cache. A worker that
// never gets there (the database failed, the second half did not load)
// registers it after kServiceWorkerFallbackMs. So a first visit that goes
// offline within its first seconds has no offline start yet (as before an
// install finished), and a registration that failed offline is tried again
// when the browser is back online.
const kServiceWorkerFallbackMs = 10000;
let serviceWorkerAsked = false;
function registerServiceWorker() {
  if (serviceWorkerAsked) return;
  serviceWorkerAsked = true;
  navigator.serviceWorker.register('/sw.js', {scope: '/'}).catch((e) => {
    console.warn('ensemble: no offline start yet (service worker failed)', e);
    window.addEventListener('online', registerServiceWorker, {once: true});
    serviceWorkerAsked = false;
  });
}
if ('serviceWorker' in navigator) {
  onWorker('deferred', registerServiceWorker);
  setTimeout(registerServiceWorker, kServiceWorkerFallbackMs);
  const markReady = () => {
    el.app.dataset.offlineReady = navigator.serviceWorker.controller ? 'true' : 'false';
  };
  navigator.serviceWorker.addEventListener('controllerchange', markReady);
  navigator.serviceWorker.ready.then(markReady);
  markReady();
}

renderSync();
renderDbState();
renderSpaces();
showView();
loadSpaces();
