// The wasm half of the formatEntityText table (spec §4.1): every row of
// tests/vectors/refs/format_entity_text.json run through the wasm build must
// give exactly the text the native test expects (and, for streaming rows,
// hold back the same number of bytes).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';

import {call, loadCore, ok, repoRoot} from '../../tools/lib/core_loader.mjs';

const table = JSON.parse(fs.readFileSync(
    path.join(repoRoot, 'tests', 'vectors', 'refs', 'format_entity_text.json'), 'utf8'));
const core = await loadCore();

describe('formatEntityText vectors', () => {
  test('has rows', () => assert.ok(table.rows.length >= 30));
  for (const row of table.rows) {
    test(row.name, () => {
      const refs = JSON.stringify(table.refSets[row.refs]);
      const options = JSON.stringify(row.options);
      if ('hold' in row) {
        const out = ok(core, 'formatStreamingText', row.input, refs, options);
        assert.equal(out.text, row.expect);
        assert.equal(out.hold, row.hold);
      } else {
        assert.equal(ok(core, 'formatEntityText', row.input, refs, options).text, row.expect);
      }
    });
  }
});

test('bad refs and options are refused with a stable code', () => {
  const bad = call(core, 'formatEntityText', 'x', '[{"kind":"task"}]', '{}');
  assert.equal(bad.ok, false);
  assert.equal(bad.code, 'INVALID_ARGUMENT');
  assert.match(bad.message, /refs\[0\]/);
  assert.equal(call(core, 'formatEntityText', 'x', 'not json', '{}').code, 'MALFORMED_JSON');
  assert.equal(call(core, 'formatEntityText', 'x', '[]', '{"bold":true}').code, 'INVALID_ARGUMENT');
  assert.equal(call(core, 'formatEntityText', 42, '[]', '{}').code, 'INVALID_ARGUMENT');
});
