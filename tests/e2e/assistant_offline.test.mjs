// The assistant offline: with the server down, the built-in planner answers
// in the browser over this device's copy (core/assistant/local_turn.h
// through the wasm module); its write waits in the outbox and reaches the
// server when it is back, and under the saved preview policy the write waits
// in the dock for Apply. The exchanges themselves reach the conversation on
// the server once it is back. A task picked from the @-menu is changed by its
// id offline: "mark @Renew passport as done" completes that very task.

import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {byTestId, expectText, screenshot, seriousAxeViolations, startApp, synced} from './app_harness.mjs';

let app;

before(async () => {
  app = await startApp();
});

after(async () => {
  await app?.close();
});

async function ask(page, text) {
  const before = await page.locator(byTestId('reply')).count();
  await page.fill(byTestId('dock-input'), text);
  await page.press(byTestId('dock-input'), 'Enter');
  const reply = page.locator(byTestId('reply')).nth(before);
  await answered(reply);
  return reply;
}

// The offline note shows when the planner has answered; the text follows once
// the worker has formatted it (its records as links).
async function answered(reply) {
  await reply.locator(`${byTestId('reply-offline')}:not([hidden])`).waitFor();
  await reply.locator(`${byTestId('reply-text')}:not(:empty)`).waitFor();
}

test('offline, the built-in planner answers in the browser and its writes sync later',
     async () => {
  const {page, server, query} = app;
  await page.waitForSelector(`${byTestId('app')}[data-offline-ready="true"]`, {timeout: 20000});
  await server.stop();
  await expectText(page, byTestId('connection-state'), 'Offline', 20000);

  const added = await ask(page, 'add a task to call Mira tomorrow');
  assert.match(await added.locator(byTestId('reply-text')).textContent(), /Call Mira/);
  await page.locator(byTestId('task-row'), {hasText: 'Call Mira'}).waitFor();
  await expectText(page, byTestId('pending-count'), '1');

  // Undo queues the write's reverse, on this device too.
  const undone = await ask(page, 'add a task to water the plants');
  await page.locator(byTestId('task-row'), {hasText: 'Water the plants'}).waitFor();
  await undone.locator(byTestId('proposal-undo')).click();
  await page.locator(byTestId('task-row'), {hasText: 'Water the plants'})
    .waitFor({state: 'detached'});
  await expectText(page, byTestId('pending-count'), '3');

  // A read answers from this device's copy.
  const listed = await ask(page, 'what are my tasks');
  assert.match(await listed.locator(byTestId('reply-text')).textContent(), /Call Mira/);

  // Under the preview policy (as last read from the server) the write waits here.
  await page.evaluate(() => localStorage.setItem('ensemble-assistant-settings',
                                                 JSON.stringify({writePolicy: 'preview'})));
  const held = await ask(page, 'add a task to review the budget');
  await held.locator(byTestId('proposal')).waitFor();
  assert.match(await held.locator(byTestId('reply-text')).textContent(), /Waiting for your Apply/);
  assert.equal(await page.locator(byTestId('task-row'), {hasText: 'Review the budget'}).count(), 0);
  await screenshot(page, 'assistant-offline');
  await held.locator(byTestId('proposal-apply')).click();
  await held.locator(`${byTestId('proposal')}[data-outcome="succeeded"]`).waitFor();
  await page.locator(byTestId('task-row'), {hasText: 'Review the budget'}).waitFor();
  await expectText(page, byTestId('pending-count'), '4');

  // Back online, both reach the server once.
  await server.start();
  await expectText(page, byTestId('pending-count'), '0', 30000);
  const titles = query("SELECT title FROM tasks WHERE deleted = 0 ORDER BY title")
    .trim().split('\n');
  assert.deepEqual(titles, ['Call Mira', 'Review the budget']);

  // The exchanges reach the conversation on the server, once, in order,
  // and the dock shows them from there after a reload.
  const asked = ['add a task to call Mira tomorrow', 'add a task to water the plants',
                 'what are my tasks', 'add a task to review the budget'];
  const saved = () => query("SELECT role || ':' || replace(text, char(10), ' ') FROM assistant_messages ORDER BY seq")
    .trim().split('\n').filter(Boolean);
  for (let i = 0; i < 100 && saved().length < 8; ++i) await page.waitForTimeout(200);
  const messages = saved();
  assert.equal(messages.length, 8, messages.join('\n'));
  assert.deepEqual(messages.filter((m) => m.startsWith('user:')), asked.map((t) => `user:${t}`));
  assert.match(messages[1], /^assistant:.*Call Mira/);
  assert.match(messages[7], /^assistant:Waiting for your Apply/);
  // The device drops its copy once the server has answered.
  await page.waitForFunction(() => localStorage.getItem('ensemble-offline-exchanges:personal') === null,
                             null, {timeout: 10000});
  await page.reload();
  await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
  await page.locator(byTestId('user-message')).nth(3).waitFor();
  assert.deepEqual(await page.$$eval(byTestId('user-message'), (m) => m.map((x) => x.textContent)),
                   asked);
  assert.equal(saved().length, 8, 'nothing is saved twice');
  assert.deepEqual(app.pageErrors, []);
});

