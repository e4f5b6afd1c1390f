// The wasm core through its JS API: local mutations, the outbox, push and
// pull with rebase, and the error contract ({"ok":false,"code","message"},
// never an exception) on bad input.

import assert from 'node:assert/strict';
import {beforeEach, describe, test} from 'node:test';

import {call, loadCore, loadTestCore, ok} from '../../tools/lib/core_loader.mjs';

const kIdPattern = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

// A task row as the server sends it in a pull (every column).
function serverRow(fields) {
  return {
    space_id: 'personal', status: 'todo', due: null, version: 1, deleted: 0,
    created_at: 1764000000000, updated_at: 1764000000000, row_version: 1, ...fields,
  };
}

function pull(changes, {cursor, lastMutationId = 0, more = false}) {
  return JSON.stringify({
    cursor, lastMutationId, more, changes: changes.map((row) => ({kind: 'task', row})),
  });
}

// The shipped module, and the test build for runMutationVector (a test-only
// binding: the app never runs vectors).
let core;
const testCore = await loadTestCore();
beforeEach(async () => {
  core = await loadCore();
  ok(core, 'open', ':memory:', '');
});

function createTask(title, extra = {}) {
  const id = ok(core, 'newId').id;
  const r = ok(core, 'mutate', 'task.create', JSON.stringify({id, spaceId: 'personal', title, ...extra}));
  return {id, mutationId: r.mutationId};
}

function tasks() {
  return ok(core, 'listTasks').tasks;
}

describe('open and close', () => {
  test('open gives a client id and a zero cursor', () => {
    const fresh = call(core, 'pullRequest');
    assert.equal(fresh.ok, true);
    assert.match(fresh.request.clientId, kIdPattern);
    assert.equal(fresh.request.cursor, 0);
  });

  test('a second open is refused while one is open', () => {
    const again = call(core, 'open', ':memory:', '');
    assert.equal(again.ok, false);
    assert.equal(again.code, 'ALREADY_OPEN');
  });

  test('calls after close answer NOT_OPEN', () => {
    ok(core, 'close');
    for (const method of ['listTasks', 'pushRequest', 'pullRequest', 'pendingCount',
                          'rejections']) {
      const r = call(core, method);
      assert.equal(r.ok, false, method);
      assert.equal(r.code, 'NOT_OPEN', method);
      assert.ok(r.message.length > 0);
    }
    assert.equal(call(core, 'mutate', 'task.create', '{}').code, 'NOT_OPEN');
    assert.equal(call(core, 'dismissRejection', 1).code, 'NOT_OPEN');
    ok(core, 'close');  // Closing twice is harmless.
    ok(core, 'open', ':memory:', '');
  });

  test('an unknown VFS is a storage error, not a crash', () => {
    ok(core, 'close');
    const r = call(core, 'open', 'x.db', 'no-such-vfs');
    assert.equal(r.ok, false);
    assert.equal(r.code, 'STORAGE_ERROR');
  });

  test('the OPFS VFS without a pool refuses to open', () => {
    ok(core, 'close');
    const r = call(core, 'open', 'ensemble.db', 'opfs-sah');
    assert.equal(r.ok, false);
    assert.equal(r.code, 'STORAGE_ERROR');
  });
});

