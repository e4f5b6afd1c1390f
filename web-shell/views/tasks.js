// The task list: add, inline title edits, the status button, bulk changes
// (task-bulk.js), and a details editor per row (task-detail.js: due, priority, labels, description,
// assignees, project, dependencies, page, comments, move to Trash).
//
// Rows are kept by task id and patched in place, so a sync that changes one
// task does not rebuild thousands of rows or steal focus from an edit. New
// rows are built by one parse (the parser builds nodes far faster than script
// does), and a long list keeps only the rows near the screen in the page
// (list-window.js); events are delegated to the list.
// Which rows show, in what order, under which heading, and the Completed
// section are task-list-filters.js's.

import {rpc} from '../rpc.js';
import {maxChars, refresh, setFirstScreen, spaceTasks, state} from '../state.js';
import {showToast} from '../toast.js';
import {
  attachRow, clearFilters, flash, inStoredOrder, initControls, isListed, layOut, linger, noteAdded,
  renderControls, revealAddedRow, showCompleted,
} from './task-list-filters.js';
import {initBulk, syncSelection} from './task-bulk.js';
import {closeDetail, openDetail} from './task-detail.js';
import {
  byTestId, escapeHtml, formatDate, isOverdue, kStatuses, priorityLabel, setMaxLength, statusLabel,
} from '../util.js';

const el = {
  form: byTestId('add-task-form'),
  title: byTestId('new-task-title'),
  due: byTestId('new-task-due'),
  addButton: byTestId('add-task'),
  formError: byTestId('form-error'),
  list: byTestId('task-list'),
  empty: byTestId('empty-state'),
  loading: byTestId('loading'),
  filter: byTestId('task-filter'),
  doneList: byTestId('task-list-done'),
};

const rows = new Map();

// Rows shown from the first read, before the whole list arrives: more than
// any screen holds.
const kFirstScreenRows = 100;

// The status control is a button that moves the task to the next status (to
// do, doing, done, and round again): a native <select> per row costs ten
// times as much to build and lay out once a list has thousands of rows.
export function nextStatus(status) {
  const i = kStatuses.findIndex((s) => s.value === status);
  return kStatuses[(i + 1) % kStatuses.length];
}

const statusAria = (task) =>
  `Status of ${task.title}: ${statusLabel(task.status)}. Change to ${nextStatus(task.status).label}`;
const dueText = (due) => `Due ${formatDate(due)}`;

function metaHtml(task) {
  const parts = [];
  if (task.priority && task.priority !== 'none') {
    parts.push(`<span class="badge priority" data-testid="task-priority" data-priority="` +
               `${escapeHtml(task.priority)}">${escapeHtml(priorityLabel(task.priority))}</span>`);
  }
  for (const label of task.labels ?? []) {
    parts.push(`<span class="badge label" data-testid="task-label">${escapeHtml(label)}</span>`);
  }
  return parts.join('');
}

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
         `aria-label="${title}: edit title">${title}</button>${due}` +
         `<span class="meta">${metaHtml(task)}</span>` +
         `<button type="button" class="details" data-testid="task-edit" aria-expanded="false" ` +
         `aria-label="Details of ${title}">Details</button></li>`;
}

function rowFromElement(li, task) {
  const q = (cls) => li.querySelector(`:scope > .${cls}`);
  return {li, status: q('status'), title: q('title'), due: q('due'), meta: q('meta'),
          details: q('details'), task, editing: null, editor: null};
}

// Rows for `tasks`, built by one parse (the rest of a list after its first screen).
function createRows(tasks) {
  const holder = document.createElement('template');
  holder.innerHTML = tasks.map(rowHtml).join('');
  return [...holder.content.children].map((li, i) => rowFromElement(li, tasks[i]));
}

const sameList = (a = [], b = []) => a.length === b.length && a.every((x, i) => x === b[i]);

function patchRow(row, task) {
  const prev = row.task;
  row.task = task;
  if (prev.title === task.title && prev.status === task.status && prev.due === task.due &&
      prev.priority === task.priority && sameList(prev.labels, task.labels)) {
    return;
  }
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
  row.meta.innerHTML = metaHtml(task);
}

// The space's tasks as last rendered (oldest first), for laying the rows
// out again when a filter changes.
let lastTasks = [];

export function render() {
  // The page's own input: the core's limit arrives with the module.
  setMaxLength(el.title, maxChars('task', 'title'));
  const tasks = spaceTasks();
  lastTasks = tasks;
  renderControls(tasks);
  const seen = new Set();
  const added = [];
  for (const task of tasks) {
    seen.add(task.id);
    const row = rows.get(task.id);
    if (row) {
      patchRow(row, task);
    } else {
      added.push(task);
    }
  }
  // Built apart from the page; layOut puts them in their lists.
  for (const row of createRows(added)) rows.set(row.task.id, row);
  for (const [id, row] of rows) {
    if (!seen.has(id)) {
      row.li.remove();
      rows.delete(id);
    }
  }
  applyFilter();
  revealAdded();
  if (state.readError) showFormError(state.readError);
  el.empty.hidden = tasks.length > 0 || !listedOnce();
  el.loading.hidden = listedOnce() || Boolean(state.readError) || state.db.state === 'blocked' ||
                      state.db.state === 'failed';
  renderUsable();
  syncSelection();
}

