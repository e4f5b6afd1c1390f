// The wasm half of the mentions table (spec §3 "Mentions"): every case of
// tests/vectors/refs/mentions.json run through resolveMentions must give
// exactly the JSON the native test (tests/core/refs/mentions_test.cc)
// expects, and refsFromResult must name a tool result's records as the
// native RefsFromResult does.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';

import {call, loadTestCore, ok, repoRoot} from '../../tools/lib/core_loader.mjs';

const table = JSON.parse(fs.readFileSync(
    path.join(repoRoot, 'tests', 'vectors', 'refs', 'mentions.json'), 'utf8'));
// The test build: this suite calls bindings the app does not.
const core = await loadTestCore();

describe('resolveMentions vectors', () => {
  test('has cases', () => assert.ok(table.cases.length >= 20));
  for (const row of table.cases) {
    test(row.name, () => {
      const input = {...row.input, directory: table.directory};
      const {ok: isOk, ...out} = ok(core, 'resolveMentions', JSON.stringify(input));
      assert.equal(isOk, true);
      assert.deepStrictEqual(out, row.expect);
    });
  }
});

test('bad mentions are refused with a stable code naming the entry', () => {
  const bad = call(core, 'resolveMentions',
                   JSON.stringify({text: 'x', mentions: [{kind: 'thing', id: 'x', label: 'y'}]}));
  assert.equal(bad.ok, false);
  assert.equal(bad.code, 'INVALID_ARGUMENT');
  assert.match(bad.message, /mentions\[0\]/);
  assert.equal(call(core, 'resolveMentions', 'not json').code, 'MALFORMED_JSON');
  assert.equal(call(core, 'resolveMentions', '{"text": 3}').code, 'INVALID_ARGUMENT');
  assert.equal(call(core, 'resolveMentions', 42).code, 'MALFORMED_JSON');
});

test('refsFromResult names records by row, key and tool name', () => {
  const a = '01JCTASK000000000000000001';
  const b = '01JCPERS000000000000000002';
  const result = {
    tasks: [{id: a, title: 'Draft brief', due: '2026-12-01', assignee: {id: b, name: 'Mira'}}],
    other: {id: 'not-an-id', title: 'Skipped'},
  };
  const out = ok(core, 'refsFromResult', 'hub_list_tasks', JSON.stringify(result));
  assert.deepStrictEqual(out.refs, [
    {kind: 'task', id: a, label: 'Draft brief', detail: '2026-12-01'},
    {kind: 'person', id: b, label: 'Mira'},
  ]);
  const rows = [];
  for (let i = 0; i < 80; ++i) rows.push({id: `01JCTASK${String(i + 1).padStart(18, '0')}`, title: `T${i}`});
  assert.equal(ok(core, 'refsFromResult', 'hub_list_tasks', JSON.stringify(rows)).refs.length, 50);
  assert.equal(call(core, 'refsFromResult', 7, '{}').code, 'INVALID_ARGUMENT');
  assert.equal(call(core, 'refsFromResult', 'hub_list_tasks', '{').code, 'MALFORMED_JSON');
});