describe('local mutations', () => {
  test('newId makes distinct, time-ordered record ids', () => {
    const a = ok(core, 'newId').id;
    const b = ok(core, 'newId').id;
    assert.match(a, kIdPattern);
    assert.notEqual(a, b);
    assert.ok(a.slice(0, 10) <= b.slice(0, 10));
  });

  test('create shows at once and is queued', () => {
    const {id, mutationId} = createTask('  Write the report  ', {due: '2026-03-01'});
    assert.equal(mutationId, 1);
    const [task] = tasks();
    assert.equal(task.id, id);
    assert.equal(task.title, 'Write the report');
    assert.equal(task.status, 'todo');
    assert.equal(task.due, '2026-03-01');
    assert.equal(task.version, 1);
    assert.equal(ok(core, 'pendingCount').count, 1);
    // The queued mutation, as the next push sends it.
    const [m] = ok(core, 'pushRequest').request.mutations;
    assert.deepEqual({id: m.id, name: m.name}, {id: 1, name: 'task.create'});
    assert.equal(m.args.title, '  Write the report  ');
    assert.equal(typeof m.clientTime, 'number');
  });

  test('listOpenTasks answers the first open tasks of one space, in id order', () => {
    // Ids made in one millisecond are not ordered: these are, and made out of order.
    const create = (n, title, extra = {}) => {
      const id = `01JB${'0'.repeat(21)}${n}`;
      ok(core, 'mutate', 'task.create', JSON.stringify({id, spaceId: 'personal', title, ...extra}));
      return id;
    };
    const fourth = create(5, 'Fourth');
    const first = create(1, 'First');
    create(2, 'Finished', {status: 'done'});
    const third = create(3, 'Third');
    create(4, 'Elsewhere', {spaceId: 'other'});
    const ids = (spaceId, limit) => ok(core, 'listOpenTasks', spaceId, limit).tasks.map((t) => t.id);
    assert.deepEqual(ids('personal', 2), [first, third]);
    assert.deepEqual(ids('personal', 10), [first, third, fourth]);
    assert.equal(ids('other', 10).length, 1);
    for (const limit of [0, -1, 1001]) {
      assert.equal(call(core, 'listOpenTasks', 'personal', limit).code, 'INVALID_ARGUMENT', limit);
    }
    ok(core, 'close');
    assert.equal(call(core, 'listOpenTasks', 'personal', 5).code, 'NOT_OPEN');
    ok(core, 'open', ':memory:', '');
  });

  test('update changes the row and queues a second mutation', () => {
    const {id} = createTask('Draft');
    const r = ok(core, 'mutate', 'task.update',
                 JSON.stringify({id, fields: {title: 'Final', status: 'done'}, base: {title: 'Draft'}}));
    assert.equal(r.mutationId, 2);
    const [task] = tasks();
    assert.equal(task.title, 'Final');
    assert.equal(task.status, 'done');
    assert.equal(task.version, 2);
    assert.equal(ok(core, 'pendingCount').count, 2);
  });

  test('a refused mutation changes nothing and queues nothing', () => {
    createTask('Keep me');
    const cases = [
      ['task.create', {id: 'not-an-id', spaceId: 'personal', title: 'x'}, 'INVALID_ARGUMENT'],
      ['task.create', {id: ok(core, 'newId').id, spaceId: 'personal', title: '   '}, 'INVALID_ARGUMENT'],
      ['task.create', {id: ok(core, 'newId').id, spaceId: 'personal', title: 'x', due: '2026-02-30'},
       'INVALID_ARGUMENT'],
      ['task.update', {id: ok(core, 'newId').id, fields: {title: 'x'}}, 'NOT_FOUND'],
      ['task.archive', {}, 'UNKNOWN_MUTATION'],
    ];
    for (const [name, args, code] of cases) {
      const r = call(core, 'mutate', name, JSON.stringify(args));
      assert.equal(r.ok, false, `${name} ${JSON.stringify(args)}`);
      assert.equal(r.code, code);
      assert.ok(r.message.length > 0);
    }
    assert.equal(tasks().length, 1);
    assert.equal(ok(core, 'pendingCount').count, 1);
  });

  test('unicode titles round-trip', () => {
    createTask('Réunion 🎉 "Q3" — 会议');
    assert.equal(tasks()[0].title, 'Réunion 🎉 "Q3" — 会议');
  });
});

