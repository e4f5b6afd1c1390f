// The wasm half of tool-call validation (spec 000 §9): every case of
// tests/vectors/tools/validate_tool_call.json run through validateToolCall
// must give exactly the code, message and error paths the native test expects.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';

import {call, loadTestCore, ok, repoRoot} from '../../tools/lib/core_loader.mjs';

const table = JSON.parse(fs.readFileSync(
    path.join(repoRoot, 'tests', 'vectors', 'tools', 'validate_tool_call.json'), 'utf8'));
// The test build: this suite calls bindings the app does not.
const core = await loadTestCore();

describe('validateToolCall vectors', () => {
  test('has cases', () => assert.ok(table.cases.length >= 10));
  for (const row of table.cases) {
    test(row.name, () => {
      const out = call(core, 'validateToolCall', row.tool, JSON.stringify(row.input));
      if (row.ok) {
        assert.deepEqual(out, {ok: true});
        return;
      }
      assert.equal(out.ok, false);
      assert.equal(out.code, row.code);
      assert.equal(out.message, row.message);
      assert.deepEqual(out.errors, row.errors);
    });
  }
});

test('toolNames lists every hub tool, sorted', () => {
  const {names} = ok(core, 'toolNames');
  assert.ok(names.length >= 77);
  assert.deepEqual([...names].sort(), names);
  for (const name of ['hub_how_to', 'hub_create_tasks', 'hub_delete_board', 'apps_post_update',
                      'hub_read_web_page', 'hub_run_workflow']) {
    assert.ok(names.includes(name), name);
  }
});

test('bad arguments are refused with a stable code', () => {
  assert.equal(call(core, 'validateToolCall', 'hub_list_tasks', 'not json').code, 'MALFORMED_JSON');
  assert.equal(call(core, 'validateToolCall', 42, '{}').code, 'INVALID_ARGUMENT');
});
