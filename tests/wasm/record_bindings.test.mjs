// wasm/bindings/record_bindings.cc: listRecords, listTrash, recordKinds and
// mergeSuggestions, the reads behind the app's pages, boards, people and
// Trash views.

import assert from 'node:assert/strict';
import {beforeEach, test} from 'node:test';

import {call, loadCore, ok} from '../../tools/lib/core_loader.mjs';

let core;
beforeEach(async () => {
  core = await loadCore();
  ok(core, 'open', ':memory:', '');
});

function create(kind, fields, id = ok(core, 'newId').id) {
  ok(core, 'mutate', `${kind}.create`, JSON.stringify({id, spaceId: 'personal', ...fields}));
  return id;
}

test('recordKinds names the synced kinds', () => {
  const {kinds} = ok(core, 'recordKinds');
  for (const kind of ['task', 'page']) assert.ok(kinds.includes(kind), kind);
});

test('listRecords gives live records with their fields, oldest first', () => {
  const before = Date.now();
  const first = create('page', {title: 'Notes', body: '[not json] kept as text'});
  const second = create('page', {title: '[1, 2]', body: '{"a": 1}'});
  const {records} = ok(core, 'listRecords', 'page', '{}');
  assert.deepEqual(records.map((r) => r.id), [first, second]);
  assert.equal(records[0].kind, 'page');
  assert.equal(records[0].spaceId, 'personal');
  assert.equal(records[0].version, 1);
  assert.equal(records[0].deleted, false);
  // Times are milliseconds since the epoch, whole (not cut to 32 bits).
  assert.ok(records[0].createdAt >= before && records[0].createdAt <= Date.now(), records[0].createdAt);
  assert.equal(records[0].updatedAt, records[0].createdAt);
  assert.equal(records[0].body, '[not json] kept as text');
  // Text fields stay text even when they read as JSON.
  assert.equal(records[1].title, '[1, 2]');
  assert.equal(records[1].body, '{"a": 1}');
});

test('every kind types its fields: a desk line or reminder that reads as JSON stays text', () => {
  const list = create('desk_list', {title: '{"x": 1}'});
  const line = create('desk_list_item', {list, text: '[1, 2]', position: 1024});
  create('reminder', {text: '[later]', at: Date.now() + 60000});
  create('reminder', {text: '[3]', at: Date.now() + 60000});
  assert.equal(ok(core, 'listRecords', 'desk_list', '{}').records[0].title, '{"x": 1}');
  const [item] = ok(core, 'listRecords', 'desk_list_item', '{}').records;
  assert.equal(item.id, line);
  assert.equal(item.text, '[1, 2]');
  assert.equal(item.done, 0);
  assert.equal(item.position, 1024);
  assert.deepEqual(ok(core, 'listRecords', 'reminder', '{}').records.map((r) => r.text).sort(),
                   ['[3]', '[later]']);
});

test('list fields come back as lists', () => {
  const id = create('task', {title: 'Tagged', labels: ['a', 'b']});
  const [task] = ok(core, 'listRecords', 'task', '{}').records;
  assert.equal(task.id, id);
  assert.deepEqual(task.labels, ['a', 'b']);
});

test('deleted records leave the list and show in the Trash until restored', () => {
  const page = create('page', {title: 'Old page', body: ''});
  const task = create('task', {title: 'Old task'});
  ok(core, 'mutate', 'page.delete', JSON.stringify({id: page}));
  ok(core, 'mutate', 'task.delete', JSON.stringify({id: task}));
  assert.deepEqual(ok(core, 'listRecords', 'page', '{}').records, []);
  assert.deepEqual(ok(core, 'listRecords', 'page', '{"deleted": true}').records.map((r) => r.id), [page]);
  const trash = ok(core, 'listTrash').records;
  assert.deepEqual(trash.map((r) => [r.kind, r.id]).sort(), [['page', page], ['task', task]].sort());
  ok(core, 'mutate', 'task.restore', JSON.stringify({id: task}));
  assert.deepEqual(ok(core, 'listTrash').records.map((r) => r.id), [page]);
});

