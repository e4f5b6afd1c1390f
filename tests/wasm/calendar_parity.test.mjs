// The wasm half of the calendar parity test: every case of
// tests/vectors/calendar/ics_vectors.json run through calendarExpand /
// calendarMerge must give exactly the "expect" that the native core recorded
// (tests/core/calendar/ics_vectors_test.cc checks the native side). Compared
// as canonical JSON text, so the two builds agree byte for byte, time-zone
// rules included.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';

import {call, canonicalJson, loadTestCore, repoRoot} from '../../tools/lib/core_loader.mjs';

const vectorFile = path.join(repoRoot, 'tests', 'vectors', 'calendar', 'ics_vectors.json');
const {cases} = JSON.parse(fs.readFileSync(vectorFile, 'utf8'));
// The test build: this suite calls bindings the app does not.
const core = await loadTestCore();

function filesOf(c) {
  const files = c.files.map((p) => ({
    name: path.basename(p),
    text: fs.readFileSync(path.join(repoRoot, p), 'utf8'),
  }));
  return files.concat(c.inline ?? []);
}

describe('calendar vectors', () => {
  test('has cases', () => assert.ok(Array.isArray(cases) && cases.length > 0));
  for (const c of cases) {
    test(c.name, () => {
      const method = c.op === 'merge' ? 'calendarMerge' : 'calendarExpand';
      const out = call(core, method, JSON.stringify(filesOf(c)), c.from, c.to);
      // The native runner records {ok:false, code} for failures; messages may differ.
      const got = out.ok ? out : {ok: false, code: out.code};
      assert.equal(canonicalJson(got), canonicalJson(c.expect));
    });
  }
});

describe('calendar bindings', () => {
  test('bad arguments are errors, not exceptions', () => {
    assert.equal(call(core, 'calendarExpand', 'not json', '2026-01-01', '2026-02-01').code,
                 'MALFORMED_JSON');
    assert.equal(call(core, 'calendarExpand', '[{"name": 1}]', '2026-01-01', '2026-02-01').code,
                 'INVALID_ARGUMENT');
    assert.equal(call(core, 'calendarExpand', '[]', 'yesterday', '2026-02-01').code,
                 'INVALID_ARGUMENT');
    assert.equal(call(core, 'calendarExpand', '[]', '2026-02-01', '2026-01-01').code,
                 'INVALID_ARGUMENT');
    assert.equal(call(core, 'calendarMerge', '[]', 42, '2026-01-01').code, 'INVALID_ARGUMENT');
  });

  test('an empty list expands to no events', () => {
    const out = call(core, 'calendarExpand', '[]', '2026-01-01', '2026-02-01');
    assert.equal(out.ok, true);
    assert.deepEqual(out.events, []);
  });
});
