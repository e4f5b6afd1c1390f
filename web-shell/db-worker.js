// The db worker: the one owner of the wasm core and of the browser's database.
//
// It keeps the database in OPFS through the core's "opfs-sah" SQLite VFS,
// whose synchronous file handles only exist in dedicated workers, and runs
// the sync loop (sync.js) next to it. The page talks to it by postMessage:
//   page -> worker  {id, method, params}
//   worker -> page  {id, ok: true, result, workerMs} | {id, ok: false, code, message}
//   worker -> page  events {type: 'db' | 'sync' | 'changed', ...}
//
// One tab at a time owns the database: a Web Lock says who, and the access
// handles are exclusive anyway. A second tab waits and shows that the app is
// open elsewhere; it takes over when the first tab closes.

import {SyncLoop} from './sync.js';

const kDbDir = 'ensemble';
const kDbFile = 'ensemble.db';
const kPoolFiles = [kDbFile, `${kDbFile}-journal`];
const kLockName = 'ensemble-db';
// Waiting longer than this for the lock means another tab has the database
// (a reload's previous page releases it well within this).
const kBlockedAfterMs = 1500;
// After getting the lock, the previous owner's handles can take a moment to
// close (a reload); retry that long before giving up.
const kHandleRetryMs = 5000;
const kSpaceId = 'personal';
// Mutations the page may run through mutate(): the generic record verbs,
// merging two people, and marking a watcher's news seen.
const kMutationName = /^([a-z_]+\.(create|update|delete|restore)|person\.merge|watcher\.seen)$/;

// Methods that need the module but not the database: they answer while
// another tab holds it. (status needs neither.)
const kModuleOnly = new Set(['limits']);
// Methods that run in the module's second half (wasm/js/split_pre.js): they
// wait for it to load without blocking the worker, and a second half that
// cannot load (offline before it was kept) is their error, not a stall.
const kSecondHalf = new Set(['formatEntityText', 'resolveMentions', 'localTurn',
                             'applyLocalCalls', 'mergeSuggestions']);

let core = null;
let sync = null;
let db = {state: 'starting', storage: null, clientId: null, message: null};
let readyResolve;
let readyReject;
const ready = new Promise((resolve, reject) => {
  readyResolve = resolve;
  readyReject = reject;
});
ready.catch(() => {});  // Reported through the 'db' event and each call.
let loadedResolve;
let loadedReject;
const loaded = new Promise((resolve, reject) => {
  loadedResolve = resolve;
  loadedReject = reject;
});
loaded.catch(() => {});

// Start-up milestones as epoch milliseconds, so the page can place them on
// its own timeline (performance marks 'worker:...').
const timings = {};
function milestone(name) {
  timings[name] = performance.timeOrigin + performance.now();
}
milestone('started');

// The module under its content-hashed names (the server's /wasm/manifest.json
// maps each file to one): the browser keeps those for good, with the wasm's
// compiled code, so a reload neither downloads nor recompiles the module, and
// a new build is a new name. The glue streams the wasm into the compiler as it
// arrives (instantiateStreaming). Without a manifest (offline before the
// service worker kept one) the plain names, which the service worker keeps.
const moduleFactory = (async () => {
  let manifest = {};
  try {
    const res = await fetch('/wasm/manifest.json');
    if (res.ok) manifest = await res.json();
  } catch {
    // The plain names below.
  }
  const url = (name) => manifest[name] ?? `/wasm/${name}`;
  const {default: createEnsembleCore} = await import(url('ensemble_core.js'));
  milestone('glueLoaded');
  return () => createEnsembleCore({locateFile: (name) => url(name)});
})();
moduleFactory.catch(() => {});  // Reported by start().

function emit(message) {
  self.postMessage(message);
}

function setDb(patch) {
  db = {...db, ...patch};
  emit({type: 'db', ...db});
}

class CoreError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

// Calls a binding and unwraps its {"ok":...} answer.
function call(method, ...args) {
  const out = JSON.parse(core[method](...args));
  if (!out.ok) throw new CoreError(out.code, out.message);
  return out;
}

