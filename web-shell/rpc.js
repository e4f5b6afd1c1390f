// The page's side of the db worker (db-worker.js): a promise per call, and
// the worker's events ('db', 'sync', 'changed') handed to whoever listens.

const worker = new Worker('/db-worker.js', {type: 'module', name: 'ensemble-db'});
const calls = new Map();
const listeners = new Map();
let nextCallId = 1;

// Resolves with {result, workerMs}: workerMs is the time the call took in
// the worker, without the message hops (benchmarks read it).
export function rpcTimed(method, params) {
  const id = nextCallId++;
  return new Promise((resolve, reject) => {
    calls.set(id, {resolve, reject});
    worker.postMessage({id, method, params});
  });
}

export function rpc(method, params) {
  return rpcTimed(method, params).then(({result}) => result);
}

// fn(message) for every worker event of `type`.
export function onWorker(type, fn) {
  if (!listeners.has(type)) listeners.set(type, []);
  listeners.get(type).push(fn);
}

const fire = (type, msg) => {
  for (const fn of listeners.get(type) ?? []) fn(msg);
};

worker.addEventListener('message', (event) => {
  const msg = event.data;
  if (msg.id !== undefined) {
    const pending = calls.get(msg.id);
    calls.delete(msg.id);
    if (!pending) return;
    if (msg.ok) {
      pending.resolve({result: msg.result, workerMs: msg.workerMs});
    } else {
      pending.reject(Object.assign(new Error(msg.message), {code: msg.code}));
    }
    return;
  }
  fire(msg.type, msg);
});

worker.addEventListener('error', (event) => {
  fire('db', {type: 'db', state: 'failed',
              message: event.message || 'the database worker failed to start'});
});

// The browser's own connectivity signal: check at once rather than at the
// next poll.
export const poke = () => worker.postMessage({type: 'online'});