test('people of one name are suggested, and a merge on the replica ends it', () => {
  // The older is kept (created first; in one millisecond, the smaller id).
  // The ids are made first and the smaller given to the first person, so the
  // order holds even when the clock ticks between an id and its creation.
  const [firstId, secondId] = [ok(core, 'newId').id, ok(core, 'newId').id].sort();
  const kept = create('person', {name: 'Ana Lima', email: 'ana@work.example'}, firstId);
  const twin = create('person', {name: 'ana  LIMA', email: 'ana@home.example'}, secondId);
  const task = create('task', {title: 'Brief', people: [twin]});
  create('person', {name: 'Bo'});
  const {suggestions} = ok(core, 'mergeSuggestions', 'personal');
  assert.deepEqual(suggestions, [{personId: twin, intoId: kept, reason: 'same_name'}]);
  assert.deepEqual(ok(core, 'mergeSuggestions', 'elsewhere').suggestions, []);

  ok(core, 'mutate', 'person.merge', JSON.stringify({id: twin, into: kept}));
  assert.deepEqual(ok(core, 'mergeSuggestions', 'personal').suggestions, []);
  assert.deepEqual(ok(core, 'listRecords', 'task', '{}').records[0].people, [kept]);
  const [address] = ok(core, 'listRecords', 'person_identity', '{}').records;
  assert.equal(address.person, kept);
  assert.equal(address.value, 'ana@home.example');  // The twin's address moves to the kept.
  assert.equal(call(core, 'mergeSuggestions', 7).code, 'INVALID_ARGUMENT');
});

test('"not the same" on the replica ends a suggestion, and the mark lists as a list', () => {
  const first = create('person', {name: 'Cy Park'});
  const second = create('person', {name: 'cy park'});
  assert.equal(ok(core, 'mergeSuggestions', 'personal').suggestions.length, 1);
  ok(core, 'mutate', 'person.update', JSON.stringify({
    id: second, fields: {distinct_from: [first]}, base: {distinct_from: []}}));
  assert.deepEqual(ok(core, 'mergeSuggestions', 'personal').suggestions, []);
  const people = ok(core, 'listRecords', 'person', '{}').records;
  assert.deepEqual(people.find((p) => p.id === second).distinct_from, [first]);
  assert.deepEqual(people.find((p) => p.id === first).distinct_from, []);
});

test('bad input is an error value, never an exception', () => {
  const unknown = call(core, 'listRecords', 'spaceship', '{}');
  assert.equal(unknown.ok, false);
  assert.equal(unknown.code, 'INVALID_ARGUMENT');
  assert.equal(call(core, 'listRecords', 'page', 'not json').code, 'MALFORMED_JSON');
  assert.equal(call(core, 'listRecords', 42, '{}').code, 'INVALID_ARGUMENT');
  ok(core, 'close');
  assert.equal(call(core, 'listRecords', 'page', '{}').code, 'NOT_OPEN');
  assert.equal(call(core, 'listTrash').code, 'NOT_OPEN');
  assert.equal(call(core, 'mergeSuggestions', 'personal').code, 'NOT_OPEN');
});

test('a board lists its columns as a list, and its cards with their fields', () => {
  const columns = [{id: 'todo', title: 'To do'}, {id: 'done', title: 'Done'}];
  const board = create('board', {title: 'Launch', description: '', columns});
  const task = create('task', {title: 'Write the post'});
  const card = create('card', {board, column: 'todo', task, position: 1024});
  const [listed] = ok(core, 'listRecords', 'board', '{}').records;
  assert.equal(listed.id, board);
  assert.deepEqual(listed.columns, columns);
  const [c] = ok(core, 'listRecords', 'card', '{}').records;
  assert.deepEqual([c.id, c.board, c.column, c.task, c.position], [card, board, 'todo', task, 1024]);
});