// A task list binding's answer, {json}: its text as is on success
// (nlohmann::json writes keys in order, so a success starts like this).
function tasksAnswer(text) {
  if (text.startsWith('{"ok":true,"tasks":')) return {json: text};
  const out = JSON.parse(text);
  throw new CoreError(out.code, out.message);
}

function opfsAvailable() {
  return typeof navigator.storage?.getDirectory === 'function' &&
         typeof FileSystemFileHandle !== 'undefined' &&
         'createSyncAccessHandle' in FileSystemFileHandle.prototype;
}

// Resolves once this worker holds the database lock, for as long as it lives.
function holdLock() {
  if (!navigator.locks) return Promise.resolve();
  return new Promise((resolve) => {
    const blocked = setTimeout(() => setDb({state: 'blocked'}), kBlockedAfterMs);
    navigator.locks.request(kLockName, {mode: 'exclusive'}, () => {
      clearTimeout(blocked);
      resolve();
      return new Promise(() => {});  // Held until the worker ends.
    });
  });
}

async function openPool() {
  const deadline = Date.now() + kHandleRetryMs;
  for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
    try {
      await core.openOpfsPool(kDbDir, kPoolFiles);
      return;
    } catch (e) {
      if (e?.name !== 'NoModificationAllowedError' || Date.now() > deadline) throw e;
      setDb({state: 'waiting'});
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

async function start() {
  try {
    core = await (await moduleFactory)();
  } catch (e) {
    loadedReject(e);
    throw e;
  }
  milestone('coreLoaded');
  core.onDeferredFailed = giveUpCore;
  loadedResolve();
  // Before any 'db' event says ready, so the page never renders data
  // without them. Without them the app still works: the core refuses what
  // is too long.
  try {
    emit({type: 'limits', limits: methods.limits()});
  } catch (e) {
    console.warn('ensemble: the core did not report its limits', e);
  }
  let storage = 'memory';
  if (opfsAvailable()) {
    await holdLock();
    milestone('lockHeld');
    setDb({state: 'opening'});
    try {
      await openPool();
      milestone('poolOpen');
      storage = 'opfs';
    } catch (e) {
      if (e?.name === 'NoModificationAllowedError') {
        // The lock is ours yet the files are held: an older page without the
        // lock. Never share the files; say so and stay out of the way.
        setDb({state: 'blocked', message: 'the database is in use by another tab'});
        throw new CoreError('DB_BLOCKED', 'the database is in use by another tab');
      }
      console.warn('ensemble: OPFS unavailable, keeping data in memory', e);
    }
  }
  const opened = storage === 'opfs' ? call('open', kDbFile, 'opfs-sah') : call('open', ':memory:', '');
  milestone('dbOpen');
  setDb({state: 'ready', storage, clientId: opened.clientId, message: null, timings});
  readyResolve();
  startSync();
}

function startSync() {
  sync = new SyncLoop({
    core,
    baseUrl: self.location.origin,
    onState: (state) => emit({type: 'sync', ...state}),
    onChanged: () => emit({type: 'changed'}),
  });
  sync.start();
  // Its first cycle (synced, or found the server away) ends what the first
  // screen asks of the network; the page then says when its data is on
  // screen (firstScreenShown).
  Promise.resolve(sync.running).finally(() => emit({type: 'firstSyncEnded'}));
}

// Empties the database in place: the pool's files stay (their handles hold
// the tab's claim on them), cut to nothing, and SQLite starts a new one.
function emptyDatabase() {
  call('close');
  if (db.storage === 'opfs') {
    for (const handle of core.sahPool?.handles ?? []) {
      handle.truncate(0);
      handle.flush();
    }
  }
  return db.storage === 'opfs' ? call('open', kDbFile, 'opfs-sah') : call('open', ':memory:', '');
}

// The module's second half (wasm/js/split_pre.js: the assistant's tools,
// calendars, ...): asked for once the page has shown its first screen (after
// the first sync cycle), so its download and compile never stand before it,
// and its first use usually waits for nothing. The page hears 'deferred'
// when it is in (and then registers the service worker, whose install
// finds both halves in the HTTP cache).
async function loadSecondHalf() {
  if (core.loadDeferred) {  // Else a module built in one piece.
    try {
      await core.loadDeferred();
    } catch (e) {
      throw new CoreError('UNAVAILABLE',
                          `this part of the app has not been downloaded yet (${e?.message ?? e})`);
    }
  }
  if (!timings.deferredLoaded) {
    milestone('deferredLoaded');
    emit({type: 'deferred'});
  }
}

// The module gave itself up (wasm/js/split_pre.js): a call needed its second
// half, which could not be downloaded. The database keeps its last commit;
// nothing may use this module again, so sync stops and every call is
// refused until the page reloads.
function giveUpCore(why) {
  sync?.stop();
  setDb({state: 'failed',
         message: `part of the app could not be downloaded (${why}); what you saved is kept: ` +
                  'reload the page once you are online'});
}

let deferredAsked = false;
let firstScreenWasShown = false;
function loadDeferredSoon() {
  if (deferredAsked) return;
  deferredAsked = true;
  setTimeout(() => {
    loadSecondHalf().catch((e) => {
      deferredAsked = false;  // Coming back online tries again, as does a reload.
      console.warn('ensemble: the module\'s second half did not load yet', e);
    });
  }, 0);
}

function mutate(name, args) {
  const {mutationId} = call('mutate', name, JSON.stringify(args));
  emit({type: 'changed'});
  sync.kick();  // Not awaited: the answer must not wait for the network.
  return mutationId;
}

const methods = {
  async status() {
    return {db, sync: sync?.state ?? null, deferred: core?.deferredLoadedBy ?? null,
            deferredFirstCall: core?.deferredFirstCall ?? null};
  },
  // The limits the core enforces (wasm/bindings/limits_bindings.cc), for
  // the page to bound what it sends with the core's own numbers. Also sent
  // as the 'limits' event once the module loads.
  limits() {
    const limits = call('limits');
    delete limits.ok;
    return limits;
  },
  // Answers the binding's JSON text as is: for thousands of tasks, cloning
  // one string and parsing it on the page beats cloning the parsed objects.
  async listTasks() {
    return tasksAnswer(core.listTasks());
  },
  // The first `limit` open tasks of a space, oldest first: the top of the
  // list, read and shown before the whole list (state.js).
  async listOpenTasks({spaceId = kSpaceId, limit}) {
    return tasksAnswer(core.listOpenTasks(spaceId, limit));
  },
  async createTask({title, due = null, spaceId = kSpaceId, fields = {}}) {
    const {id} = call('newId');
    const args = {...fields, id, spaceId, title};
    if (due) args.due = due;
    return {id, mutationId: mutate('task.create', args)};
  },
  // Ranked search on this device's copy (spec 004 §5), so it works offline;
  // the same ranking as GET /api/context/search.
  async searchWork({q, kinds = '', limit = '', spaceId = kSpaceId}) {
    const {results, total, notKept} = call('searchWork', spaceId, q, kinds, String(limit));
    return {results, total, notKept};
  },
  // The synced kinds this build of the core knows.
  async kinds() {
    return core.recordKinds ? call('recordKinds').kinds : ['task'];
  },
  // Live records of a kind ({deleted: true}: those in Trash).
  async listRecords({kind, deleted = false}) {
    if (!core.listRecords) throw new CoreError('UNAVAILABLE', 'this build cannot list records');
    return call('listRecords', kind, JSON.stringify({deleted})).records;
  },
  // Pairs of the space's people that may be one person.
  async mergeSuggestions({spaceId = kSpaceId} = {}) {
    if (!core.mergeSuggestions) {
      throw new CoreError('UNAVAILABLE', 'this build cannot look for people who may be one');
    }
    return {suggestions: call('mergeSuggestions', spaceId).suggestions};
  },
  async listTrash() {
    if (!core.listTrash) throw new CoreError('UNAVAILABLE', 'this build cannot list the Trash');
    return call('listTrash').records;
  },
  // Any record verb (page.create, card.update, task.restore, ...); `id` is
  // filled in for a create without one.
  async mutate({name, args}) {
    if (!kMutationName.test(name ?? '')) {
      throw new CoreError('INVALID_ARGUMENT', `no mutation '${name}'`);
    }
    const full = {...args};
    if (name.endsWith('.create') && !full.id) full.id = call('newId').id;
    return {id: full.id, mutationId: mutate(name, full)};
  },
  // Reply text as a person reads it (records as links), the server's code.
  async formatEntityText({text, refs = [], options = {}, streaming = false}) {
    const fn = streaming ? 'formatStreamingText' : 'formatEntityText';
    const out = call(fn, text, JSON.stringify(refs), JSON.stringify(options));
    return {text: out.text, hold: out.hold ?? 0};
  },
  async resolveMentions({input}) {
    const {text, mentions, unresolved} = call('resolveMentions', JSON.stringify(input));
    return {text, mentions, unresolved};
  },
  async updateTask({id, fields, base}) {
    return {mutationId: mutate('task.update', base ? {id, fields, base} : {id, fields})};
  },
  // The assistant offline: the built-in planner's whole turn over this
  // device's copy (core/assistant/local_turn.h), its writes in the outbox.
  async newId() {
    return {id: call('newId').id};
  },
  async localTurn(request) {
    const out = call('runLocalTurn', JSON.stringify(request));
    emit({type: 'changed'});
    sync.kick();
    return out;
  },
  // Runs the drafts a local turn held, once the person applies them.
  async applyLocalCalls(request) {
    const out = call('applyLocalCalls', JSON.stringify(request));
    emit({type: 'changed'});
    sync.kick();
    return out;
  },
  // The page's first screen is on screen: what the worker does next may
  // take the network and a core.
  async firstScreenShown() {
    firstScreenWasShown = true;
    loadDeferredSoon();
    return {};
  },
  async rejections() {
    return call('rejections').rejections;
  },
  async dismissRejection({id}) {
    call('dismissRejection', id);
    return {};
  },
  // Removes this device's copy (signing out, or another account starting
  // fresh here): every record, the outbox and the client id, which belonged
  // to the account that synced them.
  async forgetDevice() {
    sync.stop();
    await sync.running?.catch(() => {});
    const opened = emptyDatabase();
    setDb({clientId: opened.clientId});
    emit({type: 'changed'});
    startSync();
    return {clientId: opened.clientId};
  },
  async syncNow() {
    await sync.kick();
    return sync.state;
  },
};

self.addEventListener('message', async (event) => {
  const {id, method, params, type} = event.data ?? {};
  if (type === 'online') {
    if (core?.deferredFailed) return;
    sync?.kick();
    if (firstScreenWasShown) loadDeferredSoon();  // After a failed try offline.
    return;
  }
  const handler = methods[method];
  if (!handler) {
    emit({id, ok: false, code: 'INVALID_ARGUMENT', message: `no method '${method}'`});
    return;
  }
  try {
    if (method !== 'status') await (kModuleOnly.has(method) ? loaded : ready);
    if (core?.deferredFailed && method !== 'status') throw new CoreError('UNAVAILABLE', db.message);
    if (kSecondHalf.has(method)) await loadSecondHalf();
    const started = performance.now();
    const result = await handler(params ?? {});
    emit({id, ok: true, result, workerMs: performance.now() - started});
  } catch (e) {
    emit({id, ok: false, code: e.code ?? 'INTERNAL', message: String(e.message ?? e)});
  }
});

start().catch((e) => {
  if (e?.code !== 'DB_BLOCKED') {
    console.error('ensemble: the database did not start', e);
    setDb({state: 'failed', message: String(e?.message ?? e)});
  }
  readyReject(e);
});
