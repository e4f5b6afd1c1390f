// The task list: add, inline title edits, the status button, and a details
// editor per row (due, priority, labels, description, move to Trash).
//
// Rows are kept by task id and patched in place, so a sync that changes one
// task does not rebuild thousands of rows or steal focus from an edit. The
// first render of a long list is one innerHTML assignment (the parser builds
// nodes far faster than script does); events are delegated to the list.

import {rpc} from '../rpc.js';
import {refresh, spaceTasks, state} from '../state.js';
import {showToast} from '../toast.js';
import {
  byTestId, escapeHtml, formatDate, h, isOverdue, kPriorities, kStatuses, priorityLabel,
  splitLabels, statusLabel,
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
  filterCount: byTestId('task-filter-count'),
};

const rows = new Map();

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

function createRow(task) {
  const holder = document.createElement('template');
  holder.innerHTML = rowHtml(task);
  return rowFromElement(holder.content.firstElementChild, task);
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

export function render() {
  const tasks = spaceTasks();
  if (rows.size === 0) {
    el.list.innerHTML = tasks.map(rowHtml).join('');
    let li = el.list.firstElementChild;
    for (const task of tasks) {
      rows.set(task.id, rowFromElement(li, task));
      li = li.nextElementSibling;
    }
  } else {
    const seen = new Set();
    let cursor = el.list.firstElementChild;
    for (const task of tasks) {
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
  applyFilter();
  if (state.readError) showFormError(state.readError);
  el.empty.hidden = tasks.length > 0 || !listedOnce();
  el.loading.hidden = listedOnce() || state.db.state === 'blocked' || state.db.state === 'failed';
  renderUsable();
}

// The filter box: rows whose title holds the typed text (any case) stay.
function applyFilter() {
  const wanted = el.filter.value.trim().toLocaleLowerCase();
  let shown = 0;
  for (const row of rows.values()) {
    row.li.hidden = Boolean(wanted) && !row.task.title.toLocaleLowerCase().includes(wanted);
    if (!row.li.hidden) ++shown;
  }
  const text = wanted ? `${shown} of ${rows.size} shown` : '';
  if (el.filterCount.textContent !== text) el.filterCount.textContent = text;
}

// Puts the caret in the filter box (the / and Ctrl-K shortcuts).
export function focusFilter() {
  el.filter.focus();
  el.filter.select();
}

// Puts the caret in the new task's title (the q and n shortcuts).
export function focusNewTask() {
  el.title.focus();
}

// True once the first list arrived (marks for tools/benchmarks/wasm_bench.mjs).
function listedOnce() {
  if (!state.listed && state.kinds) {
    state.listed = true;
    // Navigation start to first list.
    performance.mark('tasks-listed', {detail: {count: state.tasks.length}});
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
  row.li.scrollIntoView({block: 'center'});
  row.li.classList.add('flash');
  setTimeout(() => row.li.classList.remove('flash'), 1500);
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

// The details editor: only the fields the person changed are sent, each
// based on the value the editor opened with, so a change made elsewhere
// meanwhile to another field is kept (not sent back as it was) and one to
// the same field is a conflict, not an overwrite.
function toggleEditor(row) {
  if (row.editor) {
    row.editor.remove();
    row.editor = null;
    row.details.setAttribute('aria-expanded', 'false');
    return;
  }
  const t = row.task;
  const opened = detailsOf(t);
  const id = (name) => `task-${t.id}-${name}`;
  const priority = h('select', {id: id('priority'), dataset: {testid: 'task-priority-input'}},
                     kPriorities.map((p) => h('option', {value: p.value}, p.label)));
  priority.value = opened.priority;
  const due = h('input', {id: id('due'), type: 'date', value: opened.due ?? '',
                          dataset: {testid: 'task-due-input'}});
  const labels = h('input', {id: id('labels'), value: opened.labels.join(', '),
                             placeholder: 'e.g. waiting-on, home', dataset: {testid: 'task-labels-input'}});
  const description = h('textarea', {id: id('description'), rows: 3, maxLength: 10000,
                                     dataset: {testid: 'task-description-input'}});
  description.value = opened.description;
  const field = (input, label) => h('div', {class: 'field'}, h('label', {for: input.id}, label), input);
  const form = h('form', {class: 'task-editor', dataset: {testid: 'task-editor'}},
    field(due, 'Due'), field(priority, 'Priority'), field(labels, 'Labels (comma separated)'),
    field(description, 'Description'),
    h('div', {class: 'editor-actions'},
      h('button', {type: 'submit', class: 'primary', dataset: {testid: 'task-save'}}, 'Save'),
      h('button', {type: 'button', dataset: {testid: 'task-delete'},
                   onclick: () => deleteTask(row.task)}, 'Move to Trash')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const next = {due: due.value || null, priority: priority.value, labels: splitLabels(labels.value),
                  description: description.value};
    const fields = {};
    const base = {};
    for (const [k, v] of Object.entries(next)) {
      if (JSON.stringify(opened[k]) === JSON.stringify(v)) continue;
      fields[k] = v;
      base[k] = opened[k];
    }
    if (Object.keys(fields).length) {
      const error = await updateTask(row.task, fields, base);
      if (error?.code === 'SAVE_CONFLICT') {
        // The editor stays open with what was typed; saving again keeps it
        // over the other change, knowingly.
        Object.assign(opened, pick(detailsOf(row.task), Object.keys(fields)));
        showFormError(`${row.task.title} was changed elsewhere while you edited it: ` +
                      'Save again to keep yours, or Escape to keep theirs.');
        return;
      }
      if (error) return;
    }
    if (row.editor !== form) return;
    toggleEditor(row);
    row.details.focus();
  });
  form.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      toggleEditor(row);
      row.details.focus();
    }
  });
  row.editor = form;
  row.li.append(form);
  row.details.setAttribute('aria-expanded', 'true');
}

export function showFormError(text) {
  el.formError.textContent = text;
  el.formError.hidden = !text;
}

// The details the editor edits, with the defaults a task without them has.
const detailsOf = (task) => ({due: task.due ?? null, priority: task.priority ?? 'none',
                              labels: task.labels ?? [], description: task.description ?? ''});
const pick = (object, keys) => Object.fromEntries(keys.map((k) => [k, object[k]]));

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
  el.filter.addEventListener('input', applyFilter);
  el.filter.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    el.filter.value = '';
    applyFilter();
  });

  el.list.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    const row = button && rowOf(button);
    if (!row || button.closest('.task-editor')) return;
    if (button.classList.contains('status')) {
      advanceStatus(row.task);
    } else if (button.classList.contains('title')) {
      startEditing(row.task.id);
    } else if (button.classList.contains('details')) {
      toggleEditor(row);
    }
  });

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
      await rpc('createTask', {title, due: el.due.value || null, spaceId: state.space});
      el.form.reset();
      el.title.focus();
    } catch (e) {
      showFormError(`The task was not added: ${e.message}`);
    } finally {
      renderUsable();
    }
  });
}