describe('push and pull', () => {
  test('pushRequest carries the outbox in order', () => {
    createTask('One');
    createTask('Two');
    const {request, count} = ok(core, 'pushRequest');
    const {clientId} = ok(core, 'pullRequest').request;
    assert.equal(count, 2);
    assert.equal(request.clientId, clientId);
    assert.match(request.clientGroupId, kIdPattern);
    assert.deepEqual(request.mutations.map((m) => m.id), [1, 2]);
  });

  test('a pull confirming the mutation empties the outbox and keeps the row', () => {
    const {id} = createTask('Confirmed');
    const created = tasks()[0];
    const r = ok(core, 'applyPull', pull([serverRow({
      id, title: 'Confirmed', created_at: created.createdAt, updated_at: created.updatedAt,
    })], {cursor: 7, lastMutationId: 1}));
    assert.deepEqual({cursor: r.cursor, more: r.more}, {cursor: 7, more: false});
    assert.equal(ok(core, 'pendingCount').count, 0);
    assert.equal(ok(core, 'pullRequest').request.cursor, 7);
    assert.deepEqual(tasks().map((t) => t.title), ['Confirmed']);
  });

  test('other clients\' rows arrive and pending writes stay on top', () => {
    createTask('Mine, pending');
    ok(core, 'applyPull', pull([serverRow({id: '01JB0000000000000000000009', title: 'Theirs'})],
                              {cursor: 1}));
    assert.deepEqual(tasks().map((t) => t.title).sort(), ['Mine, pending', 'Theirs']);
    assert.equal(ok(core, 'pendingCount').count, 1);
  });

  test('a middle page keeps confirmed mutations until the last page', () => {
    createTask('Paged');
    ok(core, 'applyPull', pull([], {cursor: 3, lastMutationId: 1, more: true}));
    assert.equal(ok(core, 'pendingCount').count, 1);
    const r = ok(core, 'applyPull', pull([], {cursor: 4, lastMutationId: 1}));
    assert.equal(r.more, false);
    assert.equal(ok(core, 'pendingCount').count, 0);
  });

  test('rebase: a pending edit replays on the server\'s newer row', () => {
    const id = '01JB00000000000000000000AA';
    ok(core, 'applyPull', pull([serverRow({id, title: 'Old'})], {cursor: 1}));
    ok(core, 'mutate', 'task.update', JSON.stringify({id, fields: {title: 'Mine'}, base: {title: 'Old'}}));

    // Someone else finished the task: disjoint fields merge.
    ok(core, 'applyPull', pull([serverRow({id, title: 'Old', status: 'done', version: 2, row_version: 2})],
                              {cursor: 2}));
    let [task] = tasks();
    assert.deepEqual({title: task.title, status: task.status, version: task.version},
                     {title: 'Mine', status: 'done', version: 3});

    // Someone else renamed it: the pending edit no longer applies and waits
    // for the server's verdict; the screen shows the server's title.
    ok(core, 'applyPull', pull([serverRow({id, title: 'Theirs', status: 'done', version: 3, row_version: 3})],
                              {cursor: 3}));
    [task] = tasks();
    assert.equal(task.title, 'Theirs');
    assert.equal(ok(core, 'pendingCount').count, 1);

    ok(core, 'applyPushResponse', JSON.stringify({
      lastMutationId: 1,
      results: [{id: 1, status: 'rejected', code: 'SAVE_CONFLICT', message: 'changed elsewhere',
                 details: {fields: ['title'], current: {title: 'Theirs'}, version: 3}}],
    }));
    const [rejection] = ok(core, 'rejections').rejections;
    assert.equal(rejection.id, 1);
    assert.equal(rejection.name, 'task.update');
    assert.equal(rejection.code, 'SAVE_CONFLICT');
    assert.deepEqual(rejection.details.current, {title: 'Theirs'});
    assert.deepEqual(rejection.args.fields, {title: 'Mine'});

    ok(core, 'applyPull', pull([], {cursor: 4, lastMutationId: 1}));
    assert.equal(ok(core, 'pendingCount').count, 0);
    assert.equal(tasks()[0].title, 'Theirs');
    ok(core, 'dismissRejection', 1);
    assert.deepEqual(ok(core, 'rejections').rejections, []);
  });

  test('a pulled soft-deleted row leaves the list', () => {
    const id = '01JB00000000000000000000BB';
    ok(core, 'applyPull', pull([serverRow({id, title: 'Soon gone'})], {cursor: 1}));
    assert.equal(tasks().length, 1);
    ok(core, 'applyPull', pull([serverRow({id, title: 'Soon gone', deleted: 1, row_version: 2})],
                              {cursor: 2}));
    assert.equal(tasks().length, 0);
  });

  test('server responses of the wrong shape are refused without changes', () => {
    createTask('Still here');
    const bad = [
      [{}, 'applyPull'],
      [{cursor: 'x', lastMutationId: 0, changes: []}, 'applyPull'],
      [{cursor: 1, lastMutationId: 0, changes: [{kind: 'task', row: {title: 'no id'}}]}, 'applyPull'],
      [{cursor: 1, lastMutationId: 0, changes: [{kind: 'task', row: {id: 'x', 'bad col': 1}}]}, 'applyPull'],
      [{results: 'nope'}, 'applyPushResponse'],
      [{results: [{status: 'rejected'}]}, 'applyPushResponse'],
    ];
    for (const [body, method] of bad) {
      const r = call(core, method, JSON.stringify(body));
      assert.equal(r.ok, false, JSON.stringify(body));
      assert.equal(r.code, 'INVALID_ARGUMENT');
    }
    assert.equal(ok(core, 'pendingCount').count, 1);
    assert.equal(ok(core, 'pullRequest').request.cursor, 0);
    assert.deepEqual(tasks().map((t) => t.title), ['Still here']);
  });
});

