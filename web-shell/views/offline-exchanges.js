// What the dock's built-in planner answered while the server was out of
// reach, kept on this device per space until the server has it (POST
// /api/assistant/conversations/:id/exchanges, core/assistant/offline_exchanges.h),
// so the conversation keeps the exchange and the model later sees it. The
// exchange's id makes the upload safe to repeat: a retry saves nothing twice.

import {rpc} from '../rpc.js';

// Per upload: well under the server's 50 and its body limit.
const kBatch = 10;
// A device that stays offline keeps at most this many (the oldest go first).
const kMaxQueued = 200;
// The server keeps a call's summary to this many characters.
const kMaxSummaryChars = 2000;

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

// Keeps a local turn (the worker's localTurn answer) for upload.
export async function queueExchange(spaceId, message, turn) {
  const {id} = await rpc('newId');
  const calls = turn.calls.map((c) => ({
    id: c.id, name: c.name, state: c.state,
    summary: String((c.state === 'succeeded' ? c.result?.summary : c.text) ?? '')
      .slice(0, kMaxSummaryChars),
  }));
  keep(spaceId, [...queuedExchanges(spaceId), {id, message, reply: turn.reply, at: Date.now(), calls}]);
}

let uploading = null;

// Sends the space's queued exchanges to its conversation (`conversation()`
// gives its id, starting one if need be; `conversation(true)` a new one when
// the old is gone) and drops each batch the server took. Throws what the
// server said; what was not sent stays queued.
export function uploadExchanges(spaceId, conversation, api) {
  if (uploading) return uploading;
  uploading = (async () => {
    try {
      let fresh = false;
      for (let list = queuedExchanges(spaceId); list.length; list = queuedExchanges(spaceId)) {
        const batch = list.slice(0, kBatch);
        try {
          await api(`/api/assistant/conversations/${await conversation(fresh)}/exchanges`,
                    {method: 'POST', body: {exchanges: batch}});
        } catch (e) {
          if (e.status !== 404 || fresh) throw e;
          fresh = true;  // The conversation was deleted elsewhere: start another.
          continue;
        }
        const sent = new Set(batch.map((x) => x.id));
        keep(spaceId, queuedExchanges(spaceId).filter((x) => !sent.has(x.id)));
      }
    } finally {
      uploading = null;
    }
  })();
  return uploading;
}
