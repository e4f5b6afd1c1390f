// Needs me: the assistant's writes held for the person under the needs-me
// write policy (spec 000 "write policy"), from GET /api/assistant/approvals.
// Each says what it would do, in the words of its calls' summaries, and in
// which chat it was asked, with Apply (POST /api/assistant/apply) and
// Dismiss (POST /api/assistant/discard, after a one-line confirm: a
// dismissed change is not made, and the assistant can be asked again). The nav
// item shows how many wait; the list is read again on opening the view, on
// focus, and with each check of the assistant's activity (activity.js's
// `ensemble:activity` event, every few seconds): a turn that ended since
// may have held something.

import {api} from '../api.js';
import {state} from '../state.js';
import {showToast} from '../toast.js';
import {byTestId, fill, h} from '../util.js';

const body = byTestId('needs-me-body');
const badge = h('span', {class: 'nav-badge', dataset: {testid: 'needs-me-count'}, hidden: true});

let approvals = null;  // null until read.
let failure = '';
let message = '';
let chatTitles = new Map();  // conversationId -> title
const applying = new Set();  // keyOf()s being applied or dismissed
const confirming = new Set();  // keyOf()s asking whether to dismiss
const lookedFor = new Set();  // Chats whose names were asked for.
let shown = '';  // What the list last rendered, to skip identical renders.

const keyOf = (a) => `${a.conversationId}/${a.messageId}`;

async function load() {
  try {
    const {approvals: list = []} = await api('GET', '/api/assistant/approvals');
    // The chats' names, read again only when one is new to this list.
    if (list.some((a) => !chatTitles.has(a.conversationId) && !lookedFor.has(a.conversationId))) {
      for (const a of list) lookedFor.add(a.conversationId);
      const {conversations = []} = await api(
        'GET', `/api/assistant/conversations?spaceId=${encodeURIComponent(state.space)}`)
        .catch(() => ({conversations: []}));
      chatTitles = new Map(conversations.map((c) => [c.id, c.title]));
    }
    approvals = list;
    failure = '';
  } catch (e) {
    failure = `What waits for you could not be read: ${e.message}`;
  }
  // Unchanged, the list is left as it is, so a poll never moves the focus.
  const now = JSON.stringify([approvals, failure, [...chatTitles]]);
  if (now === shown) return;
  shown = now;
  render();
}

// POSTs `action` (apply, undo, discard) for the proposal and tells the
// dock, whose chat may show its card, how it stands; answers the proposal.
async function act(action, approval) {
  const target = {conversationId: approval.conversationId, messageId: approval.messageId};
  const proposal = await api('POST', `/api/assistant/${action}`, target);
  document.dispatchEvent(new CustomEvent('ensemble:proposal', {detail: {...target, proposal}}));
  return proposal;
}

async function apply(approval) {
  const key = keyOf(approval);
  applying.add(key);
  render();
  try {
    const out = await act('apply', approval);
    const failed = (out.receipts ?? []).filter((r) => r.outcome !== 'succeeded');
    if (failed.length) {
      message = `Some of it was not done: ${failed.map((r) => r.error?.message ?? r.summary ?? r.tool)
        .join('; ')}`;
    } else {
      message = '';
      showToast(`Done: ${whatItDoes(approval)}`, async () => {
        await act('undo', approval);
        load();
      });
    }
  } catch (e) {
    message = `Not applied: ${e.message}`;
  } finally {
    applying.delete(key);
  }
  shown = '';
  await load();
}

async function dismiss(approval) {
  const key = keyOf(approval);
  confirming.delete(key);
  applying.add(key);
  render();
  try {
    await act('discard', approval);
    message = '';
    showToast(`Dismissed: ${whatItDoes(approval)}`);
  } catch (e) {
    message = `Not dismissed: ${e.message}`;
  } finally {
    applying.delete(key);
  }
  shown = '';
  await load();
  byTestId('needs-me-body').querySelector('[data-testid="needs-me-apply"]')?.focus();
}

