// Bulk changes in the task list: Select shows a checkbox on each row, and a
// bar above the list changes every ticked task at once (mark done, set a
// status, move to Trash), then says what it did with one Undo for all of
// them. The checkboxes exist only while selecting: a list of thousands
// builds no extra nodes otherwise.
//
// Changes run one task at a time through the replica, as single edits do;
// if one is refused the rest are not attempted, and the toast's Undo takes
// back the ones already made, so nothing is left half-done unseen.

import {rpc} from '../rpc.js';
import {showToast} from '../toast.js';
import {byTestId, h, kStatuses, statusLabel} from '../util.js';
import {isListed, outOfSight} from './task-list-filters.js';

let rowsOf = () => new Map();  // task id -> row (tasks.js)
let reportError = () => {};
let selecting = false;
const chosen = new Set();  // Task ids ticked.

const el = {
  toggle: null,
  bar: null,
  count: null,
  status: null,
  buttons: [],
};

const plural = (n) => `${n} task${n === 1 ? '' : 's'}`;

function checkbox(row) {
  const box = h('input', {type: 'checkbox', class: 'select', checked: chosen.has(row.task.id),
                          'aria-label': `Select ${row.task.title}`,
                          dataset: {testid: 'task-select'}});
  box.addEventListener('change', () => {
    if (box.checked) chosen.add(row.task.id);
    else chosen.delete(row.task.id);
    renderBar();
  });
  return box;
}

// Gives each row its checkbox while selecting (new rows too), drops ticks
// of tasks gone from the list, and updates the bar. tasks.js calls it after
// every render.
export function syncSelection() {
  if (!selecting) return;
  const rows = rowsOf();
  for (const id of [...chosen]) {
    if (!rows.has(id)) chosen.delete(id);
  }
  for (const row of rows.values()) {
    let box = row.li.querySelector(':scope > .select');
    if (!box) {
      box = checkbox(row);
      row.li.prepend(box);
    }
    box.checked = chosen.has(row.task.id);
    box.setAttribute('aria-label', `Select ${row.task.title}`);
  }
  renderBar();
}

function setSelecting(on) {
  selecting = on;
  chosen.clear();
  el.toggle.setAttribute('aria-pressed', String(on));
  el.toggle.textContent = on ? 'Done selecting' : 'Select';
  byTestId('task-list').classList.toggle('selecting', on);
  byTestId('task-list-done').classList.toggle('selecting', on);
  if (on) {
    syncSelection();
  } else {
    for (const row of rowsOf().values()) row.li.querySelector(':scope > .select')?.remove();
    renderBar();
  }
}

function renderBar() {
  el.bar.hidden = !selecting;
  el.count.textContent = chosen.size ? `${plural(chosen.size)} selected` : 'None selected';
  for (const b of el.buttons) b.disabled = chosen.size === 0;
}

function selectAllShown() {
  for (const row of rowsOf().values()) {
    // Not the rows of a collapsed Completed section: out of sight.
    if (isListed(row) && !outOfSight(row)) chosen.add(row.task.id);
  }
  syncSelection();
}

// Runs `change(task)` (answers {fields, base} or null to skip) for every
// ticked task; answers the undo steps of those changed and the first error.
async function changeEach(change) {
  const rows = rowsOf();
  const undo = [];
  let error = null;
  for (const id of chosen) {
    const task = rows.get(id)?.task;
    if (!task) continue;
    const step = change(task);
    if (!step) continue;
    try {
      await rpc(step.name, step.args);
      undo.push(step.undo);
    } catch (e) {
      error = e;
      break;
    }
  }
  return {undo, error};
}

async function run(change, said) {
  for (const b of el.buttons) b.disabled = true;
  reportError('');
  const {undo, error} = await changeEach(change);
  if (error) {
    reportError(`${undo.length ? `${plural(undo.length)} changed, then one` : 'A task'} ` +
                `was not: ${error.message}`);
  }
  if (undo.length) {
    showToast(said(undo.length), async () => {
      // Newest first; a copy, so a retry after a failed Undo runs in order too.
      for (const step of [...undo].reverse()) await rpc(step.name, step.args);
    });
  }
  if (!error) chosen.clear();
  syncSelection();
}

function setStatus(status) {
  run((task) => task.status === status ? null : {
    name: 'updateTask', args: {id: task.id, fields: {status}, base: {status: task.status}},
    undo: {name: 'updateTask', args: {id: task.id, fields: {status: task.status}, base: {status}}},
  }, (n) => status === 'done' ? `Completed ${plural(n)}.` : `Moved ${plural(n)} to ${statusLabel(status)}.`);
}

function moveToTrash() {
  run((task) => ({
    name: 'mutate', args: {name: 'task.delete', args: {id: task.id}},
    undo: {name: 'mutate', args: {name: 'task.restore', args: {id: task.id}}},
  }), (n) => `Moved ${plural(n)} to Trash.`);
}

export function initBulk({rows, error}) {
  rowsOf = rows;
  reportError = error;
  el.toggle = h('button', {type: 'button', 'aria-pressed': 'false', dataset: {testid: 'task-select-mode'},
                           onclick: () => setSelecting(!selecting)}, 'Select');
  el.count = h('span', {class: 'bulk-count', role: 'status', dataset: {testid: 'task-bulk-count'}});
  const button = (label, testid, onclick) => {
    const b = h('button', {type: 'button', dataset: {testid}, onclick}, label);
    el.buttons.push(b);
    return b;
  };
  el.status = h('select', {'aria-label': 'Set the status of the selected tasks',
                           dataset: {testid: 'task-bulk-status'}},
    h('option', {value: ''}, 'Set status…'),
    kStatuses.map((s) => h('option', {value: s.value}, s.label)));
  el.status.addEventListener('change', () => {
    const status = el.status.value;
    el.status.value = '';
    if (status && chosen.size) setStatus(status);
  });
  el.buttons.push(el.status);
  el.bar = h('div', {class: 'task-bulk', role: 'toolbar', 'aria-label': 'Change the selected tasks',
                     hidden: true, dataset: {testid: 'task-bulk'}},
    el.count,
    h('button', {type: 'button', dataset: {testid: 'task-bulk-all'}, onclick: selectAllShown},
      'Select all shown'),
    button('Mark done', 'task-bulk-done', () => setStatus('done')),
    el.status,
    button('Move to Trash', 'task-bulk-delete', moveToTrash));
  byTestId('task-filters-clear').before(el.toggle);
  byTestId('task-list').before(el.bar);
  renderBar();
}
