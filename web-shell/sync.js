// The sync loop: keeps the browser's replica and the server in step.
//
// When the server is reachable it pushes the outbox (POST /api/sync/push),
// records the server's verdicts, then pulls (GET /api/sync/pull) page after
// page while the server says "more"; a pull is what confirms pushed
// mutations and empties the outbox. `kick()` (after each local mutation)
// syncs at once.
//
// Other devices' changes arrive as pokes: an EventSource on GET /api/events
// receives `poke` events ({"version": N}, the server's change counter) and
// each one that is news (N above the replica's cursor) starts a pull,
// coalesced with the running cycle. When the stream drops it is reopened
// with exponential backoff (1 s doubling to 30 s), and every (re)open syncs,
// which makes up for pokes missed meanwhile. A slow periodic cycle (15 s)
// stays as the safety net and is what notices a returning server first; it
// polls every 2 s instead where EventSource does not exist. Reachability is
// also checked on the browser's `online` event and by every sync attempt.
//
// It runs in the db worker next to the wasm core and knows the core only as
// `core`, an object with the bindings' methods (JSON strings in and out), and
// the network only as `fetchImpl`, so the Node tests can drive it with fakes.
// Not re-entrant by design: one cycle runs at a time; kicks during a cycle
// schedule exactly one more.

import {send} from './api.js';

// The periodic cycle without pokes (no EventSource), and with them.
export const kHealthIntervalMs = 2000;
export const kSafetyIntervalMs = 15000;
// Reopening a dropped event stream: the first wait, doubling up to the cap.
export const kEventsRetryFirstMs = 1000;
export const kEventsRetryMaxMs = 30000;
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
  // eventSourceImpl: the EventSource class (null: no pokes, poll instead).
  constructor({core, fetchImpl = globalThis.fetch.bind(globalThis), baseUrl = '', onState = () => {},
               onChanged = () => {}, eventSourceImpl = globalThis.EventSource ?? null,
               healthIntervalMs = eventSourceImpl ? kSafetyIntervalMs : kHealthIntervalMs,
               eventsRetryFirstMs = kEventsRetryFirstMs, eventsRetryMaxMs = kEventsRetryMaxMs,
               events = globalThis}) {
    this.core = core;
    this.fetch = fetchImpl;
    this.baseUrl = baseUrl;
    this.onState = onState;
    this.onChanged = onChanged;
    this.healthIntervalMs = healthIntervalMs;
    this.events = events;
    this.EventSource = eventSourceImpl;
    this.eventsRetryFirstMs = eventsRetryFirstMs;
    this.eventsRetryMaxMs = eventsRetryMaxMs;
    this.eventsRetryMs = eventsRetryFirstMs;  // The wait before the next reopen.
    this.eventSource = null;
    this.eventsTimer = null;
    this.pokedVersion = 0;  // The newest poke not yet known to be pulled.
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
    this.#openEvents();
  }

  stop() {
    this.stopped = true;
    this.again = false;
    clearTimeout(this.timer);
    clearTimeout(this.eventsTimer);
    this.eventSource?.close();
    this.eventSource = null;
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

  #openEvents() {
    if (this.stopped || !this.EventSource || this.eventSource) return;
    let source;
    try {
      source = new this.EventSource(`${this.baseUrl}/api/events`);
    } catch {
      this.#reopenEventsLater();
      return;
    }
    this.eventSource = source;
    source.addEventListener('open', () => {
      this.eventsRetryMs = this.eventsRetryFirstMs;
      this.kick();  // Pokes may have been missed while the stream was closed.
    });
    source.addEventListener('poke', (event) => {
      let version = Infinity;  // A poke we cannot read still means "pull".
      try {
        version = Number(JSON.parse(event.data).version) || Infinity;
      } catch {
        // Keep Infinity.
      }
      this.#onPoke(version);
    });
    source.addEventListener('error', () => {
      // The browser would retry on its own at a fixed pace (and not at all
      // after an HTTP error); close and reopen with backoff instead.
      source.close();
      if (this.eventSource !== source) return;
      this.eventSource = null;
      if (this.stopped) return;
      this.kick();  // Finds out at once whether the server itself is gone.
      this.#reopenEventsLater();
    });
  }

  #reopenEventsLater() {
    clearTimeout(this.eventsTimer);
    const wait = this.eventsRetryMs;
    this.eventsRetryMs = Math.min(wait * 2, this.eventsRetryMaxMs);
    this.eventsTimer = setTimeout(() => this.#openEvents(), wait);
  }

  #onPoke(version) {
    this.pokedVersion = Math.max(this.pokedVersion, version);
    // A running cycle checks for news when it ends.
    if (!this.running && this.#pokeIsNews()) this.#cycle();
  }

  // Whether a poke is newer than the replica's cursor (else its change is
  // already here, such as the poke for this client's own push).
  #pokeIsNews() {
    if (!this.pokedVersion) return false;
    let cursor = -1;
    try {
      const r = JSON.parse(this.core.pullRequest());
      if (r.ok) cursor = r.request.cursor;
    } catch {
      // Unknown cursor: pull.
    }
    const news = this.pokedVersion > cursor;
    this.pokedVersion = 0;
    return news;
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
    // Every tick checks the server is there, then syncs: the safety net for
    // pokes that never arrived, and the poll where there are none.
    this.#cycle().then(next, next);
  }

  async #cycle() {
    if (this.running) return this.running;
    this.running = (async () => {
      do {
        this.again = false;
        await this.#syncOnce();
      } while (this.again || this.#pokeIsNews());
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

  // One request (app's one client, api.js); answers the body's text.
  async #request(method, path, body) {
    let res;
    try {
      res = await send(method, `${this.baseUrl}${path}`, body, {
        fetchImpl: this.fetch, signal: AbortSignal.timeout(kSyncTimeoutMs),
      });
    } catch (e) {
      // No answer, or 502-504 (a proxy without its server, or the server
      // without its store): keep everything queued and try again next tick.
      if (e.status === 0 || (e.status >= 502 && e.status <= 504)) {
        throw new Unreachable(`${path}: ${e.message}`);
      }
      // Anything else (400: a request the server will never take; 500: one
      // it fails on) is shown; the next tick tries again.
      const verb = e.status >= 500 ? 'failed on' : 'refused';
      throw new SyncRefused(e.code, `the server ${verb} ${path}: ${e.message}`);
    }
    return res.text();
  }

  // Pushes the oldest batch of the outbox; returns how many it sent.
  async #push() {
    const {request, count} = parse(this.core.pushRequest(), 'pushRequest');
    if (count === 0) return 0;
    const text = await this.#request('POST', '/api/sync/push', request);
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
      const text = await this.#request('GET', `/api/sync/pull?${query}`);
      const applied = parse(this.core.applyPull(text), 'applyPull');
      const body = JSON.parse(text);
      if (body.changes?.length || applied.cursor !== request.cursor) this.onChanged();
      if (!applied.more) return;
    }
  }
}