test('offline, a task picked from the @-menu is marked done by its id', async () => {
  const {page, server, query} = app;
  // Two tasks with the same title: only the mention's id tells them apart.
  await page.click(byTestId('nav-tasks'));
  for (let i = 0; i < 2; ++i) {
    await page.fill(byTestId('new-task-title'), 'Renew passport');
    await page.press(byTestId('new-task-title'), 'Enter');
    await page.locator(byTestId('task-row'), {hasText: 'Renew passport'}).nth(i).waitFor();
  }
  await synced(page);
  // The first test left the preview policy: this write runs at once.
  await page.evaluate(() => localStorage.setItem('ensemble-assistant-settings',
                                                 JSON.stringify({writePolicy: 'immediate'})));
  await server.stop();
  let picked;
  try {
    await expectText(page, byTestId('connection-state'), 'Offline', 20000);
    await page.fill(byTestId('dock-input'), 'mark @Renew');
    const options = page.locator(byTestId('mention-option'), {hasText: 'Renew passport'});
    await options.nth(1).waitFor();
    await options.nth(1).click();
    const chip = page.locator(byTestId('mention-chip'));
    picked = await chip.getAttribute('data-id');
    assert.match(picked, /^[0-9A-Z]{26}$/);
    await page.keyboard.type('as done');
    assert.equal(await page.inputValue(byTestId('dock-input')), 'mark @Renew passport as done');
    const before = await page.locator(byTestId('reply')).count();
    await page.press(byTestId('dock-input'), 'Enter');
    const reply = page.locator(byTestId('reply')).nth(before);
    await answered(reply);
    assert.equal(await reply.locator(byTestId('reply-text')).textContent(),
                 'Marked \u201CRenew passport\u201D as done.');
    // Done, so in the Completed list (which may be folded).
    await page.waitForSelector(`${byTestId('task-row')}[data-id="${picked}"][data-status="done"]`,
                               {state: 'attached'});
    const other = page.locator(byTestId('task-row'), {hasText: 'Renew passport'})
      .and(page.locator(`:not([data-id="${picked}"])`));
    assert.notEqual(await other.getAttribute('data-status'), 'done', 'only the picked one');
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'assistant-offline-mention-done');
  } finally {
    await server.start();
  }
  await expectText(page, byTestId('pending-count'), '0', 30000);
  assert.equal(query(`SELECT status FROM tasks WHERE id = '${picked}'`).trim(), 'done');
  assert.equal(query(`SELECT COUNT(*) FROM tasks WHERE title = 'Renew passport' AND status = 'done'`)
    .trim(), '1');
  assert.deepEqual(app.pageErrors, []);
});
