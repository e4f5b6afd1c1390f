// The assistant dock: one conversation per space, a message posted to
// POST /api/assistant/conversations/:id/messages whose reply streams as SSE
// frames (turn, refs, text, tool, proposal, done, error). Held writes sit in
// a dashed card with Apply and Apply all (POST /api/assistant/apply); applied
// ones, and writes that ran at once, get Undo (/api/assistant/undo) and then
// Redo. The last history of each chat is kept on this device, so the dock
// shows it offline too; Recent chats (dock-chats.js) opens and deletes chats.

import {api, kOffline, send as sendRequest} from '../api.js';
import {rpc} from '../rpc.js';
import {state, subscribe} from '../state.js';
import {byTestId, h, rememberAssistantSettings, savedAssistantSettings, today} from '../util.js';
import {initChats, refreshChats} from './dock-chats.js';
import {formatReply, toolRows} from './dock-render.js';
import {MentionMenu} from './mentions.js';
import {forgetHistory, keepHistory, keptHistory, queueExchange, queuedExchanges,
        uploadExchanges} from './offline-exchanges.js';

const el = {
  log: byTestId('dock-log'),
  form: byTestId('dock-form'),
  input: byTestId('dock-input'),
  send: byTestId('dock-send'),
  stop: byTestId('dock-stop'),
  error: byTestId('dock-error'),
  newChat: byTestId('dock-new'),
};

let ctx = null;
let menu = null;
let conversationId = null;
let loadedFor = null;  // The space whose conversation the log shows.
let live = null;  // The reply streaming now.

const storageKey = () => `ensemble-conversation:${state.space}`;

// Reads the chat's messages from the server and keeps them here.
async function fetchHistory(id) {
  const {messages = []} = await api('GET', `/api/assistant/conversations/${id}/messages`);
  keepHistory(id, messages);
  return messages;
}

function refreshKept() {
  const id = conversationId;
  if (id && state.sync?.online !== false) fetchHistory(id).catch(() => {});
}

