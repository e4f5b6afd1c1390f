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
import * as boards from './views/boards.js';
import * as dock from './views/dock.js';
import * as needsMe from './views/needs-me.js';
import * as pages from './views/pages.js';
import * as people from './views/people.js';
import * as problems from './views/problems.js';
import * as projects from './views/projects.js';
import * as routines from './views/routines.js';
import * as settings from './views/settings.js';
import * as sharing from './views/sharing.js';
import * as tasks from './views/tasks.js';
import * as today from './views/today.js';
import * as trash from './views/trash.js';

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

const views = {tasks, today, 'needs-me': needsMe, boards, projects, pages, people, routines, trash,
               sharing, settings};

// ---- Routing: #/<view>[/<id>]. ----

// The skip link's "#view" is not a route: the open view stays.
let lastRoute = {name: 'tasks', id: null};

function route() {
  if (location.hash && !location.hash.startsWith('#/')) return lastRoute;
  const [, name = 'tasks', id = null] = location.hash.split('/');
  lastRoute = {name: views[name] ? name : 'tasks', id: id ? decodeURIComponent(id) : null};
  return lastRoute;
}

function showView() {
  if (location.hash && !location.hash.startsWith('#/')) return;
  const {name, id} = route();
  el.app.dataset.view = name;
  for (const key of Object.keys(views)) {
    byTestId(`view-${key}`).hidden = key !== name;
  }
  for (const a of el.nav.querySelectorAll('a')) {
    if (a.dataset.view === name) {
      a.setAttribute('aria-current', 'page');
    } else {
      a.removeAttribute('aria-current');
    }
  }
  views[name].render?.();
  if (id) views[name].open?.(id);
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
    keepFocus(() => views[route().name].render?.());
  } else if (what === 'sync') {
    renderSync();
    problems.render();
  } else {
    renderSpaces();
    renderSync();
    account.render();
    problems.render();
    keepFocus(() => views[route().name].render?.());
  }
});

const ctx = {openRecord, rpc};
for (const view of [...Object.values(views), dock, problems, account, shortcuts, activity]) {
  view.init?.(ctx);
}

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
  };
  requestAnimationFrame(() => setTimeout(tell));
  setTimeout(tell, kFirstScreenFallbackMs);
});

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
