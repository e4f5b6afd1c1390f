// The assistant dock against the fake model: under the preview write policy
// a turn proposes adding a task, the proposal sits in a dashed card, Apply
// runs it on the server, the new task arrives in the task list through sync,
// and Undo takes it back; Apply all runs every waiting call; under the
// immediate policy a write runs at once and its Undo is in the dock.

import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import {after, before, test} from 'node:test';

import {byTestId, expectText, screenshot, startApp} from './app_harness.mjs';
import {repoRoot, tempDir} from '../../tools/lib/harness.mjs';

const kKey = 'sk-e2e-dock-0001';

async function startFakeModel(scenario) {
  const dir = tempDir('ensemble-e2e-model-');
  const file = path.join(dir, 'scenario.json');
  fs.writeFileSync(file, JSON.stringify(scenario));
  const child = spawn(process.execPath, [path.join(repoRoot, 'tools', 'fake-model', 'fake_model.mjs'), file],
                      {stdio: ['pipe', 'pipe', 'inherit']});
  const {port} = await new Promise((resolve) => {
    readline.createInterface({input: child.stdout}).once('line', (line) => resolve(JSON.parse(line)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    stop() {
      child.stdin.end();
      child.kill('SIGTERM');
      fs.rmSync(dir, {recursive: true, force: true});
    },
  };
}

let model;
let app;

before(async () => {
  model = await startFakeModel({
    requireKey: kKey,
    responses: [
      {match: 'call Ana', afterTool: false,
       toolCalls: [{id: 'call_ana', name: 'hub_create_tasks', arguments: {tasks: [{title: 'Call Ana'}]}}]},
      {match: 'call Ana', afterTool: true, text: ['Added Call Ana.']},
      {match: 'looking at', afterTool: false,
       toolCalls: [{id: 'call_view', name: 'hub_read_surface', arguments: {}}]},
      {match: 'looking at', afterTool: true, text: ['Your task list.']},
      {match: 'two calls', afterTool: false,
       toolCalls: [{id: 'call_b1', name: 'hub_create_tasks', arguments: {tasks: [{title: 'Call Bo'}]}},
                   {id: 'call_b2', name: 'hub_create_tasks', arguments: {tasks: [{title: 'Call Cy'}]}}]},
      {match: 'two calls', afterTool: true, text: ['Proposed two calls.']},
      {match: 'add a task', afterTool: false,
       toolCalls: [{id: 'call_add', name: 'hub_create_tasks', arguments: {tasks: [{title: 'Call Mira'}]}}]},
      {match: 'add a task', afterTool: true, text: ['Proposed: ', 'Call Mira.']},
      {text: 'Done.'},
    ],
  });
  app = await startApp({env: {
    ENSEMBLE_MODEL_PROVIDER: 'openai', ENSEMBLE_MODEL_BASE_URL: model.baseUrl,
    ENSEMBLE_MODEL: 'fake-model', ENSEMBLE_MODEL_API_KEY: kKey,
  }});
  const res = await fetch(`${app.server.url}/api/settings`, {
    method: 'PATCH', headers: {'content-type': 'application/json'},
    body: JSON.stringify({assistant: {writePolicy: 'preview'}}),
  });
  assert.equal(res.status, 200, await res.text());
});

after(async () => {
  await app?.close();
  model?.stop();
});

test('a proposed task is applied from the dock and shows in the task list', {timeout: 90000}, async () => {
  const {page, query} = app;
  const liveTasks = () => Number(query("SELECT COUNT(*) FROM tasks WHERE title = 'Call Mira' AND deleted = 0"));
  await page.fill(byTestId('dock-input'), 'Please add a task to call Mira');
  await page.press(byTestId('dock-input'), 'Enter');

  // The user's message, then the reply with its proposal in the dashed card.
  await page.locator(byTestId('user-message'), {hasText: 'call Mira'}).waitFor();
  const card = page.locator(byTestId('proposal-card'));
  await card.waitFor({timeout: 20000});
  assert.match(await card.textContent(), /Nothing changes until you apply/);
  const proposal = card.locator(byTestId('proposal'));
  assert.match(await proposal.textContent(), /Call Mira/);
  await page.waitForSelector(`${byTestId('reply')}[data-state="done"]`, {timeout: 20000});
  await expectText(page, byTestId('reply-text'), 'Proposed: Call Mira.');
  assert.equal(await page.textContent(byTestId('tool-summary')), '1 step');
  assert.equal(liveTasks(), 0, 'nothing changes before Apply');
  assert.equal(await page.locator(byTestId('task-row'), {hasText: 'Call Mira'}).count(), 0);

  // Apply, from the keyboard.
  await proposal.locator(byTestId('proposal-apply')).focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${byTestId('proposal')}[data-outcome="succeeded"]`, {timeout: 20000});
  const row = page.locator(byTestId('task-row'), {hasText: 'Call Mira'});
  await row.waitFor({timeout: 20000});
  assert.equal(liveTasks(), 1, 'the server has the task');
  assert.match(await page.textContent(byTestId('tool-summary')), /1 step · 1 change/);
  await screenshot(page, 'assistant_dock-applied');

  // Undo on the applied row takes it back, on the server and in the list.
  await proposal.locator(byTestId('proposal-undo')).click();
  await page.waitForSelector(`${byTestId('proposal')}[data-outcome="undone"]`, {timeout: 20000});
  await row.waitFor({state: 'detached', timeout: 20000});
  assert.equal(liveTasks(), 0, 'Undo removed the task on the server');
  await screenshot(page, 'assistant_dock-undone');

  // The conversation is still there after a reload.
  await page.reload();
  await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
  await page.locator(byTestId('user-message'), {hasText: 'call Mira'}).waitFor();
  await expectText(page, byTestId('reply-text'), 'Proposed: Call Mira.');
  // ...and the call shows how it stands now (undone, so Redo), not as the
  // turn left it (waiting for Apply).
  const reloaded = page.locator(byTestId('proposal'), {hasText: 'Call Mira'});
  await reloaded.waitFor();
  assert.equal(await reloaded.getAttribute('data-outcome'), 'undone');
  assert.equal(await reloaded.locator(byTestId('proposal-redo')).count(), 1);
  assert.equal(await reloaded.locator(byTestId('proposal-apply')).count(), 0);
  assert.deepEqual(app.pageErrors, []);
});

test('Apply all runs every waiting call of the card', {timeout: 90000}, async () => {
  const {page, query} = app;
  await page.fill(byTestId('dock-input'), 'Plan two calls for me');
  await page.press(byTestId('dock-input'), 'Enter');
  const card = page.locator(byTestId('proposal-card'), {hasText: 'Call Bo'});
  // The card grows as the turn streams its calls: count them once it is done.
  await page.locator(`${byTestId('reply')}[data-state="done"]`, {hasText: 'Proposed two calls.'})
      .waitFor({timeout: 20000});
  await card.waitFor({timeout: 20000});
  assert.equal(await card.locator(byTestId('proposal')).count(), 2);
  await card.locator(byTestId('proposal-apply-all')).click();
  await card.locator(`${byTestId('proposal')}[data-outcome="succeeded"]`).nth(1).waitFor({timeout: 20000});
  assert.equal(Number(query("SELECT COUNT(*) FROM tasks WHERE title IN ('Call Bo', 'Call Cy') AND deleted = 0")), 2);
  await page.locator(byTestId('task-row'), {hasText: 'Call Cy'}).waitFor({timeout: 20000});
  await screenshot(page, 'assistant_dock-apply-all');
});

test('the assistant reads the view beside the chat', {timeout: 90000}, async () => {
  const {page} = app;
  await page.fill(byTestId('dock-input'), 'What am I looking at?');
  await page.press(byTestId('dock-input'), 'Enter');
  const reply = page.locator(byTestId('reply')).last();
  await reply.locator(byTestId('reply-text'), {hasText: 'Your task list.'}).waitFor({timeout: 20000});
  await reply.locator(byTestId('tool-summary')).click();
  const row = reply.locator(`${byTestId('tool-row')}[data-name="hub_read_surface"]`);
  assert.match(await row.textContent(), /The open view is \/tasks: 2 tasks shown/);
});

test('a write that runs at once keeps its Undo in the dock', {timeout: 90000}, async () => {
  const {page, query} = app;
  const res = await fetch(`${app.server.url}/api/settings`, {
    method: 'PATCH', headers: {'content-type': 'application/json'},
    body: JSON.stringify({assistant: {writePolicy: 'immediate'}}),
  });
  assert.equal(res.status, 200, await res.text());
  const liveAna = () => Number(query("SELECT COUNT(*) FROM tasks WHERE title = 'Call Ana' AND deleted = 0"));
  await page.fill(byTestId('dock-input'), 'Remember to call Ana');
  await page.press(byTestId('dock-input'), 'Enter');
  const card = page.locator(byTestId('proposal-card'), {hasText: 'Call Ana'});
  await card.waitFor({timeout: 20000});
  assert.match(await card.textContent(), /Done at once/);
  assert.equal(liveAna(), 1, 'the write ran at once');
  const row = page.locator(byTestId('task-row'), {hasText: 'Call Ana'});
  await row.waitFor({timeout: 20000});
  await card.locator(byTestId('proposal-undo')).click();
  await card.locator(`${byTestId('proposal')}[data-outcome="undone"]`).waitFor({timeout: 20000});
  await row.waitFor({state: 'detached', timeout: 20000});
  assert.equal(liveAna(), 0, 'Undo removed it on the server');
  await screenshot(page, 'assistant_dock-undo-at-once');
  assert.deepEqual(app.pageErrors, []);
});
