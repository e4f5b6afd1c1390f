// tools/ensemble context: a record's work packet and context graph read from
// the database file the embedded server keeps. The records are written as
// the app writes them (POST /api/sync/push to a local server); the server is
// then stopped and the command reads its file.

import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {after, before, test} from 'node:test';

import {freePort, repoRoot, ServerProcess, tempDir} from '../../tools/lib/server_process.mjs';

const bin = process.env.ENSEMBLE_CLI_BIN ?? path.join(repoRoot, 'build', 'native', 'tools', 'cli', 'ensemble');
const dataDir = tempDir('ensemble-cli-context-');
const db = path.join(dataDir, 'ensemble.db');
const id = (kind, n) => `01JB000000000000000000${kind}${String(n).padStart(3, '0')}`;
const ids = {mira: id('N', 1), project: id('P', 1), venue: id('T', 1), plan: id('T', 2)};

function run(...args) {
  const r = spawnSync(bin, args, {encoding: 'utf8'});
  return {code: r.status, out: r.stdout, err: r.stderr};
}

before(async () => {
  const server = new ServerProcess({port: await freePort(), dataDir});
  await server.start();
  try {
    const mutations = [
      ['person.create', {id: ids.mira, spaceId: 'personal', name: 'Mira', role: 'Lead'}],
      ['project.create', {id: ids.project, spaceId: 'personal', title: 'Launch', people: [ids.mira]}],
      ['task.create', {id: ids.venue, spaceId: 'personal', title: 'Book venue', project: ids.project,
                       status: 'done'}],
      ['task.create', {id: ids.plan, spaceId: 'personal', title: 'Book launch venue',
                       project: ids.project, people: [ids.mira], depends_on: [ids.venue],
                       description: `Ask ensemble://person/${ids.mira} about it`}],
    ];
    for (let n = 3; n < 40; n++) {
      mutations.push(['task.create', {id: id('T', n), spaceId: 'personal', title: `Step ${n}`,
                                      project: ids.project}]);
    }
    const res = await fetch(`${server.url}/api/sync/push`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({
        clientGroupId: '01JB00000000000000000000G1',
        clientId: '01JB00000000000000000000C1',
        mutations: mutations.map(([name, args], i) => ({id: i + 1, name, args,
                                                        clientTime: Date.now()})),
      }),
    });
    assert.equal(res.status, 200, await res.text());
  } finally {
    await server.stop();
  }
});

after(() => fs.rmSync(dataDir, {recursive: true, force: true}));

test('context packet prints the work packet, each row with its handle, within the budget', () => {
  const r = run('context', 'packet', '--db', db, '--ref', `ensemble://task/${ids.plan}`);
  assert.equal(r.code, 0, r.err);
  assert.ok(r.out.startsWith(`# Task: Book launch venue\nensemble://task/${ids.plan}\n`), r.out);
  assert.match(r.out, new RegExp(`## People\\n- \\[Mira\\]\\(ensemble://person/${ids.mira}\\) \\(Lead\\)`));
  assert.match(r.out, new RegExp(`## Depends on\\n- \\[Book venue\\]\\(ensemble://task/${ids.venue}\\)`));
  assert.match(r.out, /## More\n.*related \(\d+ from offset 10\)/);
  assert.ok([...r.out].length <= 5000);

  const small = run('context', 'packet', '--db', db, '--ref', `ensemble://task/${ids.plan}`,
                    '--budget', '600');
  assert.equal(small.code, 0, small.err);
  assert.ok([...small.out].length <= 600, small.out);
  assert.match(small.out, /## Project/);
});

test('context item prints one relation paged as JSON', () => {
  const r = run('context', 'item', '--db', db, '--ref', `ensemble://project/${ids.project}`,
                '--rel', 'open_tasks', '--limit', '5', '--offset', '30');
  assert.equal(r.code, 0, r.err);
  const {record, relations} = JSON.parse(r.out);
  assert.equal(record.title, 'Launch');
  assert.equal(relations.open_tasks.total, 38);
  assert.equal(relations.open_tasks.items.length, 5);
  assert.equal(relations.open_tasks.nextOffset, 35);
});

test('context refuses bad options, a missing file and a record it does not hold', () => {
  assert.equal(run('context').code, 2);
  assert.equal(run('context', 'packet', '--db', db).code, 2);
  const budget = run('context', 'packet', '--db', db, '--ref', `ensemble://task/${ids.plan}`,
                     '--budget', '10');
  assert.equal(budget.code, 2);
  assert.match(budget.err, /--budget: a number of characters from 200/);
  const ref = run('context', 'packet', '--db', db, '--ref', 'task/nope');
  assert.equal(ref.code, 2);
  assert.match(ref.err, /ref must be a record handle/);
  const missing = run('context', 'packet', '--db', path.join(dataDir, 'none.db'), '--ref',
                      `ensemble://task/${ids.plan}`);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /no database file at/);
  const stranger = path.join(dataDir, 'stranger.txt');
  fs.writeFileSync(stranger, 'not a database');
  const notOurs = run('context', 'packet', '--db', stranger, '--ref', `ensemble://task/${ids.plan}`);
  assert.equal(notOurs.code, 1);
  assert.match(notOurs.err, /is not an Ensemble database/);
  assert.equal(fs.readFileSync(stranger, 'utf8'), 'not a database', 'left as it was');
  const unknown = run('context', 'packet', '--db', db, '--ref', `ensemble://task/${id('T', 99)}`);
  assert.equal(unknown.code, 1);
  assert.match(unknown.err, /no task with id/);
});
