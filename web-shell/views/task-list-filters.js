// The task list's filters, sort, grouping and Completed section (issue 28).
//
// tasks.js keeps one row per task by id and patches it; this module only
// decides where each row goes (the open list or the Completed list), in what
// order, under which group heading, and whether it is hidden. Rows are moved
// only when their place changes and hidden only when their visibility does,
// so typing in the filter box over thousands of rows toggles attributes and
// moves nothing. A long list keeps only the rows near the screen in the
// document (list-window.js).

import {records} from '../state.js';
import {kToastMs} from '../toast.js';
import {byTestId, h, isOverdue, kPriorities, kStatuses, recordTitle, today} from '../util.js';
import {ListWindow} from './list-window.js';

const el = {
  text: byTestId('task-filter'),
  count: byTestId('task-filter-count'),
  status: byTestId('task-filter-status'),
  due: byTestId('task-filter-due'),
  project: byTestId('task-filter-project'),
  person: byTestId('task-filter-person'),
  label: byTestId('task-filter-label'),
  sort: byTestId('task-sort'),
  group: byTestId('task-group'),
  clear: byTestId('task-filters-clear'),
  main: byTestId('task-list'),
  completed: byTestId('task-completed'),
  completedSummary: byTestId('task-completed-summary'),
  completedList: byTestId('task-list-done'),
  noMatch: byTestId('task-filter-empty'),
  addedText: byTestId('task-added-text'),
  addedClear: byTestId('task-added-clear'),
};

const windows = {
  main: new ListWindow(el.main, reconcile),
  completed: new ListWindow(el.completedList, reconcile),
};
// The Completed list's window is placed for the screen once it opens.
el.completed.addEventListener('toggle', () => windows.completed.follow());

const kStorageKey = 'ensemble.taskList';
const kFilterKeys = ['status', 'due', 'project', 'person', 'label'];
const kDefaults = {status: '', due: '', project: '', person: '', label: '', sort: 'manual', group: 'none'};
// The value of the project, person and label filters meaning "none set".
const kNone = '-';

function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(kStorageKey) ?? '{}');
    return Object.fromEntries(Object.keys(kDefaults).map(
      (k) => [k, typeof saved[k] === 'string' ? saved[k] : kDefaults[k]]));
  } catch {
    return {...kDefaults};
  }
}

const settings = loadSettings();

function saveSettings() {
  try {
    localStorage.setItem(kStorageKey, JSON.stringify(settings));
  } catch {
    // Private windows may refuse storage; the filters still work until reload.
  }
}

export const filtersOn = () => kFilterKeys.some((k) => settings[k]) || Boolean(el.text.value.trim());

// True when the open list shows every open task in stored order, ungrouped: its
// first rows are then the space's first open tasks.
export const inStoredOrder = () =>
  !filtersOn() && settings.sort === kDefaults.sort && settings.group === kDefaults.group;

// ---- Dates ----

