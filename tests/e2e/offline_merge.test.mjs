// An offline edit that merges after reconnect: offline, the person renames a
// task and sets its labels while another device sets its due date and
// priority; back online, both sides' fields are on the server and on screen,
// with nothing reported as a conflict.

import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {
  addTask, byTestId, expectText, pushAsOtherDevice, screenshot, startApp, synced,
} from './app_harness.mjs';

let app;

before(async () => {
  app = await startApp();
});

after(async () => {
  await app?.close();
});

test('fields edited on two sides merge after reconnect', {timeout: 90000}, async () => {
  const {page, browser, server, query} = app;
  const row = await addTask(page, 'Plan the offsite');
  await synced(page);
  const id = await row.getAttribute('data-id');

  await browser.context.setOffline(true);
  await expectText(page, byTestId('connection-state'), 'Offline');
  // Mine: the title inline, labels in the details editor.
  await row.locator(byTestId('task-title')).click();
  await row.locator(byTestId('task-title-input')).fill('Plan the spring offsite');
  await row.locator(byTestId('task-title-input')).press('Enter');
  await row.locator(byTestId('task-edit')).click();
  await row.locator(byTestId('task-labels-input')).fill('team, travel');
  await row.locator(byTestId('task-save')).click();
  await expectText(page, byTestId('pending-count'), '2');

  // Theirs: the due date and the priority.
  const results = await pushAsOtherDevice(server, [
    {name: 'task.update', args: {id, fields: {due: '2027-03-01', priority: 'high'},
                                 base: {due: null, priority: 'none'}}},
  ]);
  assert.equal(results[0].status, 'applied');

  await browser.context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expectText(page, byTestId('pending-count'), '0', 30000);
  await synced(page);

  assert.equal(query(`SELECT title || '|' || due || '|' || priority || '|' || labels FROM tasks WHERE id = '${id}'`),
               'Plan the spring offsite|2027-03-01|high|["team","travel"]');
  const rowSel = `[data-id="${id}"]`;
  await expectText(page, `${rowSel} ${byTestId('task-title')}`, 'Plan the spring offsite');
  await page.waitForFunction((sel) => /2027/.test(document.querySelector(sel)?.textContent ?? ''),
                             `${rowSel} ${byTestId('task-due')}`);
  assert.equal(await page.textContent(`${rowSel} ${byTestId('task-priority')}`), 'High');
  assert.deepEqual(await page.locator(`${rowSel} ${byTestId('task-label')}`).allTextContents(),
                   ['team', 'travel']);
  assert.equal(await page.locator(byTestId('problem')).count(), 0, 'no conflict reported');
  await screenshot(page, 'offline_merge');
  await page.setViewportSize({width: 390, height: 844});
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
  assert.equal(overflow, false, 'nothing scrolls sideways at 390 px');
  await screenshot(page, 'offline_merge-390');
  assert.deepEqual(app.pageErrors, []);
});
