// What the page knows, read from the db worker: tasks, the other records by
// kind, the Trash, refused changes, the limits the core enforces, and which
// space and view are open. Views subscribe and re-render when it changes;
// nothing here talks to the network.

import {api} from './api.js';
import {onWorker, rpc} from './rpc.js';

// The kinds the views read besides tasks, when the core knows them.
const kOtherKinds = ['page', 'board', 'card', 'board_layout', 'project', 'person', 'reminder',
                     'watcher', 'desk_list', 'desk_list_item', 'comment', 'routine'];

export const state = {
  db: {state: 'starting'},
  sync: null,  // Until the sync loop first reports.
  tasks: [],
  records: {},  // kind -> live records
  trash: [],
  rejections: [],
  kinds: null,  // The synced kinds the core knows (null until asked).
  // The core's limits (the module's limits(): field sizes, message and
  // mention caps; wasm/bindings/limits_bindings.cc), null until the module
  // loads. The views bound what people type and send with them rather than
  // with copies of the core's numbers.
  limits: null,
  listed: false,
  // True while `tasks` holds only the top of the open list (firstScreen).
  partial: false,
  // True once tasks have been read (the first screen or all of them).
  tasksRead: false,
  space: localStorage.getItem('ensemble-space') ?? 'personal',
  spaces: [{id: 'personal', role: 'owner'}],
  // {mode: 'local'} or {mode: 'accounts', id, email, name} once the server
  // answered; {mode: 'accounts', signedOut: true} when it wants a sign-in.
  account: null,
  readError: null,
};

const subscribers = new Set();

// fn(what) after each change; `what` is 'data', 'db', 'sync' or 'space'.
export function subscribe(fn) {
  subscribers.add(fn);
  return () => subscribers.delete(fn);
}

export function notify(what) {
  for (const fn of subscribers) fn(what);
}

export const inSpace = (r) => !r.spaceId || r.spaceId === state.space;
export const records = (kind) => (state.records[kind] ?? []).filter(inSpace);
export const spaceTasks = () => state.tasks.filter(inSpace);

// A record of any kind by id (tasks included), or null.
export function findRecord(id) {
  const task = state.tasks.find((t) => t.id === id);
  if (task) return {...task, kind: 'task'};
  for (const list of Object.values(state.records)) {
    const found = list.find((r) => r.id === id);
    if (found) return found;
  }
  return null;
}

// The most characters field `field` of record kind `kind` holds, as the core
// checks it; undefined until the module loads (h() then sets no maxLength,
// and the core still refuses what is too long).
export const maxChars = (kind, field) => state.limits?.fields?.[kind]?.[field]?.maxChars;

export function setSpace(id) {
  state.space = id;
  localStorage.setItem('ensemble-space', id);
  notify('space');
}

let refreshing = null;
let refreshAgain = false;

// How many open tasks the first read shows before it reads the whole list:
// the task view says, while its list is on screen in stored order; 0 reads
// everything at once.
let firstScreen = () => 0;
export function setFirstScreen(rows) {
  firstScreen = rows;
}

// The first read shows the top of the list first: the whole list costs time
// in proportion to its length (its read, its rows), its top does not.
// If that read fails, the whole list's read follows all the same.
async function showFirstScreen() {
  const limit = firstScreen();
  if (!limit) return;
  let tasks;
  try {
    ({tasks} = JSON.parse((await rpc('listOpenTasks', {spaceId: state.space, limit})).json));
  } catch (e) {
    console.warn('ensemble: the first screen was not read; reading the whole list', e);
    return;
  }
  if (!tasks.length || state.tasksRead) return;  // Nothing to show early, or too late.
  performance.mark('tasks-fetched');
  state.tasks = tasks;
  state.partial = true;
  state.tasksRead = true;
  notify('data');
}

// Resolves when no read is running (or once the running one ends).
export function reads() {
  return refreshing ?? Promise.resolve();
}

// Re-reads everything; coalesces bursts (a pull of several pages).
export function refresh() {
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      refreshAgain = false;
      try {
        if (!state.kinds) state.kinds = await rpc('kinds');
        if (!state.tasksRead) await showFirstScreen();
        const others = kOtherKinds.filter((k) => state.kinds.includes(k));
        const [listed, rejections, trash, ...lists] = await Promise.all([
          rpc('listTasks'), rpc('rejections'),
          state.kinds.length > 1 ? rpc('listTrash') : Promise.resolve([]),
          ...others.map((kind) => rpc('listRecords', {kind})),
        ]);
        const {tasks} = JSON.parse(listed.json);
        if (!state.tasksRead) performance.mark('tasks-fetched');
        state.tasks = tasks;
        state.partial = false;
        state.tasksRead = true;
        state.rejections = rejections;
        state.trash = trash;
        others.forEach((kind, i) => {
          state.records[kind] = lists[i];
        });
        state.readError = null;
        notify('data');
      } catch (e) {
        if (state.db.state !== 'blocked') {
          state.readError = `Could not read your data: ${e.message}`;
          notify('data');
        }
      }
    } while (refreshAgain);
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

onWorker('db', (msg) => {
  state.db = msg;
  notify('db');
  if (msg.state === 'ready') {
    for (const [name, at] of Object.entries(msg.timings ?? {})) {
      performance.mark(`worker:${name}`, {startTime: at - performance.timeOrigin});
    }
    refresh();
  }
});
// Sent once, as soon as the module loads: before the database's 'ready', so
// the views have the limits by their first render with data.
onWorker('limits', (msg) => {
  state.limits = msg.limits;
});
onWorker('sync', (msg) => {
  state.sync = msg;
  notify('sync');
});
onWorker('changed', () => refresh());

// Spaces come from the account (accounts mode); local mode has one.
export async function loadSpaces() {
  let me;
  try {
    me = await api('GET', '/api/auth/me');
  } catch (e) {
    if (e.status === 401) {
      state.account = {mode: 'accounts', signedOut: true};
      notify('space');
    }
    return;  // Offline, or the server failing: keep the spaces we have.
  }
  state.account = me.mode === 'local' ? {mode: 'local'} : {mode: 'accounts', ...me.account};
  if (Array.isArray(me.spaces) && me.spaces.length) {
    state.spaces = me.spaces;
    if (!me.spaces.some((s) => s.id === state.space)) state.space = me.spaces[0].id;
  }
  notify('space');
}