function addDays(iso, days) {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

// "This week" is today and the six days after it: a Sunday evening's week
// is the one ahead, not the day that is left of it.
function dueBucket(task, now, weekEnd) {
  if (!task.due) return 'none';
  if (task.due < now) return 'overdue';
  if (task.due === now) return 'today';
  return task.due <= weekEnd ? 'week' : 'later';
}

const kDueGroups = [
  ['overdue', 'Overdue'], ['today', 'Today'], ['week', 'This week'], ['later', 'Later'],
  ['none', 'No due date'],
];

// ---- Which tasks show ----

// Tasks whose status the person just changed from this list stay where they
// are for as long as the toast saying so (so a mis-click is undone in place),
// then go where the filters put them.
const lingering = new Map();
let onLingerEnd = () => {};

export function linger(row) {
  const id = row.task.id;
  clearTimeout(lingering.get(id)?.timer);
  lingering.set(id, {
    completed: Boolean(row.completed),
    timer: setTimeout(() => {
      lingering.delete(id);
      onLingerEnd();
    }, kToastMs),
  });
}

function endLingering() {
  for (const {timer} of lingering.values()) clearTimeout(timer);
  lingering.clear();
}

// True when `task` passes the filters other than the text box and status.
function passesFields(task, now, weekEnd) {
  const {due, project, person, label} = settings;
  if (due === 'overdue' && !isOverdue(task)) return false;
  if (due === 'today' && task.due !== now) return false;
  if (due === 'week' && !(task.due && task.due >= now && task.due <= weekEnd)) return false;
  if (due === 'none' && task.due) return false;
  if (project && (project === kNone ? Boolean(task.project) : task.project !== project)) return false;
  const people = task.people ?? [];
  if (person && (person === kNone ? people.length > 0 : !people.includes(person))) return false;
  const labels = task.labels ?? [];
  if (label && (label === kNone ? labels.length > 0 : !labels.includes(label))) return false;
  return true;
}

// ---- Order and groups ----

const collator = new Intl.Collator(undefined, {sensitivity: 'base', numeric: true});
const priorityRank = Object.fromEntries(kPriorities.map((p, i) => [p.value, i]));

const kSorts = {
  manual: null,
  // Dates are YYYY-MM-DD, so text order is date order; no date goes last.
  due: (a, b) => (a.due ? 0 : 1) - (b.due ? 0 : 1) || (a.due < b.due ? -1 : a.due > b.due ? 1 : 0),
  priority: (a, b) => (priorityRank[b.priority] ?? 0) - (priorityRank[a.priority] ?? 0),
  title: (a, b) => collator.compare(a.title, b.title),
};

// [key of a task, ordered [key, heading] list] for the grouping chosen.
function grouping(now, weekEnd) {
  switch (settings.group) {
    case 'status':
      return [(t) => t.status, kStatuses.map((s) => [s.value, s.label])];
    case 'due':
      return [(t) => dueBucket(t, now, weekEnd), kDueGroups];
    case 'project': {
      const projects = records('project').map((p) => [p.id, recordTitle(p)])
        .sort((a, b) => collator.compare(a[1], b[1]));
      return [(t) => t.project ?? kNone, [...projects, [kNone, 'No project']]];
    }
    default:
      return null;
  }
}

const headings = new Map();  // Group key -> its <li>.

function headingFor(key, label) {
  let li = headings.get(key);
  if (!li) {
    li = h('li', {class: 'task-group', dataset: {testid: 'task-group-heading', group: key}},
           h('h3', {}));
    headings.set(key, li);
  }
  const text = label;
  if (li.firstChild.textContent !== text) li.firstChild.textContent = text;
  return li;
}

// Puts `nodes` in `list` in that order, moving only those out of place. A
// node found just ahead of where it belongs (one row moved down the list)
// is set aside to the end rather than moving every row after it.
function reconcile(list, nodes) {
  let cursor = list.firstElementChild;
  let moves = 0;
  let mark = null;
  const move = (fn) => {
    // A new sort moves most rows: moved while the list is out of the page
    // they cost far less. Not with the focus inside (that would blur an
    // edit), and not for the few moves a sync makes.
    if (++moves === kManyMoves && !list.contains(document.activeElement)) {
      mark = document.createComment('');
      list.replaceWith(mark);
    }
    fn();
  };
  for (const node of nodes) {
    if (cursor && cursor !== node && cursor.nextElementSibling === node) {
      const stray = cursor;
      cursor = node;
      move(() => list.append(stray));
    }
    if (cursor === node) {
      cursor = cursor.nextElementSibling;
    } else {
      move(() => list.insertBefore(node, cursor));
    }
  }
  while (cursor) {  // Left over: headings no longer used, a window's spacers.
    const next = cursor.nextElementSibling;
    cursor.remove();
    cursor = next;
  }
  mark?.replaceWith(list);
}

const kManyMoves = 100;

const setHidden = (node, hidden) => {
  if (node.hidden !== hidden) node.hidden = hidden;
};

// Places and shows or hides the rows (`rows`: id -> {li, task}) of `tasks`
// (the space's tasks, oldest first). Answers {shown, total}.
export function layOut(tasks, rows) {
  const now = today();
  const weekEnd = addDays(now, 6);
  const wanted = el.text.value.trim().toLocaleLowerCase();
  const status = settings.status;
  const open = [];
  const done = [];
  let shown = 0;
  let doneShown = 0;
  for (const task of tasks) {
    const row = rows.get(task.id);
    if (!row) continue;
    const held = lingering.get(task.id);
    const toCompleted = held ? held.completed : task.status === 'done' && status !== 'done';
    const visible = (held || !status || task.status === status) &&
                    (!wanted || task.title.toLocaleLowerCase().includes(wanted)) &&
                    passesFields(task, now, weekEnd);
    setHidden(row.li, !visible);
    row.listed = visible;
    row.completed = toCompleted;
    if (visible) ++shown;
    if (toCompleted) {
      done.push(row);
      if (visible) ++doneShown;
    } else {
      open.push(row);
    }
  }
  const sort = kSorts[settings.sort];
  const groups = grouping(now, weekEnd);
  let nodes;
  if (groups) {
    const [keyOf, order] = groups;
    const rank = new Map(order.map(([key], i) => [key, i]));
    const rankOf = (row) => rank.get(keyOf(row.task)) ?? order.length;
    open.sort((a, b) => rankOf(a) - rankOf(b) || (sort ? sort(a.task, b.task) : 0));
    nodes = [];
    let current;
    let heading = null;
    let inGroup = 0;
    const closeGroup = () => {
      if (heading) setHidden(heading, inGroup === 0);
    };
    for (const row of open) {
      const key = keyOf(row.task);
      if (key !== current) {
        closeGroup();
        current = key;
        inGroup = 0;
        const label = order.find(([k]) => k === key)?.[1] ?? 'A project no longer here';
        heading = headingFor(`${settings.group}:${key}`, label);
        nodes.push(heading);
      }
      if (row.listed) ++inGroup;
      nodes.push(row.li);
    }
    closeGroup();
  } else {
    if (sort) open.sort((a, b) => sort(a.task, b.task));
    nodes = open.map((row) => row.li);
  }
  if (sort) done.sort((a, b) => sort(a.task, b.task));
  // The Completed list first: a task that moved there leaves the open list
  // before the open list is put in order.
  windows.completed.show(done.map((row) => row.li));
  windows.main.show(nodes);
  const used = new Set(nodes);
  for (const [key, li] of headings) {
    if (!used.has(li)) headings.delete(key);
  }

  setHidden(el.completed, doneShown === 0);
  const summary = `Completed (${doneShown})`;
  if (el.completedSummary.textContent !== summary) el.completedSummary.textContent = summary;
  const on = filtersOn();
  setHidden(el.clear, !on);
  setHidden(el.noMatch, !(on && rows.size > 0 && shown === 0));
  const text = on ? `${shown} of ${rows.size} shown` : '';
  if (el.count.textContent !== text) el.count.textContent = text;
  return {shown, total: rows.size};
}

// ---- The controls ----

// Sets a <select>'s options from [value, label] pairs, only when they
// changed (an open list is not closed under the pointer by a sync), keeping
// the chosen value even when its record is not here (yet).
function setOptions(select, pairs, missing) {
  const signature = JSON.stringify(pairs);
  if (select.dataset.options === signature && select.value === settings[select.name]) return;
  select.dataset.options = signature;
  const value = settings[select.name];
  const all = [...pairs];
  if (value && !pairs.some(([v]) => v === value)) all.push([value, missing]);
  select.replaceChildren(...all.map(([v, label]) => h('option', {value: v}, label)));
  select.value = value;
}

// Refreshes the project, person and label choices from what exists now.
export function renderControls(tasks) {
  const byTitle = (kind) => records(kind).map((r) => [r.id, recordTitle(r)])
    .sort((a, b) => collator.compare(a[1], b[1]));
  setOptions(el.project, [['', 'Any project'], [kNone, 'No project'], ...byTitle('project')],
             'A project no longer here');
  setOptions(el.person, [['', 'Anyone'], [kNone, 'Nobody'], ...byTitle('person')],
             'A person no longer here');
  const labels = new Set();
  for (const task of tasks) for (const label of task.labels ?? []) labels.add(label);
  setOptions(el.label, [['', 'Any label'], [kNone, 'No label'],
                        ...[...labels].sort(collator.compare).map((l) => [l, l])], 'A label no longer used');
}

// True when the row of a task would be listed under the current filters.
export const isListed = (row) => Boolean(row?.listed);

// Clears every filter (not the sort or grouping).
export function clearFilters() {
  for (const k of kFilterKeys) settings[k] = '';
  el.text.value = '';
  saveSettings();
  for (const k of kFilterKeys) el[k].value = '';
}

// Opens the Completed section when `row` is in it.
export function showCompleted(row) {
  if (row.completed) el.completed.open = true;
}

// True when `row` is in the Completed section and that is collapsed.
export const outOfSight = (row) => Boolean(row.completed) && !el.completed.open;

// Puts `row`'s element in the document when its list keeps only a window.
export function attachRow(row) {
  (row.completed ? windows.completed : windows.main).reveal(row.li);
}

// ---- The task just added ----

// Once its row is here it is scrolled to and flashed, and the line under the
// form says so, or that the filters hide it (with a button to clear them).
let added = null;

export function noteAdded(id) {
  added = id;
}

export function revealAddedRow(rows) {
  const row = added && rows.get(added);
  if (!row) return;
  const {title} = row.task;
  if (isListed(row)) {
    added = null;
    el.addedText.textContent = `Added “${title}”.`;
    el.addedClear.hidden = true;
    attachRow(row);
    row.li.scrollIntoView({block: 'nearest'});
    flash(row);
  } else {
    el.addedText.textContent = `Added “${title}” — hidden by your filters.`;
    el.addedClear.hidden = false;
  }
}

export function flash(row) {
  row.li.classList.add('flash');
  setTimeout(() => row.li.classList.remove('flash'), 1500);
}

// `changed()` lays the list out again after a control changes; `toAdding()`
// puts the focus back in the new task's title.
export function initControls(changed, toAdding) {
  onLingerEnd = changed;
  for (const k of ['status', 'due', 'sort', 'group']) el[k].value = settings[k];
  for (const k of [...kFilterKeys, 'sort', 'group']) {
    el[k].addEventListener('change', () => {
      settings[k] = el[k].value;
      saveSettings();
      endLingering();
      changed();
    });
  }
  el.text.addEventListener('input', changed);
  el.text.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    el.text.value = '';
    changed();
  });
  el.addedClear.addEventListener('click', () => {
    clearFilters();
    endLingering();
    changed();
    toAdding();
  });
  el.clear.addEventListener('click', () => {
    clearFilters();
    endLingering();
    changed();
    el.text.focus();
  });
}
