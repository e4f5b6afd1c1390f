// Desk lists in Today: the person's short checklists (spec 002 §2, desk
// lists: list, add, change, remove). Each line is a record of its own, so a
// tick here and a tick on another device both stay. Every change is a
// mutation on the replica, queued like any edit, so it works offline.
//
// Inputs are made once per list and kept across renders, so a pull arriving
// while someone types never drops what they typed.

import {rpc} from '../rpc.js';
import {maxChars, records, state} from '../state.js';
import {showToast} from '../toast.js';
import {h, setMaxLength} from '../util.js';

// The step between positions of lines added here, so a line can later go
// between two without renumbering. Not a limit: the core takes any position
// up to its maximum; the assistant's tools happen to leave the same step.
const kPositionStep = 1024;
const addInputs = new Map();  // list id -> its "Add a line" input
let message = '';
let onChange = () => {};

const liveLines = (listId) => records('desk_list_item')
  .filter((l) => l.list === listId)
  .sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));

async function run(name, args, failure) {
  try {
    await rpc('mutate', {name, args});
    message = '';
    return true;
  } catch (e) {
    message = `${failure}: ${e.message}`;
    return false;
  } finally {
    onChange();
  }
}

// A removal says so, with Undo (the record comes back from Trash).
async function remove(kind, id, title) {
  if (!await run(`${kind}.delete`, {id}, `Could not remove “${title}”`)) return;
  showToast(`Removed “${title}”.`, () => rpc('mutate', {name: `${kind}.restore`, args: {id}}));
}

function addLine(list, input) {
  const text = input.value.trim();
  if (!text) return;
  const last = liveLines(list.id).reduce((max, l) => Math.max(max, l.position), 0);
  input.value = '';
  run('desk_list_item.create',
      {spaceId: state.space, list: list.id, text, position: last + kPositionStep},
      `Could not add “${text}”`);
}

function addInput(list) {
  let input = addInputs.get(list.id);
  if (!input) {
    input = h('input', {placeholder: 'Add a line', 'aria-label': `Add a line to ${list.title}`,
                        dataset: {testid: 'desk-line-input'}});
    addInputs.set(list.id, input);
  }
  setMaxLength(input, maxChars('desk_list_item', 'text'));
  return input;
}

function lineItem(line) {
  const id = `desk-line-${line.id}`;
  return h('li', {class: 'desk-line', dataset: {testid: 'desk-line', id: line.id, done: line.done ? 'yes' : 'no'}},
    h('input', {type: 'checkbox', id, checked: Boolean(line.done), dataset: {testid: 'desk-line-done'},
                onchange: (e) => run('desk_list_item.update',
                                     {id: line.id, fields: {done: e.target.checked ? 1 : 0},
                                      base: {done: line.done ? 1 : 0}},
                                     `Could not tick “${line.text}”`)}),
    h('label', {for: id}, line.text),
    h('button', {type: 'button', class: 'quiet', dataset: {testid: 'desk-line-remove'},
                 'aria-label': `Remove line: ${line.text}`,
                 onclick: () => remove('desk_list_item', line.id, line.text)}, '×'));
}

function listCard(list) {
  const lines = liveLines(list.id);
  const done = lines.filter((l) => l.done).length;
  const input = addInput(list);
  return h('section', {class: 'desk-list', dataset: {testid: 'desk-list', id: list.id}},
    h('h4', {}, list.title, h('span', {class: 'count'}, lines.length ? `${done}/${lines.length}` : '')),
    lines.length ? h('ul', {}, lines.map(lineItem)) : null,
    h('form', {class: 'desk-add', onsubmit: (e) => { e.preventDefault(); addLine(list, input); }},
      input, h('button', {type: 'submit'}, 'Add')),
    h('button', {type: 'button', class: 'quiet', dataset: {testid: 'desk-list-remove'},
                 'aria-label': `Remove the list ${list.title}`,
                 onclick: () => remove('desk_list', list.id, list.title)}, 'Remove list'));
}

const newListInput = h('input', {placeholder: 'New list, e.g. Waiting on',
                                 'aria-label': 'New desk list title', dataset: {testid: 'desk-new-list'}});
const newListForm = h('form', {class: 'desk-add', onsubmit: (e) => {
  e.preventDefault();
  const title = newListInput.value.trim();
  if (!title) return;
  newListInput.value = '';
  run('desk_list.create', {spaceId: state.space, title}, `Could not add the list “${title}”`);
}}, newListInput, h('button', {type: 'submit'}, 'Add list'));

// The Lists section of Today; `changed` re-renders after a change.
export function deskSection(changed) {
  onChange = changed;
  setMaxLength(newListInput, maxChars('desk_list', 'title'));
  const lists = records('desk_list').slice()
    .sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0) || a.id.localeCompare(b.id));
  // A list missing from one read (a pull landing mid-change) keeps its input,
  // and what is typed into it, for when it shows again; only the inputs of
  // lists in Trash are dropped.
  for (const id of addInputs.keys()) {
    if (state.trash.some((r) => r.id === id)) addInputs.delete(id);
  }
  return h('section', {class: 'today-group', dataset: {testid: 'desk-lists'}},
    h('h3', {}, 'Lists'),
    message ? h('p', {class: 'note', role: 'status'}, message) : null,
    h('div', {class: 'desk-grid'}, lists.map(listCard)),
    newListForm);
}