// A server's error for the dock: a sentence, and the dock's own words when
// the server is out of reach.
function sayError(e) {
  if (e?.code === kOffline) return 'The assistant needs the server, which cannot be reached.';
  const text = String(e?.message ?? e);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function showError(text) {
  el.error.textContent = text ?? '';
  el.error.hidden = !text;
}

// ---- A reply: text, tool rows and proposals, re-rendered as frames land. ----

const replyOf = new WeakMap();  // A reply's element -> its Reply.

class Reply {
  constructor({messageId = null, text = '', calls = [], proposals = [], refs = []} = {}) {
    this.messageId = messageId;
    this.text = text;
    this.refs = refs;
    this.calls = calls;  // [{callId, name, status?, receipt?}]
    this.proposals = proposals;  // [{callId, name, preview, outcome?, undoable?, error?}]
    this.live = false;
    this.error = null;
    this.li = h('li', {class: 'msg assistant', dataset: {testid: 'reply'}});
    this.textNode = h('div', {class: 'reply-text', dataset: {testid: 'reply-text'}});
    this.toolsNode = h('div', {class: 'reply-tools'});
    this.cardNode = h('div', {class: 'reply-proposals'});
    this.errorNode = h('p', {class: 'reply-error', role: 'alert', hidden: true});
    this.noteNode = h('p', {class: 'note', dataset: {testid: 'reply-offline'}, hidden: true});
    this.li.append(this.textNode, this.toolsNode, this.cardNode, this.errorNode, this.noteNode);
    replyOf.set(this.li, this);
    this.formatting = null;
  }

  // Formats at most one text at a time; the latest wins.
  renderText() {
    if (this.formatting) {
      this.formatAgain = true;
      return;
    }
    this.formatting = (async () => {
      do {
        this.formatAgain = false;
        this.textNode.innerHTML = await formatReply(this.text, this.refs, this.live);
      } while (this.formatAgain);
    })().finally(() => {
      this.formatting = null;
      this.li.dataset.state = this.live ? 'streaming' : 'done';
    });
  }

  // Until text streams: the step in progress (its status line, or
  // "Thinking…" once results are in), with its seconds after three.
  renderTools() {
    let thinking = null;
    if (this.live && !this.text) {
      const last = this.calls.at(-1);
      const line = last && !last.receipt ? last.status ?? 'Working…' : 'Thinking…';
      if (line !== this.stepLine) {
        this.stepLine = line;
        this.stepStarted = Date.now();
      }
      const seconds = Math.floor((Date.now() - this.stepStarted) / 1000);
      thinking = seconds > 3 ? `${line} ${seconds}s` : line;
    }
    this.toolsNode.replaceChildren(toolRows(this.calls, {live: this.live, thinking}) ?? '');
  }

  renderProposals() {
    if (!this.proposals.length) {
      this.cardNode.replaceChildren();
      return;
    }
    const waiting = this.proposals.filter((p) => !p.outcome || p.outcome === 'pending');
    this.cardNode.replaceChildren(h('div', {class: 'proposal-card', dataset: {testid: 'proposal-card'}},
      h('p', {class: 'proposal-note'},
        this.proposals.every((p) => p.atOnce) ? 'Done at once; Undo puts it back.'
          : this.proposals.every((p) => p.outcome === 'succeeded') ? 'Applied from this card.'
          : this.proposals.every((p) => p.outcome === 'discarded') ? 'Dismissed: nothing was changed.'
          : 'Nothing changes until you apply.'),
      h('ul', {class: 'proposal-list'}, this.proposals.map((p) => this.proposalRow(p))),
      waiting.length > 1
        ? h('button', {type: 'button', class: 'primary', dataset: {testid: 'proposal-apply-all'},
                       onclick: () => this.apply(waiting.map((w) => w.callId))}, 'Apply all')
        : null));
  }

  proposalRow(p) {
    const mark = {succeeded: 'Applied', applied: 'Applied', failed: 'Failed', unattempted: 'Not run',
                  discarded: 'Dismissed'}[
      p.outcome] ?? null;
    const row = h('li', {class: 'proposal', dataset: {testid: 'proposal', callId: p.callId,
                                                      outcome: p.undone ? 'undone' : p.outcome ?? 'pending'}},
      h('span', {class: 'proposal-text'}, p.summary ?? p.preview ?? p.name),
      p.undone ? h('span', {class: 'mark'}, 'Undone') : mark ? h('span', {class: 'mark'}, mark) : null,
      p.error ? h('span', {class: 'tool-error'}, p.error.message) : null);
    const button = (testid, label, fn) => h('button', {type: 'button', dataset: {testid},
                                                       'aria-label': `${label}: ${p.preview ?? p.name}`,
                                                       onclick: fn}, label);
    if (!p.outcome || p.outcome === 'pending' || p.outcome === 'failed') {
      row.append(button('proposal-apply', p.outcome === 'failed' ? 'Retry' : 'Apply',
                        () => this.apply([p.callId])));
    } else if (p.undone && !p.local) {
      row.append(button('proposal-redo', 'Redo', () => this.undo([p.callId], true)));
    } else if (p.undoable) {
      row.append(button('proposal-undo', 'Undo', () => this.undo([p.callId], false)));
    }
    return row;
  }

  // How the saved proposal stands now, changed elsewhere (Needs me).
  takeProposal(proposal) {
    if (proposal.state === 'discarded') {
      for (const p of this.proposals) {
        if (!p.outcome || p.outcome === 'pending' || p.outcome === 'failed') p.outcome = 'discarded';
      }
      this.renderProposals();
      return;
    }
    this.takeReceipts(proposal.receipts);
  }

  takeReceipts(receipts = []) {
    for (const r of receipts) {
      const p = this.proposals.find((x) => x.callId === r.callId);
      if (!p) continue;
      Object.assign(p, {outcome: r.outcome, undoable: r.undoable, undone: r.undone, error: r.error});
      if (r.summary) p.summary = r.summary;
      const call = this.calls.find((c) => c.callId === r.callId);
      if (call) call.receipt = {state: r.outcome, summary: r.summary, error: r.error, undone: r.undone};
    }
    this.renderTools();
    this.renderProposals();
  }

  async apply(callIds) {
    const drafts = this.proposals.filter((p) => p.local && callIds.includes(p.callId));
    if (drafts.length) {
      await this.applyLocally(drafts);
      return;
    }
    await this.post('/api/assistant/apply', callIds);
  }

  // Drafts of an offline turn run on this device, their writes in the outbox.
  async applyLocally(drafts) {
    showError('');
    for (const b of this.cardNode.querySelectorAll('button')) b.disabled = true;
    try {
      const out = await rpc('applyLocalCalls', {
        spaceId: this.spaceId, today: today(),
        calls: drafts.map((p) => ({id: p.callId, name: p.name, input: p.input})),
      });
      this.takeReceipts(out.calls.map(localReceipt));
    } catch (e) {
      showError(e.message);
      this.renderProposals();
    }
  }

  async undo(callIds, redo) {
    const local = this.proposals.filter((p) => p.local && p.undoMutations &&
                                                callIds.includes(p.callId));
    if (local.length && !redo) {
      await this.undoLocally(local);
      return;
    }
    await this.post(redo ? '/api/assistant/redo' : '/api/assistant/undo', callIds);
  }

  // An offline write's Undo: its reverse mutations, queued like any edit.
  async undoLocally(done) {
    showError('');
    try {
      for (const p of done) {
        for (const m of p.undoMutations) await rpc('mutate', {name: m.name, args: m.args});
        p.undone = true;
        p.undoMutations = null;  // Redo is for the server's writes.
      }
    } catch (e) {
      showError(e.message);
    }
    this.renderProposals();
  }

  async post(path, callIds) {
    showError('');
    for (const b of this.cardNode.querySelectorAll('button')) b.disabled = true;
    try {
      const out = await api('POST', path, {conversationId, messageId: this.messageId, callIds});
      this.takeReceipts(out.receipts);
      rpc('syncNow').catch(() => {});  // Bring the change into the lists now.
    } catch (e) {
      showError(sayError(e));
      this.renderProposals();
    }
  }

  fail(message) {
    this.errorNode.textContent = message;
    this.errorNode.hidden = false;
  }
}

// ---- The assistant offline. ----
// Without the server the built-in planner answers on this device
// (core/assistant/local_turn.h): reads see its copy, writes wait in its
// outbox and sync later, a write the saved policy holds waits here for Apply,
// and Undo queues a write's reverse mutations the same way.

function localReceipt(c) {
  return c.state === 'succeeded'
    ? {callId: c.id, outcome: 'succeeded', summary: c.result?.summary ?? ''}
    : {callId: c.id, outcome: 'failed', error: {message: c.text ?? ''}};
}

// The @-menu's picks as the planner reads them (an id is an exact key), at
// most as many as it reads (the core's limit; none before the module says).
function plannerMentions(mentions = []) {
  return mentions.filter((m) => [m?.kind, m?.id, m?.label].every((x) => typeof x === 'string' && x))
    .slice(0, state.limits?.maxLocalMentions ?? 0).map(({kind, id, label}) => ({kind, id, label}));
}

async function sendLocally(reply, text, mentions) {
  const saved = savedAssistantSettings();
  const request = {message: text, spaceId: reply.spaceId, today: today()};
  const picked = plannerMentions(mentions);
  if (picked.length) request.mentions = picked;
  if (saved.writePolicy) request.policy = saved.writePolicy;
  if (Array.isArray(saved.allowedWriteAreas)) request.allowedWriteAreas = saved.allowedWriteAreas;
  if (saved.timeZone) request.timeZone = saved.timeZone;
  const out = await rpc('localTurn', request);
  for (const c of out.calls) {
    const call = {callId: c.id, name: c.name, input: c.input};
    if (c.state !== 'held') {
      const r = localReceipt(c);
      call.receipt = {state: r.outcome, summary: r.summary, error: r.error};
    }
    reply.calls.push(call);
    if (c.state === 'succeeded' && Array.isArray(c.result?.undo) && c.result.undo.length) {
      reply.proposals.push({...ranAtOnce(c.id, c.name, call.receipt), local: true,
                            undoMutations: c.result.undo});
    }
    if (c.state === 'held') {
      reply.proposals.push({callId: c.id, name: c.name, preview: c.text, input: c.input,
                            local: true});
    }
  }
  reply.text = out.reply;
  reply.noteNode.textContent = 'Offline: the built-in planner answered on this device; ' +
    'its changes sync when you are back online.';
  // The conversation gets the exchange once the server is back.
  queueExchange(reply.spaceId, text, out).catch(() => {});
  reply.noteNode.hidden = false;
  reply.renderProposals();
}

// ---- Frames of a turn. ----

function onFrame(reply, event, data) {
  if (event === 'turn') {
    reply.messageId = data.messageId;
    reply.turnId = data.turnId;
  } else if (event === 'refs') {
    reply.refs = data.refs ?? [];
  } else if (event === 'text') {
    reply.text += data.text ?? '';
    reply.renderText();
    reply.renderTools();
  } else if (event === 'tool') {
    let call = reply.calls.find((c) => c.callId === data.callId);
    if (!call) reply.calls.push(call = {callId: data.callId, name: data.name});
    if (data.input) call.input = data.input;
    if (data.phase === 'status') call.status = data.status;
    if (data.phase === 'ended') call.receipt = data.receipt;
    reply.renderTools();
    // A write that ran at once (the immediate policy) keeps its Undo here.
    if (data.phase === 'ended' && data.receipt?.undoable) {
      reply.proposals.push(ranAtOnce(data.callId, data.name, data.receipt));
      reply.renderProposals();
    }
  } else if (event === 'proposal') {
    reply.messageId = data.messageId ?? reply.messageId;
    reply.proposals.push({callId: data.callId, name: data.name, preview: data.preview});
    const call = reply.calls.find((c) => c.callId === data.callId);
    if (call) call.input = data.input;
    else reply.calls.push({callId: data.callId, name: data.name, input: data.input});
    reply.renderProposals();
  } else if (event === 'done') {
    reply.live = false;
    if (typeof data.text === 'string' && data.text) reply.text = data.text;
    if (data.status === 'stopped') reply.fail('Stopped.');
  } else if (event === 'error') {
    reply.fail(data.message ?? 'The turn failed.');
  }
}

// Reads an SSE body: "event: NAME\ndata: JSON\n\n" frames.
async function readFrames(res, fn) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const {value, done} = await reader.read();
    buffer += decoder.decode(value ?? new Uint8Array(), {stream: !done});
    buffer = buffer.replaceAll('\r\n', '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (!data.length) continue;
      try {
        fn(event, JSON.parse(data.join('\n')));
      } catch (e) {
        console.warn('ensemble: a frame was not understood', event, e);
      }
    }
    if (done) return;
  }
}

