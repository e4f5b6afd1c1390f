// The page: renders tasks and sync status, and turns what the person does
// into calls on the db worker (db-worker.js), which owns the wasm core, the
// browser's database and the sync loop. Nothing here touches the database or
// the network's sync API directly, so the page stays responsive while SQLite
// works and keeps working offline.

const kStatuses = [
  {value: 'todo', label: 'To do'},
  {value: 'doing', label: 'Doing'},
  {value: 'done', label: 'Done'},
];

const $ = (testId) => document.querySelector(`[data-testid="${testId}"]`);
const el = {
  app: $('app'),
  connection: $('connection-state'),
  syncActivity: $('sync-activity'),
  pendingCount: $('pending-count'),
  pendingLabel: $('pending-label'),
  dbState: $('db-state'),
  form: $('add-task-form'),
  title: $('new-task-title'),
  due: $('new-task-due'),
  addButton: $('add-task'),
  formError: $('form-error'),
  list: $('task-list'),
  empty: $('empty-state'),
  loading: $('loading'),
  problems: $('problems'),
  problemList: $('problem-list'),
};

// ---- The worker and its RPC. ----

const worker = new Worker('/db-worker.js', {type: 'module', name: 'ensemble-db'});
const calls = new Map();
let nextCallId = 1;

// Resolves with {result, workerMs}: workerMs is the time the call took in
// the worker, without the message hops (benchmarks read it).
function rpcTimed(method, params) {
  const id = nextCallId++;
  return new Promise((resolve, reject) => {
    calls.set(id, {resolve, reject});
    worker.postMessage({id, method, params});
  });
}

function rpc(method, params) {
  return rpcTimed(method, params).then(({result}) => result);
}

const state = {
  db: {state: 'starting'},
  sync: null,  // Until the sync loop first reports.
  tasks: [],
  rejections: [],
  listed: false,
};

worker.addEventListener('message', (event) => {
  const msg = event.data;
  if (msg.id !== undefined) {
    const pending = calls.get(msg.id);
    calls.delete(msg.id);
    if (!pending) return;
    if (msg.ok) {
      pending.resolve({result: msg.result, workerMs: msg.workerMs});
    } else {
      pending.reject(Object.assign(new Error(msg.message), {code: msg.code}));
    }
    return;
  }
  if (msg.type === 'db') {
    state.db = msg;
    renderDbState();
    renderSync();
    if (msg.state === 'ready') {
      for (const [name, at] of Object.entries(msg.timings ?? {})) {
        performance.mark(`worker:${name}`, {startTime: at - performance.timeOrigin});
      }
      refresh();
    }
  } else if (msg.type === 'sync') {
    state.sync = msg;
    renderSync();
  } else if (msg.type === 'changed') {
    refresh();
  }
});
worker.addEventListener('error', (event) => {
  state.db = {state: 'failed', message: event.message || 'the database worker failed to start'};
  renderDbState();
});

// The browser's own connectivity signal: check at once rather than at the
// next poll.
window.addEventListener('online', () => worker.postMessage({type: 'online'}));

// Tests and benchmarks drive the worker through this.
window.ensemble = {rpc, rpcTimed};

// ---- Loading data. ----

let refreshing = null;
let refreshAgain = false;

// Re-reads tasks and rejections; coalesces bursts (a pull of several pages).
function refresh() {
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      refreshAgain = false;
      try {
        const [listed, rejections] = await Promise.all([rpc('listTasks'), rpc('rejections')]);
        const {tasks} = JSON.parse(listed.json);
        if (!state.listed) performance.mark('tasks-fetched');
        state.tasks = tasks;
        state.rejections = rejections;
        renderTasks();
        renderProblems();
      } catch (e) {
        if (state.db.state !== 'blocked') showFormError(`Could not read your tasks: ${e.message}`);
      }
    } while (refreshAgain);
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

// ---- Rendering. ----

function renderSync() {
  const {online, syncing, pending, error} = state.sync ?? {pending: 0};
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
  renderProblems(error);
}

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
  const usable = dbState === 'ready';
  el.addButton.disabled = !usable;
  el.title.disabled = !usable;
  el.due.disabled = !usable;
  el.loading.hidden = state.listed || dbState === 'blocked' || dbState === 'failed';
}

const dueFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC',
});

function today() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function dueText(due) {
  return `Due ${dueFormat.format(new Date(`${due}T00:00:00Z`))}`;
}

// Rows are kept by task id and patched in place, so a sync that changes one
// task does not rebuild thousands of rows or steal focus from an edit. The
// first render of a long list is one innerHTML assignment (the parser builds
// nodes far faster than script does); events are delegated to the list.
const rows = new Map();

