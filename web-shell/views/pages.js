// Pages: a list of the space's pages and an editor (title and body) that
// saves by itself 900 ms after typing stops. A save sends only the changed
// fields, each with the value it was based on, so an edit made elsewhere to
// the other field merges and one to the same field ends in the conflict
// flow (Keep mine / Take theirs) instead of being overwritten.
//
// The editor is built once per opened page and kept across renders: a
// render after a sync, a poke or the save's own change updates the list and
// only the fields the person has not touched, so nothing typed is replaced.

import {rpc} from '../rpc.js';
import {maxChars, records, state} from '../state.js';
import {showToast} from '../toast.js';
import {byTestId, fill, h} from '../util.js';

// The pause after the last key before an editor saves (the spec's 900 ms,
// as the skills editor's).
export const kAutosaveMs = 900;
const kFields = ['title', 'body'];

const body = byTestId('pages-body');
let openId = null;
let message = '';
let focusTitle = false;  // Put the caret in the title once the page shows.
let shell = null;  // {root, list, message, main}: built once, updated in place.
// While a page is open: {id, form, inputs: {title, body}, base, seen,
// timer, saving, conflict}. `base` is what the server was last known to hold
// for each field (what a save is based on); `seen` is the record as last
// rendered, so only a change to the record moves the editor.
let editor = null;

const kinds = () => state.kinds ?? [];
const valueOf = (ed, field) => (field === 'title' ? ed.inputs.title.value.trim()
                                                  : ed.inputs.body.value);
const isDirty = (ed) => kFields.some((f) => valueOf(ed, f) !== ed.base[f]);
const recordOf = (id) => records('page').find((p) => p.id === id) ?? null;

function say(text) {
  if (text === message) return;  // A live region reads every change out.
  message = text;
  if (shell) shell.message.textContent = text;
}

function leave() {
  if (!editor) return;
  const ed = editor;
  editor = null;
  clearTimeout(ed.timer);
  if (isDirty(ed)) save(ed);  // Leaving a page keeps what was typed on it.
}

function select(id) {
  leave();
  openId = id;
  say('');
  focusTitle = true;
  render();
}

export function open(id) {
  if (openId !== id) select(id);
}

async function create() {
  // The open page's editor goes at once, so what is typed next cannot land
  // in it while the new page is being made.
  select(null);
  try {
    const {id} = await rpc('mutate', {name: 'page.create',
                                      args: {spaceId: state.space, title: 'Untitled page', body: ''}});
    select(id);
  } catch (e) {
    say(`The page was not created: ${e.message}`);
  }
}

// Saves what `ed` holds that the server does not; one save at a time, so a
// second waits for the first and is based on what it stored.
function save(ed, {explicit = false} = {}) {
  clearTimeout(ed.timer);
  ed.saving = (ed.saving ?? Promise.resolve()).then(() => saveNow(ed, explicit));
  return ed.saving;
}

async function saveNow(ed, explicit) {
  if (ed.conflict) return;  // The person chooses first.
  const fields = {};
  const base = {};
  for (const f of kFields) {
    if (valueOf(ed, f) === ed.base[f]) continue;
    fields[f] = valueOf(ed, f);
    base[f] = ed.base[f];
  }
  if ('title' in fields && !fields.title) {
    if (ed === editor) say('A page needs a title; it is saved once it has one.');
    return;
  }
  if (!Object.keys(fields).length) {
    // An autosave may have stored it already.
    if (explicit && ed === editor) say('Saved.');
    return;
  }
  if (ed === editor) say('Saving…');
  try {
    await rpc('mutate', {name: 'page.update', args: {id: ed.id, fields, base}});
    Object.assign(ed.base, fields);
    if (ed === editor) say(isDirty(ed) ? 'Unsaved changes' : 'Saved.');
  } catch (e) {
    if (e.code === 'SAVE_CONFLICT') {
      ed.conflict = fields;
      if (ed === editor) showConflict(ed);
    }
    if (ed === editor) say(`Not saved: ${e.message}`);
  }
}

function typed(ed) {
  if (ed.conflict) return;
  if (isDirty(ed)) say('Unsaved changes');
  clearTimeout(ed.timer);
  ed.timer = setTimeout(() => save(ed), kAutosaveMs);
}

// The page was changed elsewhere in a field the person changed too: they
// keep theirs (saved over the other, knowingly) or take the other.
function showConflict(ed) {
  const slot = ed.form.querySelector('.page-conflict');
  const keepMine = () => {
    const theirs = recordOf(ed.id);
    for (const f of Object.keys(ed.conflict)) ed.base[f] = theirs?.[f] ?? ed.base[f];
    ed.conflict = null;
    slot.replaceChildren();
    save(ed);
  };
  const takeTheirs = () => {
    const theirs = recordOf(ed.id);
    for (const f of Object.keys(ed.conflict)) {
      ed.inputs[f].value = theirs?.[f] ?? ed.base[f];
      ed.base[f] = ed.inputs[f].value;
    }
    ed.conflict = null;
    slot.replaceChildren();
    say('Took the other version.');
  };
  fill(slot, h('p', {}, 'This page was changed elsewhere while you edited it.'),
       h('button', {type: 'button', dataset: {testid: 'page-keep-mine'}, onclick: keepMine},
         'Keep mine'),
       h('button', {type: 'button', dataset: {testid: 'page-take-theirs'}, onclick: takeTheirs},
         'Take theirs'));
}