// A chat is named by its first message, so Recent chats tell them apart.
// Our choice, to fit the list: well under the core's maxConversationTitleChars.
const kTitleChars = 60;
const titleFrom = (text) => {
  const line = (text ?? '').replace(/\s+/g, ' ').trim();
  return line.length > kTitleChars ? `${line.slice(0, kTitleChars - 1)}…` : line;
};

async function ensureConversation(fresh = false, firstText = '') {
  if (conversationId && !fresh) return conversationId;
  const body = {spaceId: state.space};
  if (titleFrom(firstText)) body.title = titleFrom(firstText);
  conversationId = (await api('POST', '/api/assistant/conversations', body)).id;
  localStorage.setItem(storageKey(), conversationId);
  refreshChats();
  return conversationId;
}

function scrollDown() {
  el.log.scrollTop = el.log.scrollHeight;
}

async function send(text, mentions) {
  const userLi = h('li', {class: 'msg user', dataset: {testid: 'user-message'}}, text);
  el.log.append(userLi);
  const reply = new Reply();
  reply.spaceId = state.space;
  reply.live = true;
  live = reply;
  el.log.append(reply.li);
  reply.renderTools();
  const ticker = setInterval(() => reply.live && !reply.text && reply.renderTools(), 1000);
  scrollDown();
  el.send.disabled = true;
  el.stop.hidden = false;
  const body = {text, mentions, surface: surface()};
  try {
    if (state.sync?.online === false) {
      await sendLocally(reply, text, mentions);
    } else {
      let res;
      try {
        res = await sendRequest('POST',
                         `/api/assistant/conversations/${await ensureConversation(false, text)}/messages`,
                         body);
      } catch (e) {
        if (e.status !== 404) throw e;
        // The conversation is gone (deleted elsewhere): start a new one.
        res = await sendRequest('POST',
                         `/api/assistant/conversations/${await ensureConversation(true, text)}/messages`,
                         body);
      }
      await readFrames(res, (event, data) => {
        onFrame(reply, event, data);
        scrollDown();
      });
      refreshKept();
    }
  } catch (e) {
    if (e.code === kOffline) {
      await sendLocally(reply, text, mentions).catch((local) => reply.fail(local.message));
    } else if (e.code === 'ASSISTANT_PAUSED') {
      // Nothing was sent: the text goes back in the box for after Resume.
      reply.fail('The assistant is paused. Resume it in the top bar, then send this again.');
      if (!el.input.value) el.input.value = text;
    } else {
      reply.fail(sayError(e));
    }
  } finally {
    clearInterval(ticker);
    reply.live = false;
    reply.renderText();
    reply.renderTools();
    live = null;
    el.send.disabled = false;
    el.stop.hidden = true;
    scrollDown();
  }
}

