// Needs me, Routines and the top bar's assistant activity pill (issue 28),
// sharing one app against the fake model under the needs-me write policy:
// the pill says Idle, Unavailable with Retry when its check fails, and
// Working while a slow turn runs; a proposed task waits on Needs me (with a
// count on the nav item) until Apply creates it on the server; routines are
// created, edited without losing typed text, paused, resumed, show their
// replies, and are deleted with a confirm and Undo.

import assert from 'node:assert/strict';
import {execFileSync, spawn} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import {after, before, test} from 'node:test';

import {byTestId, expectText, pushAsOtherDevice, screenshot, seriousAxeViolations, startApp,
        synced} from './app_harness.mjs';
import {repoRoot, tempDir} from '../../tools/lib/harness.mjs';

const kKey = 'sk-e2e-needs-me-0001';

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

async function api(method, route, body) {
  const res = await fetch(`${app.server.url}${route}`, {
    method, headers: body ? {'content-type': 'application/json'} : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${route}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

before(async () => {
  model = await startFakeModel({
    requireKey: kKey,
    responses: [
      {match: 'call Mira', afterTool: false,
       toolCalls: [{id: 'call_mira', name: 'hub_create_tasks', arguments: {tasks: [{title: 'Call Mira'}]}}]},
      {match: 'call Mira', afterTool: true, text: ['It waits for you on Needs me.']},
      {match: 'think slowly', text: ['Thinking', ' it over', ' slowly.'], delayMs: 800},
      {text: 'Done.'},
    ],
  });
  app = await startApp({env: {
    ENSEMBLE_MODEL_PROVIDER: 'openai', ENSEMBLE_MODEL_BASE_URL: model.baseUrl,
    ENSEMBLE_MODEL: 'fake-model', ENSEMBLE_MODEL_API_KEY: kKey,
  }});
  await api('PATCH', '/api/settings', {assistant: {writePolicy: 'needs-me'}});
});

after(async () => {
  await app?.close();
  model?.stop();
});

const pill = byTestId('activity-pill');

test('the activity pill: Idle, Unavailable with Retry, Working during a turn', {timeout: 60000}, async () => {
  const {page} = app;
  await page.waitForSelector(`${pill}[data-state="idle"]`, {timeout: 15000});
  assert.equal(await page.textContent(pill), 'Idle');
  assert.equal(await page.isVisible(byTestId('activity-retry')), false);

  // The check fails: Unavailable, with Retry.
  await page.route('**/api/assistant/activity', (route) => route.fulfill({status: 503, body: 'down'}));
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await page.waitForSelector(`${pill}[data-state="unavailable"]`, {timeout: 15000});
  assert.equal(await page.textContent(pill), 'Unavailable');
  await screenshot(page, 'activity-unavailable', {fullPage: false});

  // The server answers again; Retry (from the keyboard) brings the pill back.
  await page.unroute('**/api/assistant/activity');
  await page.focus(byTestId('activity-retry'));
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${pill}[data-state="idle"]`, {timeout: 15000});
  assert.equal(await page.isVisible(byTestId('activity-retry')), false);

  // A slow turn from the dock shows as Working while it runs, Idle after.
  await page.fill(byTestId('dock-input'), 'Please think slowly');
  await page.press(byTestId('dock-input'), 'Enter');
  await page.waitForSelector(`${pill}[data-state="working"]`, {timeout: 15000});
  assert.equal(await page.textContent(pill), 'Working (1)');
  await screenshot(page, 'activity-working', {fullPage: false});
  await page.locator(`${byTestId('reply')}[data-state="done"]`, {hasText: 'slowly.'}).waitFor({timeout: 20000});
  await page.waitForSelector(`${pill}[data-state="idle"]`, {timeout: 15000});
  assert.deepEqual(app.pageErrors, []);
});

test('Pause stops the turn and holds new ones until Resume', {timeout: 60000}, async () => {
  const {page} = app;
  const pause = byTestId('activity-pause');
  await page.waitForSelector(`${pill}[data-state="idle"]`, {timeout: 15000});
  assert.equal(await page.isVisible(pause), false, 'nothing to pause while idle');
  const replies = page.locator(byTestId('reply'));
  const before = await replies.count();
  await page.fill(byTestId('dock-input'), 'Please think slowly');
  await page.press(byTestId('dock-input'), 'Enter');
  await page.waitForSelector(`${pause}:has-text("Pause")`, {timeout: 15000});
  await page.click(pause);
  await page.waitForSelector(`${pill}[data-state="paused"]`, {timeout: 15000});
  await expectText(page, pause, 'Resume');
  await replies.nth(before).locator('.reply-error', {hasText: 'Stopped.'}).waitFor();
  assert.equal(await replies.nth(before).textContent().then((t) => t.includes('slowly.')), false,
               'the paused turn did not run to its end');
  assert.deepEqual((await api('GET', '/api/assistant/activity')).paused, true);

  // While paused nothing is sent, and the words go back in the box.
  await page.fill(byTestId('dock-input'), 'Please think slowly again');
  await page.press(byTestId('dock-input'), 'Enter');
  await replies.nth(before + 1).locator('.reply-error', {hasText: 'The assistant is paused.'}).waitFor();
  assert.equal(await page.inputValue(byTestId('dock-input')), 'Please think slowly again');
  assert.deepEqual(await seriousAxeViolations(page), []);
  await screenshot(page, 'activity-paused', {fullPage: false});

  await page.focus(pause);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${pill}[data-state="idle"]`, {timeout: 15000});
  assert.equal(await page.isVisible(pause), false);
  await page.press(byTestId('dock-input'), 'Enter');
  await page.locator(`${byTestId('reply')}[data-state="done"]`, {hasText: 'slowly.'}).nth(1)
      .waitFor({timeout: 20000});
  assert.deepEqual(app.pageErrors, []);
});

test('a proposed task waits on Needs me until Apply creates it', {timeout: 60000}, async () => {
  const {page, query} = app;
  const liveTasks = () => Number(query("SELECT COUNT(*) FROM tasks WHERE title = 'Call Mira' AND deleted = 0"));
  await page.fill(byTestId('dock-input'), 'Please add a task to call Mira');
  await page.press(byTestId('dock-input'), 'Enter');
  await page.locator(`${byTestId('reply')}[data-state="done"]`, {hasText: 'waits for you'})
      .waitFor({timeout: 20000});
  assert.equal(liveTasks(), 0, 'nothing changes before Apply');

  // The nav item counts it; the view says what it would do and where.
  await expectText(page, byTestId('needs-me-count'), '1', 15000);
  await page.click(byTestId('nav-needs-me'));
  const item = page.locator(byTestId('needs-me-item'));
  await item.waitFor({timeout: 15000});
  assert.equal(await item.count(), 1);
  assert.match(await item.locator(byTestId('needs-me-call')).textContent(), /Call Mira/);
  assert.match(await item.textContent(), /Asked in the chat/);
  assert.deepEqual(await seriousAxeViolations(page), []);
  await screenshot(page, 'needs-me-waiting');

  await item.locator(byTestId('needs-me-apply')).click();
  await page.waitForSelector(byTestId('needs-me-empty'), {timeout: 20000});
  assert.equal(liveTasks(), 1, 'Apply created the task on the server');
  assert.equal(await page.isVisible(byTestId('needs-me-count')), false);
  await page.locator(byTestId('toast'), {hasText: 'Call Mira'}).waitFor();
  // The chat's card agrees: applied, no Apply left to press.
  const card = page.locator(byTestId('reply')).last().locator(byTestId('proposal'));
  await page.locator(`${byTestId('reply')}:last-child ${byTestId('proposal')}[data-outcome="succeeded"]`)
      .waitFor();
  assert.equal(await card.locator(byTestId('proposal-apply')).count(), 0);
  await screenshot(page, 'needs-me-applied');
  const {approvals} = await api('GET', '/api/assistant/approvals');
  assert.deepEqual(approvals, []);
});

test('a waiting change is dismissed after a one-line confirm, and never made', {timeout: 60000},
     async () => {
  const {page, query} = app;
  const made = () => Number(query("SELECT COUNT(*) FROM tasks WHERE title = 'Call Mira'"));
  const before = made();
  await page.fill(byTestId('dock-input'), 'Please add a task to call Mira');
  await page.press(byTestId('dock-input'), 'Enter');
  await expectText(page, byTestId('needs-me-count'), '1', 20000);
  await page.click(byTestId('nav-needs-me'));
  const item = page.locator(byTestId('needs-me-item'));
  await item.waitFor({timeout: 15000});

  await item.locator(byTestId('needs-me-dismiss')).click();
  await item.locator(byTestId('needs-me-dismiss-confirm')).waitFor();
  assert.deepEqual(await seriousAxeViolations(page), [], 'with the confirm open');
  await screenshot(page, 'needs-me-dismiss-confirm');
  await page.keyboard.press('Enter');  // The focus is on Keep it.
  await item.locator(byTestId('needs-me-apply')).waitFor();
  assert.equal(await item.locator(byTestId('needs-me-dismiss')).evaluate((b) => b === document.activeElement),
               true, 'Keep it gives the focus back to Dismiss');
  await item.locator(byTestId('needs-me-dismiss')).click();
  await item.locator(byTestId('needs-me-dismiss-confirm')).click();
  await page.waitForSelector(byTestId('needs-me-empty'), {timeout: 20000});
  await page.locator(byTestId('toast'), {hasText: 'Dismissed: '}).waitFor();
  assert.equal(await page.isVisible(byTestId('needs-me-count')), false);
  assert.deepEqual((await api('GET', '/api/assistant/approvals')).approvals, []);
  assert.equal(made(), before, 'nothing was made');
  // The chat's card says so, now and after a reload.
  const card = `${byTestId('reply')}:last-child ${byTestId('proposal')}`;
  await page.locator(`${card}[data-outcome="discarded"]`).waitFor();
  assert.equal(await page.locator(`${card} ${byTestId('proposal-apply')}`).count(), 0);
  await page.reload();
  await page.locator(`${card}[data-outcome="discarded"]`).waitFor({timeout: 20000});
  assert.deepEqual(app.pageErrors, []);
});

test('routines: create, edit without losing text, pause, resume, replies, delete with Undo',
     {timeout: 60000}, async () => {
  const {page, query} = app;
  const row = (title) => JSON.parse(query(
    `SELECT json_object('id', id, 'title', title, 'instruction', instruction, 'schedule', json(schedule),
                        'paused', paused, 'deleted', deleted) FROM routines WHERE title = '${title}'`) || 'null');
  await page.click(byTestId('nav-routines'));
  await page.waitForSelector(byTestId('routines-empty'));

  // Bad input says what is wrong and creates nothing.
  await page.fill(byTestId('new-routine-title'), 'Weekly review');
  await page.click(byTestId('new-routine'));
  await expectText(page, byTestId('routines-message'), 'Say what the assistant should do.');

  await page.fill(byTestId('new-routine-instruction'), 'List what is due next week.');
  await page.selectOption(byTestId('new-routine-frequency'), 'weekly');
  await page.selectOption(byTestId('new-routine-day-of-week'), 'wed');
  await page.fill(byTestId('new-routine-time'), '08:30');
  await page.click(byTestId('new-routine'));
  const item = page.locator(byTestId('routine-item'), {hasText: 'Weekly review'});
  await item.waitFor();
  assert.equal(await item.locator(byTestId('routine-schedule')).textContent(), 'Every Wednesday at 08:30');
  assert.match(await item.locator(byTestId('routine-next')).textContent(), /^next Wed/);
  assert.equal(await page.inputValue(byTestId('new-routine-title')), '', 'the form is ready for another');
  await synced(page);
  const made = row('Weekly review');
  assert.deepEqual(made.schedule, {frequency: 'weekly', dayOfWeek: 'wed', time: '08:30'});
  assert.equal(made.instruction, 'List what is due next week.');
  assert.equal(made.paused, 0);
  assert.deepEqual(await seriousAxeViolations(page), []);
  await screenshot(page, 'routines-list');

  // Edit: a change from another device lands while the person types; what
  // they typed stays, the other field takes the other change.
  await item.locator('a').click();
  await page.waitForSelector(byTestId('routine-form'));
  await page.fill(byTestId('routine-instruction'), 'List what is due next week, by project.');
  await pushAsOtherDevice(app.server, [{name: 'routine.update',
                                        args: {id: made.id, fields: {title: 'Weekly plan'}}}]);
  await page.evaluate(() => window.ensemble.rpc('syncNow'));
  await expectText(page, byTestId('routine-heading'), 'Weekly plan', 15000);
  assert.equal(await page.inputValue(byTestId('routine-instruction')), 'List what is due next week, by project.');
  assert.equal(await page.inputValue(byTestId('routine-title')), 'Weekly plan');
  await page.selectOption(byTestId('routine-frequency'), 'weekdays');
  await page.click(byTestId('routine-save'));
  await expectText(page, byTestId('routines-message'), 'Saved.');
  await synced(page);
  const edited = row('Weekly plan');
  assert.equal(edited.instruction, 'List what is due next week, by project.');
  assert.deepEqual(edited.schedule, {frequency: 'weekdays', time: '08:30'});

  // Pause and resume, each with a toast.
  await page.click(`${byTestId('routine-pause')}[data-paused="false"]`);
  await page.locator(byTestId('toast'), {hasText: 'Paused “Weekly plan”'}).waitFor();
  await page.waitForSelector(byTestId('routine-paused'));
  await synced(page);
  assert.equal(row('Weekly plan').paused, 1);
  // From the keyboard: the focus stays on the button as it flips.
  await page.focus(byTestId('routine-pause'));
  await page.keyboard.press('Enter');
  await page.locator(byTestId('toast'), {hasText: 'Resumed “Weekly plan”'}).waitFor();
  await page.waitForSelector(`${byTestId('routine-pause')}[data-paused="false"]`);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'routine-pause');
  await synced(page);
  assert.equal(row('Weekly plan').paused, 0);

  // Its replies: the chat its runs answer in, found by the routine's id
  // (the run is recorded as the server's scheduler records it), not by its
  // title: this one was named before the routine was renamed.
  await page.waitForSelector(byTestId('routine-replies-empty'));
  const chat = await api('POST', '/api/assistant/conversations', {spaceId: 'personal', title: 'Plan'});
  execFileSync('sqlite3', [path.join(app.dataDir, 'ensemble.db'),
    `INSERT INTO routine_runs (routine_id, last_run_at, conversation_id)
     VALUES ('${row('Weekly plan').id}', ${Date.now()}, '${chat.id}')`]);
  await api('POST', `/api/assistant/conversations/${chat.id}/exchanges`, {exchanges: [
    {id: '01JB0000000000000000000RX1', message: 'List what is due next week, by project.',
     reply: 'Three tasks are due next week.', at: Date.now()},
  ]});
  await page.click(byTestId('routine-replies-refresh'));
  const reply = page.locator(`${byTestId('routine-reply')}[data-role="assistant"]`);
  await reply.waitFor();
  assert.match(await reply.textContent(), /Three tasks are due next week\./);
  assert.deepEqual(await seriousAxeViolations(page), []);
  await screenshot(page, 'routines-detail');

  // Delete asks first; Undo brings it back.
  await page.click(byTestId('routine-delete'));
  await page.click(byTestId('routine-delete-confirm'));
  await page.waitForSelector(byTestId('routines-empty'));
  await synced(page);
  assert.equal(row('Weekly plan').deleted, 1);
  await page.locator(byTestId('toast'), {hasText: 'Deleted the routine'}).locator(byTestId('toast-undo')).click();
  await page.locator(byTestId('routine-item'), {hasText: 'Weekly plan'}).waitFor();
  await synced(page);
  assert.equal(row('Weekly plan').deleted, 0);
  assert.deepEqual(app.pageErrors, []);
});