async function remove(id, title) {
  if (editor?.id === id) {
    clearTimeout(editor.timer);
    editor = null;
  }
  openId = null;
  try {
    await rpc('mutate', {name: 'page.delete', args: {id}});
    say('');
    showToast(`“${title}” moved to Trash.`, () => rpc('mutate', {name: 'page.restore', args: {id}}));
  } catch (e) {
    say(`“${title}” was not moved to Trash: ${e.message}`);
  }
  render();
}

function buildEditor(page) {
  const ed = {id: page.id, base: {title: page.title, body: page.body},
              seen: {title: page.title, body: page.body}, timer: null, saving: null,
              conflict: null};
  const title = h('input', {id: 'page-title', maxLength: maxChars('page', 'title'), value: page.title,
                            dataset: {testid: 'page-title-input'}, oninput: () => typed(ed)});
  const text = h('textarea', {id: 'page-body', rows: 16, dataset: {testid: 'page-body-input'},
                              oninput: () => typed(ed)});
  text.value = page.body;
  ed.inputs = {title, body: text};
  ed.form = h('form', {class: 'page-editor', dataset: {testid: 'page-editor', id: page.id}},
    h('div', {class: 'page-conflict', role: 'alert', dataset: {testid: 'page-conflict'}}),
    h('div', {class: 'field'}, h('label', {for: 'page-title'}, 'Title'), title),
    h('div', {class: 'field'}, h('label', {for: 'page-body'}, 'Body'), text),
    h('div', {class: 'editor-actions'},
      h('button', {type: 'submit', class: 'primary', dataset: {testid: 'page-save'}}, 'Save'),
      h('button', {type: 'button', dataset: {testid: 'page-delete'},
                   onclick: () => remove(page.id, valueOf(ed, 'title') || page.title)},
        'Move to Trash')));
  ed.form.addEventListener('submit', (e) => {
    e.preventDefault();
    save(ed, {explicit: true});
  });
  ed.form.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === 's') {
      e.preventDefault();
      save(ed, {explicit: true});
    }
  });
  return ed;
}

// Brings a change to the record (a sync, another tab, this editor's own
// save) into the fields the person has not changed since; a field changed
// on both sides is left as typed, and its save ends in the conflict flow.
function follow(ed, page) {
  for (const f of kFields) {
    if (page[f] === ed.seen[f]) continue;
    // Checked first so the input is not rewritten when it already says the
    // same: a title saved trimmed would otherwise lose the space just typed.
    if (valueOf(ed, f) === page[f]) {
      ed.base[f] = page[f];
    } else if (valueOf(ed, f) === ed.base[f]) {
      ed.inputs[f].value = page[f];
      ed.base[f] = page[f];
    }
    ed.seen[f] = page[f];
  }
}

function buildShell() {
  const list = h('ul', {class: 'page-list', dataset: {testid: 'page-list'}});
  const note = h('p', {class: 'note', role: 'status', dataset: {testid: 'page-message'}}, message);
  const main = h('div', {class: 'page-editor-slot'});
  const root = h('div', {class: 'pages'},
    h('div', {class: 'page-list-wrap'},
      h('button', {type: 'button', class: 'primary', dataset: {testid: 'new-page'}, onclick: create},
        'New page'),
      list),
    h('div', {class: 'page-main'}, note, main));
  return {root, list, message: note, main};
}

export function render() {
  if (!kinds().includes('page')) {
    shell = null;
    body.replaceChildren(h('p', {class: 'empty'}, state.kinds ? 'Pages need a newer app version.'
                                                              : 'Loading…'));
    return;
  }
  if (!shell || !body.contains(shell.root)) {
    shell = buildShell();
    body.replaceChildren(shell.root);
  }
  const pages = records('page');
  fill(shell.list, pages.map((p) =>
    h('li', {}, h('button', {type: 'button', class: 'page-link', dataset: {testid: 'page-item', id: p.id},
                             'aria-current': p.id === openId ? 'true' : null,
                             onclick: () => select(p.id)}, p.title || 'Untitled'))));
  shell.message.textContent = message;
  const current = pages.find((p) => p.id === openId) ?? null;
  if (!current) {
    // A page not in the list yet (just made) keeps its editor for when it is.
    if (editor && editor.id !== openId) leave();
    fill(shell.main, h('p', {class: 'empty'}, pages.length ? 'Pick a page to read or edit it.'
                                                           : 'No pages yet. Make one with New page.'));
    return;
  }
  if (editor?.id !== current.id) {
    leave();
    editor = buildEditor(current);
  } else {
    follow(editor, current);
  }
  if (!shell.main.contains(editor.form)) fill(shell.main, editor.form);
  if (focusTitle) {
    focusTitle = false;
    editor.inputs.title.select();
  }
}

// Reloading or closing with unsaved text asks first, and saves at once in
// case the person stays.
window.addEventListener('beforeunload', (e) => {
  if (!editor || !isDirty(editor)) return;
  save(editor);
  e.preventDefault();
  e.returnValue = '';
});
