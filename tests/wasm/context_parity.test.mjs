// The wasm half of the retrieval parity (spec 004 §5): the generated corpus,
// in the wasm build's own SQLite, answers its queries, its tasks' context
// graphs and their work packets exactly as
// tests/vectors/context/corpus_parity.json says, which the native build
// holds SQLite and PostgreSQL to (tests/server/store/context_parity_test.cc).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';

import {loadTestCore, ok, repoRoot} from '../../tools/lib/core_loader.mjs';

const vectors = JSON.parse(fs.readFileSync(
    path.join(repoRoot, 'tests', 'vectors', 'context', 'corpus_parity.json'), 'utf8'));

test('the corpus answers in wasm as on both stores', async () => {
  const core = await loadTestCore();
  const {records, queries, tasks, nowMs, answers} = vectors;
  // The vectors hold every query and task (an emptied file would pass).
  assert.equal(answers.search.length, queries);
  assert.equal(answers.items.length, tasks + 6);  // And three projects and people.
  const got = ok(core, 'corpusAnswers', records, queries, tasks, nowMs);
  assert.equal(got.search.length, answers.search.length);
  for (let i = 0; i < answers.search.length; i++) {
    assert.deepEqual(got.search[i], answers.search[i], `query ${i}: ${answers.search[i].q}`);
  }
  assert.equal(got.items.length, answers.items.length);
  for (let i = 0; i < answers.items.length; i++) {
    assert.deepEqual(got.items[i], answers.items[i], `task ${answers.items[i].id}`);
  }
});
