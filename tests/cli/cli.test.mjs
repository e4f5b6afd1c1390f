// tools/ensemble, the command-line client, run as a process: JSON on stdout,
// and for bad input a non-zero exit with a readable message on stderr.

import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = process.env.ENSEMBLE_CLI_BIN ?? path.join(root, 'build', 'native', 'tools', 'cli', 'ensemble');
const calendars = path.join(root, 'tests', 'data', 'calendar');
const transcripts = path.join(root, 'tests', 'data', 'transcripts');

function run(...args) {
  const r = spawnSync(bin, args, {encoding: 'utf8'});
  return {code: r.status, out: r.stdout, err: r.stderr};
}

function json(...args) {
  const r = run(...args);
  assert.equal(r.code, 0, `exit ${r.code}: ${r.err}`);
  return JSON.parse(r.out);
}

function scratchFile(name, text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ensemble-cli-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

test('help lists every command and an unknown one is a usage error', () => {
  const help = run('--help');
  assert.equal(help.code, 0);
  for (const line of ['calendar expand', 'calendar merge', 'transcript preview', 'transcript cues',
                      'format --refs', 'context packet', 'context item']) {
    assert.match(help.out, new RegExp(line));
  }
  const unknown = run('frobnicate');
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /unknown command "frobnicate"/);
});

test('calendar expand prints each occurrence in the window with its offset', () => {
  const events = json('calendar', 'expand', path.join(calendars, 'google_work.ics'),
                      '--from', '2026-03-01', '--to', '2026-03-04');
  assert.ok(events.length > 0);
  for (const e of events) {
    assert.deepEqual(Object.keys(e).sort(),
                     ['allDay', 'calendar', 'end', 'recurrenceId', 'start', 'summary', 'uid']);
    assert.equal(e.calendar, 'google_work.ics');
    if (!e.allDay) assert.match(e.start, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d([+-]\d\d:\d\d|Z)$/);
    assert.ok(e.start < '2026-03-04T23:59' && e.end > '2026-03-01');
  }
});

test('calendar merge joins copies of one event from several files', () => {
  const files = fs.readdirSync(calendars).filter((f) => f.endsWith('.ics'))
      .map((f) => path.join(calendars, f));
  const expanded = files.flatMap((f) => json('calendar', 'expand', f, '--from', '2026-01-01',
                                             '--to', '2026-12-31'));
  const merged = json('calendar', 'merge', ...files, '--from', '2026-01-01', '--to', '2026-12-31');
  assert.ok(merged.length > 0);
  const sources = merged.reduce((n, e) => n + e.sources.length, 0);
  assert.ok(sources <= expanded.length, `${sources} sources from ${expanded.length} copies`);
  assert.ok(merged.length < expanded.length, 'some copies were joined');
});

test('calendar refuses a file that is not iCalendar and a window without bounds', () => {
  const notIcs = run('calendar', 'expand', path.join(root, 'README.md'), '--from', '2026-03-01',
                     '--to', '2026-03-02');
  assert.notEqual(notIcs.code, 0);
  assert.match(notIcs.err, /BEGIN:VCALENDAR/);
  assert.equal(notIcs.out, '');
  const noWindow = run('calendar', 'expand', path.join(calendars, 'google_work.ics'));
  assert.notEqual(noWindow.code, 0);
  assert.match(noWindow.err, /--from and --to/);
  const missing = run('calendar', 'expand', '/nonexistent.ics', '--from', '2026-03-01', '--to', '2026-03-02');
  assert.notEqual(missing.code, 0);
  assert.match(missing.err, /nonexistent/);
});

test('transcript preview detects the format from the content, not the name', () => {
  const vtt = fs.readFileSync(path.join(transcripts, 'zoom.vtt'), 'utf8');
  const preview = json('transcript', 'preview', scratchFile('notes.txt', vtt));
  assert.equal(preview.format, 'zoom-vtt');
  assert.ok(preview.speakers.length > 0);
  assert.ok(preview.firstLines.length > 0 && preview.firstLines.length <= 6);
  const docx = json('transcript', 'preview', path.join(transcripts, 'meet-transcript.docx'));
  assert.equal(docx.format, 'google-meet');
});

test('transcript cues lists caption cues with times in seconds', () => {
  const cues = json('transcript', 'cues', path.join(transcripts, 'zoom.vtt'));
  assert.ok(cues.length > 1);
  for (const c of cues) {
    assert.equal(typeof c.start, 'number');
    assert.ok(c.end >= c.start);
    assert.equal(typeof c.text, 'string');
  }
  const plain = run('transcript', 'cues', path.join(transcripts, 'plain.txt'));
  assert.notEqual(plain.code, 0);
  assert.match(plain.err, /captions/);
});

test('transcript refuses a missing file and a broken docx', () => {
  const missing = run('transcript', 'preview', '/nonexistent.vtt');
  assert.notEqual(missing.code, 0);
  assert.match(missing.err, /cannot read/);
  const broken = run('transcript', 'preview', scratchFile('broken.docx', 'PK\u0003\u0004 not really a zip'));
  assert.notEqual(broken.code, 0);
  assert.ok(broken.err.length > 0);
});