// The open view, as hub_read_surface reads it (core/context/surface_tool_run.h):
// the app path playbooks route on (playbooks/*.md `paths`), the open board,
// and the tasks the view shows, at most the core's maxSurfaceIds of them (the
// server refuses more; none without the limits).
const kRecordId = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

function surface() {
  const view = location.hash.split('/')[1] || 'tasks';
  const out = {path: {boards: '/board', pages: '/pages'}[view] ?? `/${view}`};
  const board = document.querySelector('[data-testid="board"][data-id]');
  if (view === 'boards' && board && kRecordId.test(board.dataset.id)) {
    out.kind = 'board';
    out.boardId = board.dataset.id;
  }
  const shown = new Set();
  for (const e of document.querySelectorAll(
    '[data-testid="task-row"][data-id], [data-testid="board-card"][data-task-id]')) {
    const id = e.dataset.testid === 'task-row' ? e.dataset.id : e.dataset.taskId;
    if (e.offsetParent !== null && kRecordId.test(id)) shown.add(id);
  }
  const maxIds = state.limits?.maxSurfaceIds ?? 0;
  if (shown.size && maxIds) out.shownIds = [...shown].slice(0, maxIds);
  return out;
}

// ---- History. ----

function ranAtOnce(callId, name, receipt) {
  return {callId, name, preview: receipt.summary, summary: receipt.summary, outcome: 'succeeded',
          undoable: true, atOnce: true};
}

