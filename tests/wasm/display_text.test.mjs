// The wasm half of the display-text tables (spec 000 §4): every row of
// tests/vectors/refs/summaries.json and readable_preview.json, run through
// summarizeRecords and readablePreview, must give exactly the text the
// native tests (tests/core/refs/summary_test.cc, readable_preview_test.cc)
// expect.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';

import {call, loadTestCore, ok, repoRoot} from '../../tools/lib/core_loader.mjs';

const load = (name) => JSON.parse(fs.readFileSync(
    path.join(repoRoot, 'tests', 'vectors', 'refs', name), 'utf8'));
const summaries = load('summaries.json');
const previews = load('readable_preview.json');
// The test build: this suite calls bindings the app does not.
const core = await loadTestCore();

describe('summarizeRecords vectors', () => {
  test('has rows', () => assert.ok(summaries.rows.length >= 20));
  for (const row of summaries.rows) {
    test(row.name, () => {
      const out = ok(core, 'summarizeRecords', row.verb, row.singular, row.plural,
                     JSON.stringify(row.items));
      assert.equal(out.text, row.expect);
    });
  }
});

describe('readablePreview vectors', () => {
  test('has rows', () => assert.ok(previews.rows.length >= 25));
  for (const row of previews.rows) {
    test(row.name, () => {
      // JSON.stringify keeps the vector's member order, which the preview
      // follows (the model's order).
      const out = ok(core, 'readablePreview', row.tool, JSON.stringify(row.input),
                     JSON.stringify(previews.refSets[row.refs]));
      assert.equal(out.text, row.expect);
    });
  }
});

test('bad arguments are refused with a stable code and change nothing', () => {
  assert.equal(call(core, 'summarizeRecords', 'Added', 'task', 'tasks', '{}').code,
               'INVALID_ARGUMENT');
  assert.equal(call(core, 'summarizeRecords', 'Added', 'task', 'tasks', 'nope').code,
               'MALFORMED_JSON');
  assert.equal(call(core, 'readablePreview', 'hub_update_task', '{', '[]').code, 'MALFORMED_JSON');
  assert.equal(call(core, 'readablePreview', 'hub_update_task', '{}', '[{"kind": "task"}]').code,
               'INVALID_ARGUMENT');
});