const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// The status control is a button that moves the task to the next status (to
// do, doing, done, and round again): a native <select> per row costs ten
// times as much to build and lay out once a list has thousands of rows.
function nextStatus(status) {
  const i = kStatuses.findIndex((s) => s.value === status);
  return kStatuses[(i + 1) % kStatuses.length];
}

const statusLabel = (status) => kStatuses.find((s) => s.value === status)?.label ?? status;
const statusAria = (task) =>
  `Status of ${task.title}: ${statusLabel(task.status)}. Change to ${nextStatus(task.status).label}`;

function rowHtml(task) {
  const title = escapeHtml(task.title);
  const due = task.due
    ? `<span class="due" data-testid="task-due" data-overdue="${isOverdue(task) ? 'yes' : 'no'}">` +
      `${escapeHtml(dueText(task.due))}</span>`
    : '<span class="due" data-testid="task-due" hidden></span>';
  return `<li class="task" data-testid="task-row" data-id="${escapeHtml(task.id)}" ` +
         `data-status="${escapeHtml(task.status)}"><button type="button" class="status" ` +
         `data-testid="task-status" aria-label="${escapeHtml(statusAria(task))}">` +
         `${escapeHtml(statusLabel(task.status))}</button>` +
         `<button type="button" class="title" data-testid="task-title" ` +
         `aria-label="${title}: edit title">${title}</button>${due}</li>`;
}

function rowFromElement(li, task) {
  const [status, title, due] = li.children;
  return {li, status, title, due, task, editing: null};
}

function createRow(task) {
  const holder = document.createElement('template');
  holder.innerHTML = rowHtml(task);
  return rowFromElement(holder.content.firstElementChild, task);
}

function isOverdue(task) {
  return Boolean(task.due) && task.status !== 'done' && task.due < today();
}

function patchRow(row, task) {
  const prev = row.task;
  row.task = task;
  if (prev.title === task.title && prev.status === task.status && prev.due === task.due) return;
  row.li.dataset.status = task.status;
  row.status.textContent = statusLabel(task.status);
  row.status.setAttribute('aria-label', statusAria(task));
  if (!row.editing) {
    row.title.textContent = task.title;
    row.title.setAttribute('aria-label', `${task.title}: edit title`);
  }
  row.due.textContent = task.due ? dueText(task.due) : '';
  row.due.dataset.overdue = isOverdue(task) ? 'yes' : 'no';
  row.due.hidden = !task.due;
}

function renderTasks() {
  if (rows.size === 0) {
    el.list.innerHTML = state.tasks.map(rowHtml).join('');
    let li = el.list.firstElementChild;
    for (const task of state.tasks) {
      rows.set(task.id, rowFromElement(li, task));
      li = li.nextElementSibling;
    }
  } else {
    const seen = new Set();
    let cursor = el.list.firstElementChild;
    for (const task of state.tasks) {
      seen.add(task.id);
      let row = rows.get(task.id);
      if (row) {
        patchRow(row, task);
      } else {
        row = createRow(task);
        rows.set(task.id, row);
      }
      if (cursor === row.li) {
        cursor = cursor.nextElementSibling;
      } else {
        el.list.insertBefore(row.li, cursor);
      }
    }
    for (const [id, row] of rows) {
      if (!seen.has(id)) {
        row.li.remove();
        rows.delete(id);
      }
    }
  }
  el.empty.hidden = state.tasks.length > 0;
  el.loading.hidden = true;
  if (!state.listed) {
    state.listed = true;
    // Read by tools/benchmarks/wasm_bench.mjs: navigation start to first list.
    performance.mark('tasks-listed', {detail: {count: state.tasks.length}});
  }
}

const rowOf = (node) => rows.get(node.closest('[data-testid="task-row"]')?.dataset.id);

el.list.addEventListener('click', (event) => {
  const button = event.target.closest('button');
  const row = button && rowOf(button);
  if (!row) return;
  if (button.classList.contains('status')) {
    const {status} = row.task;
    updateTask(row.task, {status: nextStatus(status).value}, {status});
  } else if (button.classList.contains('title')) {
    startEditing(row.task.id);
  }
});

