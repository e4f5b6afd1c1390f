// wasm/bindings/context_test_bindings.cc itemContext: the context graph
// (core/context/neighbors.h) on the device's replica, as the server's
// GET /api/context/item answers it: relations both ways, paged, scored, and
// nothing of Trash or another space.

import assert from 'node:assert/strict';
import {before, test} from 'node:test';

import {call, loadTestCore, ok} from '../../tools/lib/core_loader.mjs';

let core;
const ids = {};
function create(kind, fields, spaceId = 'personal') {
  const id = ok(core, 'newId').id;
  ok(core, 'mutate', `${kind}.create`, JSON.stringify({id, spaceId, ...fields}));
  return id;
}
const context = (ref, rel = '', limit = '', offset = '') =>
  ok(core, 'itemContext', 'personal', ref, rel, String(limit), String(offset));
const titles = (page) => page.items.map((i) => i.title);

before(async () => {
  core = await loadTestCore();
  ok(core, 'open', ':memory:', '');
  ids.mira = create('person', {name: 'Mira', role: 'Lead'});
  ids.project = create('project', {title: 'Launch', people: [ids.mira]});
  ids.venue = create('task', {title: 'Book venue', project: ids.project, status: 'done'});
  ids.plan = create('task', {title: 'Book launch venue', project: ids.project, people: [ids.mira],
                             depends_on: [ids.venue]});
  ids.invites = create('task', {title: 'Send invites', depends_on: [ids.plan], people: [ids.mira]});
  for (let n = 0; n < 7; n++) create('task', {title: `Step ${n}`, project: ids.project});
  ids.page = create('page', {title: 'Notes', body: `Ask ensemble://person/${ids.mira} first`});
  ids.far = create('task', {title: 'Far'}, 'team');
});

test('a task reads its relations both ways', () => {
  const {record, relations} = context(`ensemble://task/${ids.plan}`);
  assert.equal(record.title, 'Book launch venue');
  assert.deepEqual(titles(relations.project), ['Launch']);
  assert.equal(relations.people.items[0].role, 'Lead');
  assert.deepEqual(titles(relations.depends_on), ['Book venue']);
  assert.deepEqual(titles(relations.blocks), ['Send invites']);
  assert.deepEqual(titles(relations.done_before), ['Book venue']);
  assert.equal(relations.related.total, 8);
  assert.equal(relations.related.items.length, 6);
  assert.equal(relations.related.items[0].title, 'Send invites');
});

test('one relation pages and a person is mentioned in a page', () => {
  const first = context(`ensemble://project/${ids.project}`, 'open_tasks', 5).relations.open_tasks;
  assert.equal(first.total, 8);
  assert.equal(first.nextOffset, 5);
  const rest = context(`ensemble://project/${ids.project}`, 'open_tasks', 5, 5).relations.open_tasks;
  assert.equal(rest.items.length, 3);
  assert.equal(rest.nextOffset, undefined);
  const seen = new Set([...first.items, ...rest.items].map((i) => i.id));
  assert.equal(seen.size, 8);
  const person = context(`ensemble://person/${ids.mira}`);
  assert.deepEqual(titles(person.relations.mentioned_in), ['Notes']);
  assert.deepEqual(titles(person.relations.projects), ['Launch']);
});

test('Trash, another space and bad requests are refused with stable codes', () => {
  assert.equal(call(core, 'itemContext', 'personal', `ensemble://task/${ids.far}`, '', '', '').code,
               'NOT_FOUND');
  ok(core, 'mutate', 'task.delete', JSON.stringify({id: ids.venue}));
  assert.equal(call(core, 'itemContext', 'personal', `ensemble://task/${ids.venue}`, '', '', '').code,
               'NOT_FOUND');
  assert.equal(context(`ensemble://task/${ids.plan}`, 'depends_on').relations.depends_on.total, 0);
  for (const args of [['', '', '', ''], ['task/x', '', '', ''],
                      [`ensemble://task/${ids.plan}`, 'open_tasks', '', ''],
                      [`ensemble://task/${ids.plan}`, '', '0', '']]) {
    assert.equal(call(core, 'itemContext', 'personal', ...args).code, 'INVALID_ARGUMENT', args.join());
  }
});
