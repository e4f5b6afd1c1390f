// Loads the wasm core for the Node tests and benchmarks: loadCore() the
// module the app ships (build/wasm/wasm/ensemble_core.js), loadTestCore()
// the test build of it (build/wasm/wasm-test/ensemble_core_test.js: the same
// core with the bindings only tests call besides, wasm/CMakeLists.txt).
// Each call gives a fresh module instance (its own memory, no open
// database), so tests cannot leak state into each other. The .wasm bytes are
// read once and handed over as wasmBinary: this Emscripten would otherwise
// try fetch().

import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const wasmDir = process.env.ENSEMBLE_WASM_DIR ?? path.join(repoRoot, 'build', 'wasm', 'wasm');
// Next to the shipped module's folder, never inside it: the server serves
// that folder, and the test bindings are not the app's.
export const testWasmDir = path.join(wasmDir, '..', 'wasm-test');

const factories = new Map();  // module name -> {factory, wasmBinary}

async function load(dir, name) {
  if (!factories.has(name)) {
    const jsPath = path.join(dir, `${name}.js`);
    if (!fs.existsSync(jsPath)) {
      throw new Error(`${jsPath} is missing: build it with ` +
                      '`NODE_PATH=/usr/share/nodejs cmake --preset wasm && cmake --build --preset wasm`');
    }
    const wasmBinary = fs.readFileSync(path.join(dir, `${name}.wasm`));
    factories.set(name, {factory: (await import(jsPath)).default, wasmBinary});
  }
  const {factory, wasmBinary} = factories.get(name);
  return factory({wasmBinary});
}

// The module the app ships: what the worker can call, and nothing else.
export function loadCore() {
  return load(wasmDir, 'ensemble_core');
}

// The shipped bindings plus the test-only ones (parity runners, previews the
// app does not show yet): for tests of those.
export function loadTestCore() {
  return load(testWasmDir, 'ensemble_core_test');
}

// The bindings speak JSON strings; the tests read objects.
export function call(core, method, ...args) {
  const text = core[method](...args);
  if (typeof text !== 'string') throw new Error(`${method} returned ${typeof text}, not a string`);
  return JSON.parse(text);
}

// Like call(), but fails the test unless the answer is ok.
export function ok(core, method, ...args) {
  const out = call(core, method, ...args);
  if (out.ok !== true) {
    throw new Error(`${method} failed: ${out.code}: ${out.message}`);
  }
  return out;
}

// JSON with object keys sorted at every level: the wasm side serializes with
// nlohmann::json (sorted keys), a vector file may order keys any way.
export function canonicalJson(value) {
  return JSON.stringify(value, (key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
      : v);
}

// A stand-in for FileSystemSyncAccessHandle over a growable byte array, with
// hooks to fail writes (simulating a crash or a full disk).
export class MemoryAccessHandle {
  constructor(bytes = new Uint8Array(0)) {
    this.bytes = new Uint8Array(bytes);
    this.size = bytes.length;
    this.flushes = 0;
    this.writes = 0;
    this.closed = false;
    this.beforeWrite = null;  // (handle) => void; may throw.
  }

  read(view, {at}) {
    this.#checkOpen();
    const n = Math.max(0, Math.min(view.length, this.size - at));
    view.set(this.bytes.subarray(at, at + n));
    return n;
  }

  write(view, {at}) {
    this.#checkOpen();
    if (this.beforeWrite) this.beforeWrite(this);
    const end = at + view.length;
    if (end > this.bytes.length) {
      const grown = new Uint8Array(Math.max(end, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.size));
      this.bytes = grown;
    }
    if (at > this.size) this.bytes.fill(0, this.size, at);
    this.bytes.set(view, at);
    this.size = Math.max(this.size, end);
    this.writes++;
    return view.length;
  }

  truncate(size) {
    this.#checkOpen();
    if (size > this.size) {
      const grown = new Uint8Array(size);
      grown.set(this.bytes.subarray(0, this.size));
      this.bytes = grown;
    }
    this.size = size;
  }

  getSize() {
    this.#checkOpen();
    return this.size;
  }

  flush() {
    this.#checkOpen();
    this.flushes++;
  }

  close() {
    this.closed = true;
  }

  // The file's contents, as a new handle would see them after a reload.
  snapshot() {
    return this.bytes.slice(0, this.size);
  }

  #checkOpen() {
    if (this.closed) throw new DOMException('handle is closed', 'InvalidStateError');
  }
}
