// The wasm half of the parity test: every case of every file in
// tests/vectors/ run through the wasm core must give exactly the "expect"
// recorded in the file, which the native half (tests/core/sync/
// vector_runner_test.cc) checks against the native core. Compared as
// canonical JSON text (keys sorted), so the two builds agree byte for byte.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';

import {canonicalJson, loadTestCore, ok, repoRoot} from '../../tools/lib/core_loader.mjs';

const vectorDir = path.join(repoRoot, 'tests', 'vectors');
const files = fs.readdirSync(vectorDir).filter((f) => f.endsWith('.json')).sort();

test('there are vectors to run', () => {
  assert.ok(files.length > 0, `no *.json in ${vectorDir}`);
});

// The test build: this suite calls bindings the app does not.
const core = await loadTestCore();

for (const file of files) {
  const {cases} = JSON.parse(fs.readFileSync(path.join(vectorDir, file), 'utf8'));
  describe(file, () => {
    test('has cases', () => assert.ok(Array.isArray(cases) && cases.length > 0));
    for (const c of cases ?? []) {
      test(c.name, () => {
        // Only the mutations go in, as in the native runner.
        const {report} = ok(core, 'runMutationVector', JSON.stringify({mutations: c.mutations}));
        assert.equal(canonicalJson(report), canonicalJson(c.expect));
      });
    }
  });
}