function ask(approval, asking) {
  if (asking) confirming.add(keyOf(approval));
  else confirming.delete(keyOf(approval));
  render();
  const item = body.querySelector(`[data-testid="needs-me-item"][data-id="${CSS.escape(approval.messageId)}"]`);
  item?.querySelector(asking ? '[data-testid="needs-me-dismiss-cancel"]'
                             : '[data-testid="needs-me-dismiss"]')?.focus();
}

function whatItDoes(approval) {
  return approval.calls.map((c) => c.summary || 'a change').join('; ');
}

function when(ms) {
  return new Date(ms).toLocaleString(undefined, {dateStyle: 'medium', timeStyle: 'short'});
}

function row(approval) {
  const key = keyOf(approval);
  const chat = chatTitles.get(approval.conversationId);
  const busy = applying.has(key);
  return h('li', {class: 'needs-me-item', dataset: {testid: 'needs-me-item', id: approval.messageId}},
    h('ul', {class: 'needs-me-calls'},
      approval.calls.map((c) => h('li', {dataset: {testid: 'needs-me-call'}}, c.summary || 'A change'))),
    h('p', {class: 'needs-me-meta'},
      `Asked ${chat ? `in the chat “${chat}”` : 'in a chat'} · ${when(approval.createdAt)}`),
    confirming.has(key)
      ? h('p', {class: 'needs-me-confirm', role: 'group', 'aria-label': 'Dismiss this change?'},
          'Dismiss it? The assistant will not make this change. ',
          h('button', {type: 'button', class: 'danger', dataset: {testid: 'needs-me-dismiss-confirm'},
                       onclick: () => dismiss(approval)}, 'Dismiss'),
          ' ',
          h('button', {type: 'button', dataset: {testid: 'needs-me-dismiss-cancel'},
                       onclick: () => ask(approval, false)}, 'Keep it'))
      : h('div', {class: 'needs-me-actions'},
          h('button', {type: 'button', class: 'primary', dataset: {testid: 'needs-me-apply'}, disabled: busy,
                       'aria-label': `Apply: ${whatItDoes(approval)}`, onclick: () => apply(approval)},
            busy ? 'Working…' : 'Apply'),
          ' ',
          h('button', {type: 'button', dataset: {testid: 'needs-me-dismiss'}, disabled: busy,
                       'aria-label': `Dismiss: ${whatItDoes(approval)}`, onclick: () => ask(approval, true)},
            'Dismiss…')));
}

function renderBadge() {
  const n = approvals?.length ?? 0;
  badge.hidden = n === 0;
  badge.textContent = String(n);
  badge.title = n === 1 ? '1 waits for you' : `${n} wait for you`;
}

export function render() {
  renderBadge();
  if (byTestId('view-needs-me').hidden) return;
  const intro = h('p', {class: 'hint'},
    'What the assistant would change once you say so. Nothing here happens until you apply it; ' +
    'to hold it back, leave it here, or dismiss it.');
  let content;
  if (failure) {
    content = h('p', {role: 'alert', dataset: {testid: 'needs-me-error'}}, failure,
      ' ', h('button', {type: 'button', onclick: load}, 'Try again'));
  } else if (!approvals) {
    content = h('p', {}, 'Checking what waits for you…');
  } else if (!approvals.length) {
    content = h('p', {dataset: {testid: 'needs-me-empty'}}, 'Nothing waits for you.');
  } else {
    content = h('ul', {class: 'needs-me-list', dataset: {testid: 'needs-me-list'}}, approvals.map(row));
  }
  fill(body, intro, content,
    h('p', {role: 'status', dataset: {testid: 'needs-me-message'}}, message));
}

export function init() {
  byTestId('nav-needs-me').append(' ', badge);
  window.addEventListener('hashchange', () => {
    if (location.hash.startsWith('#/needs-me')) load();
  });
  window.addEventListener('focus', load);
  // Each activity check (every few seconds) reads the list again: a turn
  // that ended since may have left something here.
  document.addEventListener('ensemble:activity', () => load());
  load();
}
