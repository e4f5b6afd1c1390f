// The wasm half of the ranked search's vectors (spec 004 §5): every row of
// tests/vectors/context/search_rank.json, run through splitSearchQuery and
// rankSearch, must give exactly the words, order and scores the native test
// (tests/core/context/search_rank_test.cc) expects.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';

import {call, loadTestCore, ok, repoRoot} from '../../tools/lib/core_loader.mjs';

const vectors = JSON.parse(fs.readFileSync(
    path.join(repoRoot, 'tests', 'vectors', 'context', 'search_rank.json'), 'utf8'));
const core = await loadTestCore();

describe('splitSearchQuery vectors', () => {
  test('has rows', () => assert.ok(vectors.split.length >= 10));
  for (const row of vectors.split) {
    test(row.name, () => {
      const out = ok(core, 'splitSearchQuery', row.query);
      assert.deepEqual(out.words, row.words);
      assert.equal(out.phrase, row.phrase);
    });
  }
});

describe('rankSearch vectors', () => {
  test('has rows', () => assert.ok(vectors.rank.length >= 10));
  for (const row of vectors.rank) {
    test(row.name, () => {
      assert.deepEqual(ok(core, 'rankSearch', JSON.stringify(row)).results, row.expect);
    });
  }
});

test('bad cases are refused with a stable code', () => {
  assert.equal(call(core, 'rankSearch', '{').code, 'MALFORMED_JSON');
  assert.equal(call(core, 'rankSearch', '{"query": "x"}').code, 'INVALID_ARGUMENT');
  assert.equal(call(core, 'splitSearchQuery', 7).code, 'INVALID_ARGUMENT');
});