function replyFromMessage(m) {
  const calls = (m.toolCalls ?? []).map((c) => ({callId: c.id, name: c.name, input: c.input,
                                                  receipt: c.receipt}));
  const proposals = (m.toolCalls ?? []).filter((c) => c.proposal)
    .map((c) => ({callId: c.id, name: c.name, preview: c.preview,
                  outcome: c.receipt?.state === 'proposed' ? null : c.receipt?.state}));
  for (const c of m.toolCalls ?? []) {
    if (!c.proposal && c.receipt?.undoable) proposals.push(ranAtOnce(c.id, c.name, c.receipt));
  }
  // The saved proposal says how each call stands now (applied, undone,
  // failed): the turn's own receipts only say how it left them.
  for (const r of m.proposal?.receipts ?? []) {
    const p = proposals.find((x) => x.callId === r.callId);
    if (!p || r.outcome === 'pending') continue;
    Object.assign(p, {outcome: r.outcome, undoable: r.undoable, undone: r.undone, error: r.error});
    if (r.summary) p.summary = r.summary;
  }
  const reply = new Reply({messageId: m.id, text: m.text ?? '', calls, proposals});
  if (m.proposal?.state === 'discarded') reply.takeProposal(m.proposal);
  return reply;
}

function showMessage(m) {
  if (m.role === 'user') {
    el.log.append(h('li', {class: 'msg user', dataset: {testid: 'user-message'}}, m.text));
    return;
  }
  const reply = replyFromMessage(m);
  el.log.append(reply.li);
  reply.renderText();
  reply.renderTools();
  reply.renderProposals();
}

