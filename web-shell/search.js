// The search box (spec 004 §5 "Ranked search"): / or Ctrl-K, or the
// sidebar's Search button, opens it; what is typed is searched in the
// worker, on this device's copy, so it answers offline, ranked as the
// server ranks. Arrow keys move through the results, Enter opens one (as a
// click does), Escape or Close closes the box.

import {rpc} from './rpc.js';
import {state} from './state.js';
import {byTestId, fill, h} from './util.js';

const dialog = byTestId('search');
const input = byTestId('search-input');
const list = byTestId('search-results');
const status = byTestId('search-status');

// Typing settles for this long before a search starts: one search per pause,
// not one per key.
const kSettleMs = 120;

let openRecord = null;
let timer = 0;
let asked = 0;  // The latest search asked: an older answer is dropped.
let latest = Promise.resolve();  // That search, to wait for on Enter.
let shownFor = '';  // The words the results shown answer.
let shown = [];
let selected = -1;

const kKindNames = {task: 'Task', project: 'Project', deliverable: 'Deliverable', page: 'Page',
                    person: 'Person', board: 'Board'};

function open(result) {
  dialog.close();
  if (result.kind === 'deliverable') {
    openRecord('project', result.project.id);
  } else {
    openRecord(result.kind, result.id);
  }
}

function resultRow(result, index) {
  const detail = result.snippet ?? (result.kind === 'deliverable' ? result.project.title : null);
  return h('li', {role: 'option', id: `search-result-${index}`, 'aria-selected': 'false',
                  dataset: {testid: 'search-result', kind: result.kind}, onclick: () => open(result)},
           h('span', {class: 'search-kind'}, kKindNames[result.kind] ?? result.kind),
           h('span', {class: 'search-title', dataset: {testid: 'search-result-title'}},
             result.title),
           detail ? h('span', {class: 'search-snippet'}, detail) : null);
}

function select(index) {
  const rows = [...list.children];
  if (rows.length === 0) return;
  selected = (index + rows.length) % rows.length;
  rows.forEach((row, i) => row.setAttribute('aria-selected', String(i === selected)));
  input.setAttribute('aria-activedescendant', rows[selected].id);
  rows[selected].scrollIntoView({block: 'nearest'});
}

// Shows `results` as the answer to `q` (none: an empty list).
function showResults(q, results, text) {
  shownFor = q;
  shown = results;
  fill(list, results.map(resultRow));
  selected = -1;
  input.removeAttribute('aria-activedescendant');
  input.setAttribute('aria-expanded', String(results.length > 0));
  status.textContent = text;
  if (results.length > 0) select(0);
}

async function search() {
  const q = input.value.trim();
  const mine = ++asked;
  if (!q) {
    showResults(q, [], '');
    return;
  }
  let answer;
  try {
    answer = await rpc('searchWork', {q, spaceId: state.space});
  } catch (e) {
    if (mine === asked) showResults(q, [], `Could not search: ${e.message}`);
    return;
  }
  if (mine !== asked) return;
  const {results, total} = answer;
  showResults(q, results, results.length === 0 ? `Nothing matches “${q}”.`
    : total > results.length ? `${results.length} of ${total} matches`
      : `${results.length} ${results.length === 1 ? 'match' : 'matches'}`);
}

// Searches now, dropping a pending pause.
function searchNow() {
  clearTimeout(timer);
  timer = 0;
  latest = search();
  return latest;
}

export function show() {
  if (!dialog.open) dialog.showModal();
  input.select();
  // What was found before may have changed, or be of another space.
  if (input.value.trim()) searchNow();
}

export function init(ctx) {
  openRecord = ctx.openRecord;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(searchNow, kSettleMs);
  });
  input.addEventListener('keydown', async (e) => {
    if (e.isComposing) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      select(selected + (e.key === 'ArrowDown' ? 1 : -1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      // Enter opens what the words typed find: it waits for their search.
      if (timer) searchNow();
      await latest;
      if (shownFor === input.value.trim() && shown.length > 0) open(shown[Math.max(selected, 0)]);
    }
  });
  byTestId('search-open').addEventListener('click', show);
}
