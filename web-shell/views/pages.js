// Pages: a list of the space's pages and an editor (title and body). A save
// sends only the changed fields, each with the value it was based on, so an
// edit made elsewhere to the other field merges and one to the same field is
// reported as a conflict instead of being overwritten.

import {rpc} from '../rpc.js';
import {records, state} from '../state.js';
import {byTestId, h} from '../util.js';

const body = byTestId('pages-body');
let openId = null;
let editor = null;  // {id, title, body, base: {title, body}} while a page is open
let message = '';
let focusTitle = false;  // Put the caret in the title once the page shows.

const kinds = () => state.kinds ?? [];

function select(id) {
  openId = id;
  editor = null;
  message = '';
  focusTitle = true;
  render();
}

export function open(id) {
  if (openId !== id) select(id);
}

async function create() {
  try {
    const {id} = await rpc('mutate', {name: 'page.create',
                                      args: {spaceId: state.space, title: 'Untitled page', body: ''}});
    select(id);
  } catch (e) {
    message = `The page was not created: ${e.message}`;
    render();
  }
}

async function save(page, title, text) {
  const fields = {};
  const base = {};
  if (title.trim() !== page.title) {
    fields.title = title.trim();
    base.title = page.title;
  }
  if (text !== page.body) {
    fields.body = text;
    base.body = page.body;
  }
  if (!fields.title && 'title' in fields) {
    message = 'A page needs a title; the old one was kept.';
    render();
    return;
  }
  if (!Object.keys(fields).length) {
    message = 'Nothing to save.';
  } else {
    try {
      await rpc('mutate', {name: 'page.update', args: {id: page.id, fields, base}});
      message = 'Saved.';
    } catch (e) {
      message = `Not saved: ${e.message}`;
    }
  }
  editor = null;
  render();
}

async function remove(page) {
  await rpc('mutate', {name: 'page.delete', args: {id: page.id}}).catch(() => {});
  openId = null;
  message = `“${page.title}” moved to Trash.`;
  render();
}

function editorView(page) {
  // Keep what the person is typing across re-renders caused by syncs.
  if (!editor || editor.id !== page.id) editor = {id: page.id, title: page.title, body: page.body};
  const title = h('input', {id: 'page-title', maxLength: 500, value: editor.title,
                            dataset: {testid: 'page-title-input'},
                            oninput: (e) => { editor.title = e.target.value; }});
  const text = h('textarea', {id: 'page-body', rows: 16, dataset: {testid: 'page-body-input'},
                              oninput: (e) => { editor.body = e.target.value; }});
  text.value = editor.body;
  const form = h('form', {class: 'page-editor', dataset: {testid: 'page-editor', id: page.id}},
    h('div', {class: 'field'}, h('label', {for: 'page-title'}, 'Title'), title),
    h('div', {class: 'field'}, h('label', {for: 'page-body'}, 'Body'), text),
    h('div', {class: 'editor-actions'},
      h('button', {type: 'submit', class: 'primary', dataset: {testid: 'page-save'}}, 'Save'),
      h('button', {type: 'button', dataset: {testid: 'page-delete'}, onclick: () => remove(page)},
        'Move to Trash')));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    save(page, editor.title, editor.body);
  });
  form.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === 's') {
      e.preventDefault();
      save(page, editor.title, editor.body);
    }
  });
  return form;
}

export function render() {
  if (!kinds().includes('page')) {
    body.replaceChildren(h('p', {class: 'empty'}, state.kinds ? 'Pages need a newer app version.'
                                                              : 'Loading…'));
    return;
  }
  // Re-rendering while the person types would drop the caret: skip when the
  // editor has focus (its state is kept in `editor` and shown next time).
  if (body.querySelector('.page-editor')?.contains(document.activeElement) && editor) return;
  const pages = records('page');
  const current = pages.find((p) => p.id === openId) ?? null;
  body.replaceChildren(
    h('div', {class: 'pages'},
      h('div', {class: 'page-list-wrap'},
        h('button', {type: 'button', class: 'primary', dataset: {testid: 'new-page'}, onclick: create},
          'New page'),
        h('ul', {class: 'page-list', dataset: {testid: 'page-list'}}, pages.map((p) =>
          h('li', {}, h('button', {type: 'button', class: 'page-link', dataset: {testid: 'page-item', id: p.id},
                                   'aria-current': p.id === openId ? 'true' : null,
                                   onclick: () => select(p.id)}, p.title || 'Untitled'))))),
      h('div', {class: 'page-main'},
        h('p', {class: 'note', role: 'status', dataset: {testid: 'page-message'}}, message),
        current ? editorView(current)
                : h('p', {class: 'empty'}, pages.length ? 'Pick a page to read or edit it.'
                                                        : 'No pages yet. Make one with New page.'))));
  if (focusTitle && current) {
    focusTitle = false;
    body.querySelector('[data-testid="page-title-input"]')?.select();
  }
}
