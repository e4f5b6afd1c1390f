// The dock's recent chats (spec 000 §3): the space's conversations, newest
// first (GET /api/assistant/conversations?spaceId=); a row opens its chat,
// and its bin button (or Delete / Backspace on the row) asks a one-line
// confirm before DELETE /api/assistant/conversations/:id. Deleting the open
// chat starts a new one, as the spec says.

import {api, kOffline} from '../api.js';
import {state} from '../state.js';
import {byTestId, fill, h} from '../util.js';

const el = {
  toggle: byTestId('dock-chats'),
  panel: byTestId('dock-chats-panel'),
};

let hooks = null;  // {currentId(), open(id), deleted(id)}
let chats = [];
let confirming = null;  // The id whose delete waits for a yes.
let note = '';

function when(ms) {
  const d = new Date(ms);
  const sameDay = d.toDateString() === new Date().toDateString();
  return sameDay ? d.toLocaleTimeString([], {hour: '2-digit', minute: '2-digit'})
                 : d.toLocaleDateString([], {day: 'numeric', month: 'short'});
}

function isOpen() {
  return !el.panel.hidden;
}

async function load() {
  note = '';
  try {
    const out = await api('GET',
                          `/api/assistant/conversations?spaceId=${encodeURIComponent(state.space)}`);
    chats = out.conversations ?? [];
    chats.sort((a, b) => b.updatedAt - a.updatedAt);
  } catch (e) {
    chats = [];
    note = e.code === kOffline ? 'Recent chats show when the server is back.' : e.message;
  }
  render();
}

async function remove(chat) {
  try {
    await api('DELETE', `/api/assistant/conversations/${chat.id}`);
  } catch (e) {
    if (e.status !== 404) {
      note = `Could not delete “${chat.title}”: ${e.message}`;
      render();
      return;
    }
  }
  confirming = null;
  chats = chats.filter((c) => c.id !== chat.id);
  note = `Deleted “${chat.title}”.`;
  hooks.deleted(chat.id);
  render();
  el.panel.querySelector('[data-testid="chat-open"]')?.focus();
}

function confirmRow(chat) {
  const cancel = () => {
    confirming = null;
    render();
    el.panel.querySelector(`[data-id="${chat.id}"] [data-testid="chat-open"]`)?.focus();
  };
  return h('li', {class: 'chat-row confirming', dataset: {testid: 'chat-row', id: chat.id},
                  onkeydown: (e) => {
                    if (e.key === 'Escape') {
                      e.stopPropagation();
                      cancel();
                    }
                  }},
    h('span', {class: 'chat-confirm-text'}, `Delete “${chat.title}”?`),
    h('button', {type: 'button', class: 'danger', dataset: {testid: 'chat-delete-confirm'},
                 onclick: () => remove(chat)}, 'Delete'),
    h('button', {type: 'button', dataset: {testid: 'chat-delete-cancel'}, onclick: cancel},
      'Cancel'));
}

// A bin, drawn so it needs no emoji font.
function binIcon() {
  const span = h('span', {class: 'chat-bin-icon', 'aria-hidden': 'true'});
  span.innerHTML = '<svg viewBox="0 0 16 16" width="14" height="14" fill="none" ' +
    'stroke="currentColor" stroke-width="1.5"><path d="M2.5 4h11M6 4V2.5h4V4M4 4l.7 9.5h6.6' +
    'L12 4M6.8 6.5v5M9.2 6.5v5"/></svg>';
  return span;
}

function row(chat) {
  if (confirming === chat.id) return confirmRow(chat);
  const ask = () => {
    confirming = chat.id;
    note = '';
    render();
    el.panel.querySelector('[data-testid="chat-delete-confirm"]')?.focus();
  };
  const current = hooks.currentId() === chat.id;
  return h('li', {class: `chat-row${current ? ' current' : ''}`,
                  dataset: {testid: 'chat-row', id: chat.id}},
    h('button', {type: 'button', class: 'chat-open', dataset: {testid: 'chat-open'},
                 'aria-current': current ? 'true' : null,
                 onclick: () => {
                   hooks.open(chat.id);
                   close();
                 },
                 onkeydown: (e) => {
                   if (e.key === 'Delete' || e.key === 'Backspace') {
                     e.preventDefault();
                     ask();
                   }
                 }},
      h('span', {class: 'chat-title'}, chat.title || 'New chat'),
      h('span', {class: 'chat-when'}, when(chat.updatedAt))),
    h('button', {type: 'button', class: 'chat-bin', dataset: {testid: 'chat-delete'},
                 'aria-label': `Delete chat “${chat.title}”`, title: 'Delete chat', onclick: ask},
      binIcon()));
}

function render() {
  fill(el.panel,
    h('h3', {class: 'dock-chats-heading'}, 'Recent chats'),
    chats.length ? h('ul', {class: 'chat-list', dataset: {testid: 'chat-list'}}, chats.map(row))
                 : h('p', {class: 'note'}, note ? '' : 'No chats yet in this space.'),
    note ? h('p', {class: 'note', role: 'status', dataset: {testid: 'chats-note'}}, note) : null);
}

function close() {
  el.panel.hidden = true;
  confirming = null;
  el.toggle.setAttribute('aria-expanded', 'false');
}

export function initChats(h0) {
  hooks = h0;
  el.toggle.addEventListener('click', () => {
    if (isOpen()) {
      close();
      return;
    }
    el.panel.hidden = false;
    el.toggle.setAttribute('aria-expanded', 'true');
    render();
    load().then(() => el.panel.querySelector('[data-testid="chat-open"]')?.focus());
  });
  el.panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && isOpen()) {
      close();
      el.toggle.focus();
    }
  });
}

// The space changed or a chat began: a shown list is out of date.
export function refreshChats() {
  if (isOpen()) load();
}