test('format prints stdin with known ids as titles, linked or plain', () => {
  const refs = scratchFile('refs.json', JSON.stringify([
    {kind: 'task', id: '01JCTASK000000000000000001', label: 'Draft brief'}]));
  const text = 'Done: 01JCTASK000000000000000001, and `01JCTASK000000000000000001` in code.\n';
  const rich = spawnSync(bin, ['format', '--refs', refs], {input: text, encoding: 'utf8'});
  assert.equal(rich.status, 0, rich.stderr);
  assert.equal(rich.stdout, 'Done: [Draft brief](ensemble://task/01JCTASK000000000000000001), ' +
                            'and `01JCTASK000000000000000001` in code.\n');
  const plain = spawnSync(bin, ['format', '--refs', refs, '--plain'], {input: text, encoding: 'utf8'});
  assert.equal(plain.stdout, 'Done: Draft brief, and `01JCTASK000000000000000001` in code.\n');
  const badRefs = run('format', '--refs', scratchFile('bad.json', '[{"kind":"task"}]'));
  assert.notEqual(badRefs.code, 0);
  assert.match(badRefs.err, /refs\[0\]/);
  assert.equal(run('format').code, 2);
});

test('route prints the guides and tools a message gets', () => {
  const simple = json('route', 'Add a task to call Mira tomorrow');
  assert.deepEqual(simple, {
    guides: [], simpleTodo: true,
    tools: ['hub_how_to', 'hub_create_tasks', 'hub_list_tasks', 'hub_list_people', 'hub_list_projects'],
  });
  const board = json('route', 'move this task to Done',
                     '--surface', JSON.stringify({path: '/board/01JCBOARD', customBoard: true}));
  assert.deepEqual(board.guides, ['tasks', 'boards']);
  assert.equal(board.simpleTodo, false);
  assert.deepEqual(board.tools.slice(0, 2), ['hub_how_to', 'hub_search_work']);
  assert.ok(board.tools.includes('hub_move_to_board'));
  const app = json('route', 'Find the Confluence page about onboarding',
                   '--apps', JSON.stringify([{catalogName: 'Jira & Confluence', id: 'jira'}]),
                   '--mentions', JSON.stringify([{kind: 'page', id: '01JCPAGE', label: 'Onboarding'}]));
  assert.deepEqual(app.guides, ['pages', 'apps']);
  assert.match(run('--help').out, /route "MESSAGE"/);
});

test('route with toolsets off offers every allowed tool, from the flag or the environment', () => {
  const allowed = JSON.stringify(['hub_list_boards', 'hub_how_to', 'apps_read']);
  const want = ['hub_how_to', 'apps_read', 'hub_list_boards'];
  assert.deepEqual(json('route', 'hello', '--allowed', allowed, '--toolsets-off').tools, want);
  const env = spawnSync(bin, ['route', 'hello', '--allowed', allowed],
                        {encoding: 'utf8', env: {...process.env, ENSEMBLE_ASSISTANT_TOOLSETS: 'off'}});
  assert.equal(env.status, 0, env.stderr);
  assert.deepEqual(JSON.parse(env.stdout).tools, want);
  assert.deepEqual(json('route', 'hello', '--allowed', allowed).tools, ['hub_how_to']);
});

test('route refuses bad input with a readable message', () => {
  assert.equal(run('route').code, 2);
  assert.equal(run('route', 'x', '--frob').code, 2);
  const badJson = run('route', 'x', '--mentions', '[{');
  assert.equal(badJson.code, 1);
  assert.match(badJson.err, /--mentions: not valid JSON/);
  const badField = run('route', 'x', '--apps', '[{"name": "Jira"}]');
  assert.equal(badField.code, 1);
  assert.match(badField.err, /apps\[0\] has an unknown key 'name'/);
  assert.equal(badField.out, '');
});

test('plan gives the local planner\'s next step: validated calls, or a plain reply', () => {
  const add = json('plan', 'add a task to call Mira tomorrow', '--today', '2026-11-30');
  assert.equal(add.final, false);
  assert.deepEqual(add.calls, [
    {name: 'hub_create_tasks', args: {tasks: [{title: 'Call Mira', due: '2026-12-01'}]}},
  ]);
  const other = json('plan', 'move the meeting to Friday', '--today', '2026-11-30');
  assert.equal(other.needsModel, true);
  assert.deepEqual(other.calls, []);
  assert.match(other.reply, /set up a model in Settings/);
});

test('plan refuses a missing message or a bad date', () => {
  assert.equal(run('plan').code, 2);
  const badDate = run('plan', 'add a task', '--today', 'nope');
  assert.equal(badDate.code, 1);
  assert.match(badDate.err, /today must be a date, YYYY-MM-DD/);
});
