// The sync loop: keeps the browser's replica and the server in step.
//
// When the server is reachable it pushes the outbox (POST /api/sync/push),
// records the server's verdicts, then pulls (GET /api/sync/pull) page after
// page while the server says "more"; a pull is what confirms pushed
// mutations and empties the outbox. Reachability is polled through
// GET /healthz every couple of seconds, checked again on the browser's
// `online` event, and tested by every sync attempt; `kick()` (after each
// local mutation) syncs at once.
//
// It runs in the db worker next to the wasm core and knows the core only as
// `core`, an object with the bindings' methods (JSON strings in and out), and
// the network only as `fetchImpl`, so the Node tests can drive it with fakes.
// Not re-entrant by design: one cycle runs at a time; kicks during a cycle
// schedule exactly one more.

export const kHealthIntervalMs = 2000;
const kHealthTimeoutMs = 3000;
const kSyncTimeoutMs = 15000;
// Push/pull rounds per cycle: each round confirms up to one push batch
// (500 mutations), so a long offline session drains in one cycle.
const kMaxRoundsPerCycle = 50;
// Pull pages per round; a page holds up to 1,000 rows.
const kMaxPullPages = 1000;

// The network or the server could not answer: not the data's fault, retry later.
class Unreachable extends Error {}

// The server answered that the request itself is wrong: retrying the same
// request will not help, so the person needs to see it.
export class SyncRefused extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function parse(text, what) {
  const out = JSON.parse(text);
  if (!out.ok) throw new SyncRefused(out.code, `${what}: ${out.message}`);
  return out;
}

export class SyncLoop {
  // core: the wasm bindings. onState({online, syncing, pending, error,
  // lastSyncAt}) reports every change; onChanged() says rows may have
  // changed (after a pull).
  constructor({core, fetchImpl = globalThis.fetch.bind(globalThis), baseUrl = '', onState = () => {},
               onChanged = () => {}, healthIntervalMs = kHealthIntervalMs, events = globalThis}) {
    this.core = core;
    this.fetch = fetchImpl;
    this.baseUrl = baseUrl;
    this.onState = onState;
    this.onChanged = onChanged;
    this.healthIntervalMs = healthIntervalMs;
    this.events = events;
    this.state = {online: false, syncing: false, pending: 0, error: null, lastSyncAt: null};
    this.running = null;  // The current cycle's promise.
    this.again = false;
    this.timer = null;
    this.stopped = true;
    this.onOnline = () => this.kick();
    this.onOffline = () => this.#set({online: false});
  }

  start() {
    this.stopped = false;
    this.events.addEventListener?.('online', this.onOnline);
    this.events.addEventListener?.('offline', this.onOffline);
    this.#set({pending: this.#pendingCount()});
    this.#tick();
  }

  stop() {
    this.stopped = true;
    this.again = false;
    clearTimeout(this.timer);
    this.events.removeEventListener?.('online', this.onOnline);
    this.events.removeEventListener?.('offline', this.onOffline);
  }

  // Syncs as soon as possible; resolves when a cycle that started after this
  // call has finished.
  kick() {
    this.#set({pending: this.#pendingCount()});
    if (this.running) {
      this.again = true;  // The running cycle goes round once more.
      return this.running;
    }
    return this.#cycle();
  }

