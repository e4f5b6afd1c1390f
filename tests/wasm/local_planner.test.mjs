// The wasm half of the local planner's vectors: every case of
// tests/vectors/assistant/local_planner.json run through planLocally must
// give exactly the "expect" the native core gives
// (tests/core/assistant/local_planner_test.cc, SharedVectors), byte for byte.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';

import {call, loadTestCore, repoRoot} from '../../tools/lib/core_loader.mjs';

const vectorFile = path.join(repoRoot, 'tests', 'vectors', 'assistant', 'local_planner.json');
const {cases} = JSON.parse(fs.readFileSync(vectorFile, 'utf8'));
// The test build: this suite calls bindings the app does not.
const core = await loadTestCore();

// The native test compares nlohmann's dump (keys sorted at every level);
// the binding's text is the same object with "ok": true added in key order.
function sortedJson(value) {
  return JSON.stringify(value, (key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
      : v);
}

describe('local planner vectors', () => {
  test('has cases', () => assert.ok(Array.isArray(cases) && cases.length >= 20));
  for (const c of cases) {
    test(c.name, () => {
      const text = core.planLocally(JSON.stringify(c.request));
      const out = JSON.parse(text);
      if (c.error) {
        assert.equal(out.ok, false);
        assert.equal(out.code, c.error);
        return;
      }
      assert.equal(out.ok, true, `${out.code}: ${out.message}`);
      // Byte-identical: the binding's text minus "ok" is the native dump.
      assert.equal(text.replace('"ok":true,', ''), sortedJson(c.expect));
    });
  }
});

describe('planLocally binding', () => {
  test('bad requests are errors, not exceptions', () => {
    assert.equal(call(core, 'planLocally', 'not json').code, 'MALFORMED_JSON');
    assert.equal(call(core, 'planLocally', '{}').code, 'INVALID_ARGUMENT');
    const notText = call(core, 'planLocally', 42);
    assert.equal(notText.ok, false);
    const bad = call(core, 'planLocally', JSON.stringify({message: 'x', today: '2026-11-30', nope: 1}));
    assert.equal(bad.code, 'INVALID_ARGUMENT');
    assert.match(bad.message, /nope/);
  });

  test('drives the two-step complete like a model', () => {
    const request = {message: 'mark Draft brief done', today: '2026-11-30', calls: []};
    const first = call(core, 'planLocally', JSON.stringify(request));
    assert.equal(first.ok, true);
    assert.deepEqual(first.calls.map((c) => c.name), ['hub_list_tasks']);
    request.calls.push({...first.calls[0],
                        result: {tasks: [{id: '01JDRAFTBR1EF0000000000001', title: 'Draft brief', status: 'todo'}]}});
    const second = call(core, 'planLocally', JSON.stringify(request));
    assert.deepEqual(second.calls, [{name: 'hub_update_task',
                                     args: {id: '01JDRAFTBR1EF0000000000001', fields: {status: 'done'},
                                            base: {status: 'todo'}}}]);
    request.calls.push({...second.calls[0], result: {}});
    const third = call(core, 'planLocally', JSON.stringify(request));
    assert.equal(third.final, true);
    assert.equal(third.reply, 'Marked \u201CDraft brief\u201D as done.');
  });
});

describe('runLocalTurn and applyLocalCalls bindings', () => {
  const turn = (request) => call(core, 'runLocalTurn', JSON.stringify(request));
  const base = {spaceId: 'personal', today: '2026-11-30'};

  test('need an open replica and a well-formed request', () => {
    call(core, 'close');
    assert.equal(turn({...base, message: 'add a task to call Mira'}).code, 'NOT_OPEN');
    assert.equal(call(core, 'open', ':memory:', '').ok, true);
    assert.equal(call(core, 'runLocalTurn', 'not json').code, 'MALFORMED_JSON');
    assert.equal(turn({message: 'hi'}).code, 'INVALID_ARGUMENT');
    assert.equal(turn({...base, message: 'hi', policy: 'sometimes'}).code, 'INVALID_ARGUMENT');
  });

  test('run a whole turn over the replica, writes in the outbox, drafts applied later', () => {
    call(core, 'close');
    assert.equal(call(core, 'open', ':memory:', '').ok, true);
    const added = turn({...base, message: 'add a task to call Mira tomorrow'});
    assert.equal(added.ok, true, added.message);
    assert.deepEqual(added.calls.map((c) => [c.name, c.state]), [['hub_create_tasks', 'succeeded']]);
    assert.match(added.reply, /Call Mira/);
    assert.deepEqual(call(core, 'outbox').mutations.map((m) => [m.name, m.args.title]),
                     [['task.create', 'Call Mira']]);

    const held = turn({...base, message: 'add a task to review the budget', policy: 'preview'});
    assert.deepEqual(held.calls.map((c) => c.state), ['held']);
    assert.match(held.reply, /Waiting for your Apply/);
    assert.equal(call(core, 'outbox').mutations.length, 1);
    const applied = call(core, 'applyLocalCalls', JSON.stringify({...base, calls: held.calls}));
    assert.equal(applied.ok, true, applied.message);
    assert.deepEqual(applied.calls.map((c) => c.state), ['succeeded']);
    assert.deepEqual(call(core, 'outbox').mutations.map((m) => m.args.title),
                     ['Call Mira', 'Review the budget']);
    call(core, 'close');
  });
});