function startEditing(id) {
  const row = rows.get(id);
  if (!row || row.editing) return;
  const input = document.createElement('input');
  input.className = 'title-input';
  input.dataset.testid = 'task-title-input';
  input.maxLength = 500;
  input.value = row.task.title;
  input.setAttribute('aria-label', `Title of ${row.task.title}`);
  row.editing = {input, base: row.task.title};
  row.title.replaceWith(input);
  input.focus();
  input.select();

  let finished = false;
  // refocus: after Enter or Escape focus returns to the title; after a blur
  // it stays wherever the person moved it.
  const finish = (save, refocus) => {
    if (finished) return;
    finished = true;
    const {base} = row.editing;
    row.editing = null;
    input.replaceWith(row.title);
    row.title.textContent = row.task.title;
    if (refocus) row.title.focus();
    const next = input.value.trim();
    if (save && next && next !== base) {
      updateTask(row.task, {title: next}, {title: base});
    } else if (save && !next) {
      showFormError('A task needs a title; the old one was kept.');
    }
  };
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      finish(true, true);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      finish(false, true);
    }
  });
  input.addEventListener('blur', () => finish(true, false));
}

// What a refused mutation was, in words.
function describeChange(r) {
  const args = r.args ?? {};
  if (r.name === 'task.create') return args.title ? `Adding “${args.title}”` : 'Adding a task';
  if (r.name === 'task.update') {
    const fields = args.fields ?? {};
    // The title the edit started from, else the one on screen now.
    const was = args.base?.title ?? state.tasks.find((t) => t.id === args.id)?.title;
    const task = was ? `“${was}”` : 'a task';
    const parts = [];
    if ('title' in fields) parts.push(`renaming ${task} to “${fields.title}”`);
    if ('status' in fields) parts.push(`marking ${task} as ${statusLabel(fields.status)}`);
    if ('due' in fields) {
      parts.push(fields.due ? `setting the due date of ${task} to ${fields.due}`
                            : `clearing the due date of ${task}`);
    }
    if (parts.length) {
      const text = parts.join(' and ');
      return text[0].toUpperCase() + text.slice(1);
    }
    return 'A change to a task';
  }
  return `A change (${r.name})`;
}

function describeRejection(r) {
  let text = `${describeChange(r)} was not saved: ${r.message || r.code}`;
  const current = r.details?.current;
  if (current && typeof current === 'object') {
    const parts = Object.entries(current).map(([k, v]) => `${k} is now ${v === null ? 'empty' : `“${v}”`}`);
    if (parts.length) text += ` (on the server, ${parts.join(', ')})`;
  }
  return text;
}

let lastSyncError = null;

function renderProblems(syncError = lastSyncError) {
  lastSyncError = syncError;
  const items = [];
  if (syncError) {
    items.push({key: 'sync', code: syncError.code,
                text: `Could not sync: ${syncError.message}. Trying again every few seconds.`});
  }
  for (const r of state.rejections) {
    items.push({id: r.id, text: describeRejection(r), code: r.code, dismissible: true});
  }
  el.problemList.replaceChildren(...items.map((item) => {
    const li = document.createElement('li');
    li.className = 'problem';
    li.dataset.testid = 'problem';
    li.dataset.code = item.code;
    const text = document.createElement('span');
    text.textContent = item.text;
    li.append(text);
    if (item.dismissible) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'dismiss';
      button.textContent = 'Dismiss';
      button.setAttribute('aria-label', `Dismiss: ${item.text}`);
      button.addEventListener('click', async () => {
        await rpc('dismissRejection', {id: item.id});
        state.rejections = state.rejections.filter((r) => r.id !== item.id);
        renderProblems();
      });
      li.append(button);
    }
    return li;
  }));
  el.problems.hidden = items.length === 0;
}

function showFormError(text) {
  el.formError.textContent = text;
  el.formError.hidden = !text;
}

// ---- Actions. ----

async function updateTask(task, fields, base) {
  showFormError('');
  try {
    await rpc('updateTask', {id: task.id, fields, base});
  } catch (e) {
    showFormError(`That change was not saved: ${e.message}`);
    refresh();  // Put the row back as stored.
  }
}

el.form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const title = el.title.value.trim();
  if (!title) {
    showFormError('Give the task a title.');
    el.title.focus();
    return;
  }
  showFormError('');
  el.addButton.disabled = true;
  try {
    await rpc('createTask', {title, due: el.due.value || null});
    el.form.reset();
    el.title.focus();
  } catch (e) {
    showFormError(`The task was not added: ${e.message}`);
  } finally {
    el.addButton.disabled = state.db.state !== 'ready';
  }
});

// ---- Offline start. ----

// The service worker serves the app shell and the wasm files when the server
// cannot, so a reload works offline. data-offline-ready tells tests when it
// controls the page.
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js', {scope: '/'}).catch((e) => {
    console.warn('ensemble: no offline start (service worker failed)', e);
  });
  const markReady = () => {
    el.app.dataset.offlineReady = navigator.serviceWorker.controller ? 'true' : 'false';
  };
  navigator.serviceWorker.addEventListener('controllerchange', markReady);
  navigator.serviceWorker.ready.then(markReady);
  markReady();
}

renderSync();
renderDbState();