// An exchange answered offline that the server does not have yet.
function showQueued(x) {
  const toolCalls = x.calls.map((c) => ({
    id: c.id, name: c.name,
    receipt: c.state === 'failed' ? {state: 'failed', error: {message: c.summary}}
                                  : {state: c.state === 'held' ? 'proposed' : 'succeeded',
                                     summary: c.summary},
  }));
  showMessage({role: 'user', text: x.message});
  showMessage({role: 'assistant', id: `offline-${x.id}`, text: x.reply, toolCalls});
}

// Sends what was answered offline to the conversation, when the server is there.
function uploadOffline() {
  if (state.sync?.online === false || live || !queuedExchanges(state.space).length) return;
  uploadExchanges(state.space, ensureConversation).then(refreshKept, (e) => {
    console.warn('ensemble: the offline exchanges wait for the next try', e);
  });
}

let loads = 0;  // The latest loadHistory wins.

async function loadHistory() {
  const token = ++loads;
  const space = state.space;
  loadedFor = space;
  conversationId = localStorage.getItem(storageKey());
  el.log.replaceChildren();
  if (conversationId) {
    const id = conversationId;
    let messages = null;
    try {
      messages = await fetchHistory(id);
    } catch (e) {
      if (e.status === 404) {
        forgetHistory(id);
        if (conversationId === id) conversationId = null;
        localStorage.removeItem(storageKey());
      } else {
        // Out of reach: what this device kept of it.
        messages = keptHistory(id);
      }
    }
    if (token !== loads) return;  // Another chat or space opened meanwhile.
    el.log.replaceChildren();
    for (const m of messages ?? []) showMessage(m);
  }
  for (const x of queuedExchanges(space)) showQueued(x);
  scrollDown();
  uploadOffline();
}

async function mentionsToSend(text) {
  const mentions = menu.current();
  if (!mentions.length) return [];
  try {
    const out = await rpc('resolveMentions', {input: {text, mentions}});
    return out.mentions;
  } catch {
    return mentions;
  }
}

function startOver() {
  ++loads;
  localStorage.removeItem(storageKey());
  conversationId = null;
  loadedFor = state.space;
  el.log.replaceChildren();
  for (const x of queuedExchanges(state.space)) showQueued(x);
}

export function init(c) {
  ctx = c;
  // The saved settings, for the turns this device answers offline.
  api('GET', '/api/settings').then(rememberAssistantSettings).catch(() => {});
  menu = new MentionMenu({input: el.input, menu: byTestId('mention-menu'),
                          chips: byTestId('mention-chips')});
  el.form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = el.input.value.trim();
    if (!text || live) return;
    showError('');
    const mentions = await mentionsToSend(text);
    el.input.value = '';
    menu.clear();
    await send(text, mentions);
    el.input.focus();
  });
  el.input.addEventListener('keydown', (e) => {
    if (menu.handleKey(e)) return;
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      el.form.requestSubmit();
    }
  });
  // A proposal applied, undone or dismissed on Needs me: its card here says so.
  document.addEventListener('ensemble:proposal', (e) => {
    const {conversationId: chat, messageId, proposal} = e.detail;
    if (chat !== conversationId) return;
    for (const li of el.log.children) {
      const reply = replyOf.get(li);
      if (reply?.messageId === messageId) reply.takeProposal(proposal);
    }
  });
  el.stop.addEventListener('click', () => {
    if (live?.turnId) api('POST', `/api/assistant/turns/${live.turnId}/stop`, {}).catch(() => {});
  });
  el.newChat.addEventListener('click', () => {
    startOver();
    el.input.focus();
  });
  initChats({
    currentId: () => conversationId,
    open: (id) => {
      if (live) return;
      localStorage.setItem(storageKey(), id);
      loadHistory();
      el.input.focus();
    },
    deleted: (id) => {
      forgetHistory(id);
      // The open chat starts over when it is the one deleted (spec 000 §3).
      if (id === conversationId && !live) startOver();
    },
  });
  // Record links open the record in its view.
  el.log.addEventListener('click', (e) => {
    const link = e.target.closest('a.record-link');
    if (!link) return;
    e.preventDefault();
    ctx.openRecord(link.dataset.kind, link.dataset.id);
  });
  subscribe((what) => {
    if (what === 'space' && loadedFor !== state.space && !live) {
      loadHistory();
      refreshChats();
    }
    if (what === 'sync' && state.sync?.online) uploadOffline();
  });
  loadHistory();
}
