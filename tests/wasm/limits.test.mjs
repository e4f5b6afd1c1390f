// limits() (wasm/bindings/limits_bindings.cc): the numbers the app bounds
// input with must be the core's own. Each is compared with the constant in
// the C++ header that defines it, read from the source here, so a binding
// that reports the wrong constant, or a header changed without the module
// following, fails.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';

import {loadCore, loadTestCore, ok, repoRoot} from '../../tools/lib/core_loader.mjs';

const core = await loadCore();
const limits = ok(core, 'limits');

// The value of `inline constexpr T name = <integer expression>;` (or a
// static member) in `header`: digits with ' separators, joined by *.
function constant(header, name) {
  const text = fs.readFileSync(path.join(repoRoot, header), 'utf8');
  const m = new RegExp(`constexpr\\s+[\\w:]+\\s+${name}\\s*=\\s*([^;]+);`).exec(text);
  assert.ok(m, `${name} is not defined in ${header}`);
  const factors = m[1].split('*').map((f) => f.trim().replaceAll("'", ''));
  assert.ok(factors.every((f) => /^\d+$/.test(f)), `${header}: ${name} = ${m[1]} is not a plain number`);
  return factors.reduce((product, f) => product * Number(f), 1);
}

// Named limits: [name in limits(), header, constant].
const kNamed = [
  ['maxMessageChars', 'core/assistant/conversation_store.h', 'kMaxMessageChars'],
  ['maxConversationTitleChars', 'core/assistant/conversation_store.h', 'kMaxConversationTitleChars'],
  ['maxOfflineExchanges', 'core/assistant/offline_exchanges.h', 'kMaxOfflineExchanges'],
  ['maxOfflineExchangeCalls', 'core/assistant/offline_exchanges.h', 'kMaxOfflineExchangeCalls'],
  ['maxOfflineCallTextChars', 'core/assistant/offline_exchanges.h', 'kMaxOfflineCallTextChars'],
  // Not turn_context.h's kMaxSelectedIds: the server checks a message's
  // surface with CheckSurface.
  ['maxSurfaceIds', 'core/context/surface_tool_run.h', 'kMaxSurfaceIds'],
  ['maxMentions', 'core/refs/mentions.h', 'kMaxMentions'],
  ['maxLocalMentions', 'core/assistant/local_planner.h', 'kMaxLocalMentions'],
  ['maxMentionLabelBytes', 'core/refs/mentions.h', 'kMaxMentionLabelBytes'],
  ['maxRefs', 'core/refs/ref_set.h', 'kMaxRefs'],
  ['maxBoardColumnTitleChars', 'core/boards/board.h', 'kMaxColumnTitleChars'],
  ['maxDeliverableTitleChars', 'core/projects/project.h', 'kMaxTitleChars'],
  ['maxSpaceNameChars', 'core/spaces/space_admin.h', 'kMaxSpaceNameChars'],
  ['maxConnectionNameChars', 'core/connections/connection.h', 'kMaxConnectionNameChars'],
];

// The record fields whose limits the views use: [kind, field, header, constant].
const kFields = [
  ['task', 'title', 'core/tasks/task.h', 'kMaxTitleChars'],
  ['task', 'description', 'core/tasks/task.h', 'kMaxDescriptionChars'],
  ['project', 'title', 'core/projects/project.h', 'kMaxTitleChars'],
  ['project', 'description', 'core/projects/project.h', 'kMaxDescriptionChars'],
  ['page', 'title', 'core/pages/page.h', 'kMaxTitleChars'],
  ['board', 'title', 'core/boards/board.h', 'kMaxTitleChars'],
  ['card', 'note', 'core/boards/card.h', 'kMaxNoteChars'],
  ['comment', 'body', 'core/comments/comment.h', 'kMaxBodyChars'],
  ['person', 'name', 'core/people/person.h', 'kMaxNameChars'],
  ['person', 'email', 'core/people/person.h', 'kMaxEmailChars'],
  ['person', 'role', 'core/people/person.h', 'kMaxRoleChars'],
  ['person', 'team', 'core/people/person.h', 'kMaxRoleChars'],
  ['routine', 'title', 'core/routines/routine.h', 'kMaxTitleChars'],
  ['routine', 'instruction', 'core/routines/routine.h', 'kMaxInstructionChars'],
  ['desk_list', 'title', 'core/desk/desk_list.h', 'kMaxDeskListTitleChars'],
  ['desk_list_item', 'text', 'core/desk/desk_list.h', 'kMaxDeskItemChars'],
];

test('each named limit is its header\'s constant', () => {
  for (const [name, header, cpp] of kNamed) {
    assert.equal(limits[name], constant(header, cpp), `${name} (${header} ${cpp})`);
  }
});

test('limits() says nothing the table above does not check', () => {
  const named = Object.keys(limits).filter((k) => k !== 'ok' && k !== 'fields').sort();
  assert.deepEqual(named, kNamed.map(([name]) => name).sort());
});

test('record field limits are their headers\' constants', () => {
  for (const [kind, field, header, cpp] of kFields) {
    assert.equal(limits.fields[kind]?.[field]?.maxChars, constant(header, cpp),
                 `${kind}.${field} (${header} ${cpp})`);
  }
});

test('every synced kind has its field limits, and text has a bound', () => {
  const {kinds} = ok(core, 'recordKinds');
  assert.deepEqual(Object.keys(limits.fields).sort(), [...kinds].sort());
  for (const [kind, fields] of Object.entries(limits.fields)) {
    for (const [field, bounds] of Object.entries(fields)) {
      for (const [key, value] of Object.entries(bounds)) {
        assert.ok(Number.isInteger(value), `${kind}.${field}.${key} = ${value}`);
      }
      if ('maxChars' in bounds) assert.ok(bounds.maxChars > 0, `${kind}.${field}`);
    }
  }
  // A list of text bounds each item and the count.
  assert.deepEqual(limits.fields.task.labels, {
    maxChars: constant('core/tasks/task.h', 'kMaxLabelChars'),
    maxItems: constant('core/tasks/task.h', 'kMaxLabels'),
  });
});

test('the core refuses one character past a field limit the app uses', () => {
  // The number is the one the core enforces, not only the one it reports.
  ok(core, 'open', ':memory:', '');
  const {id} = ok(core, 'newId');
  const max = limits.fields.task.title.maxChars;
  ok(core, 'mutate', 'task.create', JSON.stringify({id, spaceId: 'personal', title: 'é'.repeat(max)}));
  const {id: other} = ok(core, 'newId');
  const over = JSON.parse(core.mutate('task.create',
                                      JSON.stringify({id: other, spaceId: 'personal', title: 'é'.repeat(max + 1)})));
  assert.equal(over.code, 'INVALID_ARGUMENT');
  ok(core, 'close');
});

test('the test build reports the same limits', async () => {
  assert.deepEqual(ok(await loadTestCore(), 'limits'), limits);
});
