// What the dock's built-in planner answered while the server was out of
// reach, kept on this device per space until the server has it (POST
// /api/assistant/conversations/:id/exchanges, core/assistant/offline_exchanges.h),
// so the conversation keeps the exchange and the model later sees it. The
// exchange's id makes the upload safe to repeat: a retry saves nothing twice.
// Each chat's last history is kept here too, so the dock shows it offline.

import {api} from '../api.js';
import {rpc} from '../rpc.js';
import {state} from '../state.js';
import {oneAtATime} from '../util.js';

// Per upload: our choice, to keep each request's body small; the core takes
// at most limits.maxOfflineExchanges (core/assistant/offline_exchanges.h).
const kBatch = 10;
// A device that stays offline keeps at most this many (the oldest go first).
// Our choice, not the core's: it bounds this device's localStorage, and the
// server never sees the queue, only batches of it.
const kMaxQueued = 200;

const keyFor = (spaceId) => `ensemble-offline-exchanges:${spaceId}`;

export function queuedExchanges(spaceId) {
  try {
    const list = JSON.parse(localStorage.getItem(keyFor(spaceId)));
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function keep(spaceId, list) {
  if (list.length) {
    localStorage.setItem(keyFor(spaceId), JSON.stringify(list.slice(-kMaxQueued)));
  } else {
    localStorage.removeItem(keyFor(spaceId));
  }
}

// Keeps a local turn (the worker's localTurn answer) for upload, cut to what
// the server takes (the core's limits: a JS length counts UTF-16 units,
// never fewer than the characters the core counts).
export async function queueExchange(spaceId, message, turn) {
  const {id} = await rpc('newId');
  const limits = state.limits ?? await rpc('limits');
  const calls = turn.calls.slice(0, limits.maxOfflineExchangeCalls).map((c) => ({
    id: c.id, name: c.name, state: c.state,
    summary: String((c.state === 'succeeded' ? c.result?.summary : c.text) ?? '')
      .slice(0, limits.maxOfflineCallTextChars),
  }));
  keep(spaceId, [...queuedExchanges(spaceId), {
    id, message: message.slice(0, limits.maxMessageChars),
    reply: turn.reply.slice(0, limits.maxMessageChars), at: Date.now(), calls,
  }]);
}

// Sends the space's queued exchanges to its conversation (`conversation()`
// gives its id, starting one if need be; `conversation(true)` a new one when
// the old is gone) and drops each batch the server took, or refused as
// malformed (400). Throws anything else; what was not sent stays queued.
export const uploadExchanges = oneAtATime(async (spaceId, conversation) => {
  let fresh = false;
  let renewed = false;
  for (let list = queuedExchanges(spaceId); list.length; list = queuedExchanges(spaceId)) {
    const batch = list.slice(0, Math.min(kBatch, state.limits?.maxOfflineExchanges ?? kBatch));
    try {
      const id = await conversation(fresh);
      fresh = false;
      await api('POST', `/api/assistant/conversations/${id}/exchanges`, {exchanges: batch});
    } catch (e) {
      if (e.status === 404 && !renewed) {
        // The conversation was deleted elsewhere: start another, once.
        fresh = renewed = true;
        continue;
      }
      // Refused as it stands, it never will be taken: drop it rather than
      // retry it forever (its writes synced on their own).
      if (e.status !== 400) throw e;
      console.warn('ensemble: the server refused offline exchanges', e.message);
    }
    const sent = new Set(batch.map((x) => x.id));
    keep(spaceId, queuedExchanges(spaceId).filter((x) => !sent.has(x.id)));
  }
});

// ---- The last history of each chat, for the dock offline. ----
// localStorage, as the exchanges are: the worker's replica holds synced
// records, and a chat is the person's own, not a synced kind.
const kKeptMessages = 40;
const historyKey = (id) => `ensemble-chat-history:${id}`;

export function keptHistory(id) {
  try {
    const list = JSON.parse(localStorage.getItem(historyKey(id)));
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

export function keepHistory(id, messages) {
  try {
    localStorage.setItem(historyKey(id), JSON.stringify(messages.slice(-kKeptMessages)));
  } catch {
    // Storage full: the dock still shows the chat online.
  }
}

export function forgetHistory(id) {
  localStorage.removeItem(historyKey(id));
}