  #set(patch) {
    const next = {...this.state, ...patch};
    const changed = Object.keys(next).some((k) => next[k] !== this.state[k]);
    this.state = next;
    if (changed) this.onState({...next});
  }

  #pendingCount() {
    try {
      const r = JSON.parse(this.core.pendingCount());
      return r.ok ? r.count : this.state.pending;
    } catch {
      return this.state.pending;
    }
  }

  #tick() {
    clearTimeout(this.timer);
    if (this.stopped) return;
    const next = () => {
      if (!this.stopped) this.timer = setTimeout(() => this.#tick(), this.healthIntervalMs);
    };
    // Every tick checks the server is there, then syncs: with no server-sent
    // events yet, the pull is also how other devices' changes arrive.
    this.#cycle().then(next, next);
  }

  async #cycle() {
    if (this.running) return this.running;
    this.running = (async () => {
      do {
        this.again = false;
        await this.#syncOnce();
      } while (this.again);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async #syncOnce() {
    if (!(await this.#healthy())) {
      this.#set({online: false, syncing: false});
      return;
    }
    this.#set({online: true, syncing: true});
    try {
      for (let round = 0; round < kMaxRoundsPerCycle; round++) {
        const pushed = await this.#push();
        await this.#pull();
        const pending = this.#pendingCount();
        this.#set({pending});
        // Stop when nothing is left, or when a push confirmed nothing (the
        // server refused a gap; pushing the same batch again would loop).
        if (pending === 0 || pushed === 0) break;
      }
      this.#set({syncing: false, error: null, lastSyncAt: Date.now()});
    } catch (e) {
      if (e instanceof Unreachable) {
        this.#set({online: false, syncing: false});
      } else {
        const error = e instanceof SyncRefused ? {code: e.code, message: e.message}
                                               : {code: 'INTERNAL', message: String(e?.message ?? e)};
        this.#set({syncing: false, error});
      }
    }
  }

  async #healthy() {
    try {
      const res = await this.fetch(`${this.baseUrl}/healthz`, {
        cache: 'no-store', signal: AbortSignal.timeout(kHealthTimeoutMs),
      });
      return res.ok;
    } catch {
      return false;
    }
  }

  async #request(path, init) {
    let res;
    try {
      res = await this.fetch(`${this.baseUrl}${path}`, {
        cache: 'no-store', signal: AbortSignal.timeout(kSyncTimeoutMs), ...init,
      });
    } catch {
      throw new Unreachable(`${path}: no answer`);
    }
    const text = await res.text().catch(() => '');
    if (res.ok) return text;
    // 502-504: a proxy without its server, or the server without its store;
    // keep everything queued and try again on the next tick.
    if (res.status >= 502 && res.status <= 504) throw new Unreachable(`${path}: HTTP ${res.status}`);
    // Anything else (400: a request the server will never take; 500: one it
    // fails on) is shown; the next tick tries again.
    let error = {code: `HTTP_${res.status}`, message: text.slice(0, 200)};
    try {
      error = JSON.parse(text).error ?? error;
    } catch {
      // Not JSON: keep the raw text.
    }
    const verb = res.status >= 500 ? 'failed on' : 'refused';
    throw new SyncRefused(error.code, `the server ${verb} ${path}: ${error.message}`);
  }

  // Pushes the oldest batch of the outbox; returns how many it sent.
  async #push() {
    const {request, count} = parse(this.core.pushRequest(), 'pushRequest');
    if (count === 0) return 0;
    const text = await this.#request('/api/sync/push', {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify(request),
    });
    parse(this.core.applyPushResponse(text), 'applyPushResponse');
    const results = JSON.parse(text).results ?? [];
    if (results.some((r) => r.status === 'rejected')) this.onChanged();
    const refused = results.find((r) => r.status === 'refused');
    if (refused) throw new SyncRefused(refused.code, refused.message ?? 'the server refused a mutation');
    return count;
  }

  async #pull() {
    for (let page = 0; page < kMaxPullPages; page++) {
      const {request} = parse(this.core.pullRequest(), 'pullRequest');
      const query = new URLSearchParams({clientId: request.clientId, cursor: String(request.cursor)});
      const text = await this.#request(`/api/sync/pull?${query}`, {method: 'GET'});
      const applied = parse(this.core.applyPull(text), 'applyPull');
      const body = JSON.parse(text);
      if (body.changes?.length || applied.cursor !== request.cursor) this.onChanged();
      if (!applied.more) return;
    }
  }
}
