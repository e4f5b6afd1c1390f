// The module the app ships (ensemble_core, served from build/wasm/wasm/)
// holds exactly the bindings the app calls; the ones only tests and
// benchmarks call are in the test build (ensemble_core_test, never served).
// A binding the app starts calling must move to ensemble_wasm_app_bindings
// in wasm/CMakeLists.txt, and one it stops calling must move out; this test
// fails until it does.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';

import {loadCore, loadTestCore, repoRoot} from '../../tools/lib/core_loader.mjs';

const shipped = await loadCore();
const testBuild = await loadTestCore();

function filesUnder(dir, pattern) {
  return fs.readdirSync(dir, {recursive: true})
    .filter((name) => pattern.test(name))
    .map((name) => path.join(dir, name));
}

// Every binding the sources define: Embind functions, and the functions the
// bindings' pre-js files add (routeMessage). The OPFS pool's JS
// (wasm/js/pool_pre.js) is the VFS's own half, in both modules.
const bindingsDir = path.join(repoRoot, 'wasm', 'bindings');
const bindings = new Set();
for (const file of filesUnder(bindingsDir, /\.cc$/)) {
  for (const m of fs.readFileSync(file, 'utf8').matchAll(/emscripten::function\("(\w+)"/g)) {
    bindings.add(m[1]);
  }
}
for (const file of filesUnder(bindingsDir, /_pre\.js$/)) {
  for (const m of fs.readFileSync(file, 'utf8').matchAll(/Module\['(\w+)'\]\s*=/g)) bindings.add(m[1]);
}

// What the app calls: `core.name` anywhere in web-shell/, or a name quoted in
// the worker's files (call('open', ...)), which are the only ones holding the
// module.
const webShell = path.join(repoRoot, 'web-shell');
const appSources = filesUnder(webShell, /\.js$/).map((f) => fs.readFileSync(f, 'utf8'));
const workerSources = ['db-worker.js', 'sync.js'].map((f) => fs.readFileSync(path.join(webShell, f), 'utf8'));
const appCalls = (name) =>
  appSources.some((s) => new RegExp(`\\bcore\\??\\.${name}\\b`).test(s)) ||
  workerSources.some((s) => new RegExp(`['"]${name}['"]`).test(s));

test('the sources define the bindings this test reads', () => {
  // A guard on the scan itself: it must find the app's and the tests' own.
  for (const name of ['open', 'mutate', 'limits', 'runMutationVector', 'routeMessage']) {
    assert.ok(bindings.has(name), name);
  }
});

test('the shipped module has every binding the app calls', () => {
  const missing = [...bindings].filter((name) => appCalls(name) && typeof shipped[name] !== 'function');
  assert.deepEqual(missing, [], 'the app calls these: add their files to ensemble_wasm_app_bindings');
});

test('the shipped module has no binding the app never calls', () => {
  const extra = [...bindings].filter((name) => !appCalls(name) && typeof shipped[name] === 'function');
  assert.deepEqual(extra, [], 'only tests call these: move them to ensemble_wasm_test_bindings');
  // Named too, in case the scan above ever finds nothing.
  for (const name of ['runMutationVector', 'planLocally', 'routeMessage', 'calendarExpand',
                      'transcriptPreview', 'validateToolCall', 'refsFromResult', 'summarizeRecords']) {
    assert.equal(shipped[name], undefined, name);
  }
});

test('the test build has every binding', () => {
  const missing = [...bindings].filter((name) => typeof testBuild[name] !== 'function');
  assert.deepEqual(missing, []);
});