describe('the error contract', () => {
  test('malformed JSON answers MALFORMED_JSON', () => {
    for (const [method, args] of [
      ['mutate', ['task.create', '{"id":']],
      ['mutate', ['task.create', '']],
      ['applyPull', ['not json']],
      ['applyPushResponse', ['{"results": [}']],
      ['runMutationVector', ['{']],
    ]) {
      const r = call(method === 'runMutationVector' ? testCore : core, method, ...args);
      assert.deepEqual({ok: r.ok, code: r.code}, {ok: false, code: 'MALFORMED_JSON'}, method);
      assert.equal(typeof r.message, 'string');
    }
  });

  test('an exception inside the core is an error value and rolls back', () => {
    const {id} = createTask('Untouched');
    // A non-string base title makes this core's task.update throw a json
    // type_error (caught at the edge as INTERNAL); once the core validates
    // base values it is INVALID_ARGUMENT. Either way nothing changes.
    const r = call(core, 'mutate', 'task.update',
                   JSON.stringify({id, fields: {title: 'Changed'}, base: {title: 5}}));
    assert.equal(r.ok, false);
    assert.match(r.code, /^(INTERNAL|INVALID_ARGUMENT)$/);
    assert.deepEqual(tasks().map((t) => [t.title, t.version]), [['Untouched', 1]]);
    assert.equal(ok(core, 'pendingCount').count, 1);
    const again = call(testCore, 'runMutationVector', JSON.stringify({mutations: [
      {name: 'task.create', clientTime: 1, args: {id, spaceId: 'personal', title: 'A'}},
      {name: 'task.update', clientTime: 2, args: {id, fields: {title: 'B'}, base: {title: 5}}},
    ]}));
    assert.equal(again.ok === false ? again.code : again.report.results[1], r.code);
    createTask('Still works');
  });

  test('no input makes a binding throw', () => {
    const weird = [
      undefined, null, 42, true, {}, [], '', ' ', 'null', '[]', '"x"', '0', '{}', '{"a":1e999}',
      '\ud800', '"\\ud800"', '\u0000', '{"id":"\u0000"}', '['.repeat(5000), '{"a":'.repeat(2000),
      '['.repeat(5000) + ']'.repeat(5000),
      JSON.stringify({id: 1e308, spaceId: ['x'], title: {t: 1}, status: null, due: 5}),
      JSON.stringify({id: 'x'.repeat(100000), fields: {title: 'y'.repeat(100000)}}),
      JSON.stringify({cursor: -1, lastMutationId: Number.MAX_SAFE_INTEGER, changes: [{kind: 5, row: []}]}),
      JSON.stringify({cursor: 1, lastMutationId: 0, changes: [{kind: 'task', row: {id: 'r', title: {x: [1]}}}]}),
      JSON.stringify({results: [{id: 1.5, status: 'rejected'}, null, 7]}),
      JSON.stringify({mutations: [{name: 5}, null, {name: 'task.create', clientTime: 'x'}]}),
      JSON.stringify({mutations: [{name: 'task.create', clientTime: 1, args: 'x'}]}),
    ];
    const calls = [
      (x) => core.mutate('task.create', x),
      (x) => core.mutate('task.update', x),
      (x) => core.mutate(x, '{}'),
      (x) => core.applyPull(x),
      (x) => core.applyPushResponse(x),
      (x) => testCore.runMutationVector(x),
      (x) => core.open(x, x),
    ];
    for (const input of weird) {
      for (const [i, fn] of calls.entries()) {
        let text;
        assert.doesNotThrow(() => { text = fn(input); }, `call ${i} with ${String(input).slice(0, 40)}`);
        const r = JSON.parse(text);
        assert.equal(typeof r.ok, 'boolean');
        if (!r.ok) {
          assert.match(r.code, /^[A-Z_]+$/);
          assert.equal(typeof r.message, 'string');
        }
      }
    }
    // Still healthy afterwards.
    createTask('After the storm');
    assert.ok(tasks().some((t) => t.title === 'After the storm'));
  });
});