// The filter box and controls (task-list-filters.js) place and hide rows.
function applyFilter() {
  layOut(lastTasks, rows);
}

const revealAdded = () => revealAddedRow(rows);

// Puts the caret in the filter box (the / and Ctrl-K shortcuts).
export function focusFilter() {
  el.filter.focus();
  el.filter.select();
}

// Puts the caret in the new task's title (the q and n shortcuts).
export function focusNewTask() {
  el.title.focus();
}

let allListed = false;

// True once the first list arrived, its first screen or all of it (marks for
// tools/benchmarks/wasm_bench.mjs, from navigation start).
function listedOnce() {
  if (!state.listed && state.tasksRead) {
    state.listed = true;
    performance.mark('tasks-listed', {detail: {count: state.tasks.length}});
    // After the frame that lays the list out and paints it.
    requestAnimationFrame(() => setTimeout(() => performance.mark('tasks-painted')));
  }
  if (!allListed && state.listed && !state.partial) {
    allListed = true;
    performance.mark('tasks-all-listed', {detail: {count: state.tasks.length}});
  }
  return state.listed;
}

function renderUsable() {
  const usable = state.db.state === 'ready';
  el.addButton.disabled = !usable;
  el.title.disabled = !usable;
  el.due.disabled = !usable;
}

// Scrolls to a task and opens its details (links from the dock, Today, boards).
export function open(id) {
  const row = rows.get(id);
  if (!row) return;
  if (!isListed(row)) {
    clearFilters();
    applyFilter();
  }
  showCompleted(row);
  attachRow(row);
  row.li.scrollIntoView({block: 'center'});
  flash(row);
  if (!row.editor) toggleEditor(row);
  row.details.focus();
}

const rowOf = (node) => rows.get(node.closest('[data-testid="task-row"]')?.dataset.id);

function startEditing(id) {
  const row = rows.get(id);
  if (!row || row.editing) return;
  const input = document.createElement('input');
  input.className = 'title-input';
  input.dataset.testid = 'task-title-input';
  setMaxLength(input, maxChars('task', 'title'));
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

// The details editor (task-detail.js) opens under the row; it sends only
// the fields the person changed, each with the value it opened with.
function toggleEditor(row) {
  if (row.editor) {
    closeDetail(row.editor);
    row.editor = null;
    row.details.setAttribute('aria-expanded', 'false');
    return;
  }
  const editor = openDetail(row, {
    save: updateTask,
    remove: () => deleteTask(row.task),
    error: showFormError,
    close: () => {
      if (row.editor !== editor) return;
      toggleEditor(row);
      row.details.focus();
    },
  });
  row.editor = editor;
  row.li.append(editor);
  row.details.setAttribute('aria-expanded', 'true');
}

export function showFormError(text) {
  el.formError.textContent = text;
  el.formError.hidden = !text;
}

// Saves a change to `task`; answers the error when it was not saved.
export async function updateTask(task, fields, base) {
  showFormError('');
  try {
    await rpc('updateTask', {id: task.id, fields, base});
    return null;
  } catch (e) {
    showFormError(`That change was not saved: ${e.message}`);
    refresh();  // Put the row back as stored.
    return e;
  }
}

async function deleteTask(task) {
  try {
    await rpc('mutate', {name: 'task.delete', args: {id: task.id}});
    showToast(`“${task.title}” moved to Trash.`,
              () => rpc('mutate', {name: 'task.restore', args: {id: task.id}}));
  } catch (e) {
    showFormError(`The task was not moved to Trash: ${e.message}`);
  }
}

// Moves `task` to its next status (the status buttons here and in Today);
// completing it says so, with Undo.
export async function advanceStatus(task) {
  const {status} = task;
  const next = nextStatus(status).value;
  const error = await updateTask(task, {status: next}, {status});
  if (error || next !== 'done') return;
  showToast(`Completed “${task.title}”.`,
            () => rpc('updateTask', {id: task.id, fields: {status}, base: {status: next}}));
}

export function init() {
  setFirstScreen(() => (!byTestId('view-tasks').hidden && inStoredOrder() ? kFirstScreenRows : 0));
  initBulk({rows: () => rows, error: showFormError});
  initControls(() => {
    applyFilter();
    revealAdded();  // A task added but hidden may show now.
  }, () => el.title.focus());

  // Rows are in the open list or the Completed one.
  const onRowClick = (event) => {
    const button = event.target.closest('button');
    const row = button && rowOf(button);
    if (!row || button.closest('.task-editor')) return;
    if (button.classList.contains('status')) {
      linger(row);
      advanceStatus(row.task);
    } else if (button.classList.contains('title')) {
      startEditing(row.task.id);
    } else if (button.classList.contains('details')) {
      toggleEditor(row);
    }
  };
  el.list.addEventListener('click', onRowClick);
  el.doneList.addEventListener('click', onRowClick);

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
      const {id} = await rpc('createTask', {title, due: el.due.value || null, spaceId: state.space});
      noteAdded(id);
      revealAdded();
      el.form.reset();
      el.title.focus();
    } catch (e) {
      showFormError(`The task was not added: ${e.message}`);
    } finally {
      renderUsable();
    }
  });
}
