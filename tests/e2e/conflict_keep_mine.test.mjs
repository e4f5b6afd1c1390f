// A conflict resolved in the app: the person renames a task offline while
// another device renames it on the server; the refused change is shown with
// "Keep mine" and "Take theirs", and "Keep mine" wins on the server.

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

async function conflictingRename(row, mine, theirs, was) {
  const {page, browser, server} = app;
  const id = await row.getAttribute('data-id');
  await browser.context.setOffline(true);
  await expectText(page, byTestId('connection-state'), 'Offline');
  await row.locator(byTestId('task-title')).click();
  await row.locator(byTestId('task-title-input')).fill(mine);
  await row.locator(byTestId('task-title-input')).press('Enter');
  await expectText(page, byTestId('pending-count'), '1');
  const results = await pushAsOtherDevice(server, [
    {name: 'task.update', args: {id, fields: {title: theirs}, base: {title: was}}},
  ]);
  assert.equal(results[0].status, 'applied');
  await browser.context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  return id;
}

test('"Keep mine" sends my change again and it wins on the server', {timeout: 90000}, async () => {
  const {page, query} = app;
  const row = await addTask(page, 'Pick a venue');
  await synced(page);
  const id = await conflictingRename(row, 'Pick the harbour hall', 'Pick the old mill', 'Pick a venue');

  const problem = page.locator(byTestId('problem'));
  await problem.waitFor({timeout: 20000});
  assert.equal(await problem.getAttribute('data-code'), 'SAVE_CONFLICT');
  assert.match(await problem.textContent(), /Pick the old mill/);
  await expectText(page, byTestId('conflict-count'), '1 conflict');
  await expectText(page, `[data-id="${id}"] ${byTestId('task-title')}`, 'Pick the old mill');

  await screenshot(page, 'conflict-shown');
  await problem.locator(byTestId('keep-mine')).click();
  await problem.waitFor({state: 'detached'});
  await expectText(page, `[data-id="${id}"] ${byTestId('task-title')}`, 'Pick the harbour hall');
  await synced(page);
  assert.equal(query(`SELECT title FROM tasks WHERE id = '${id}'`), 'Pick the harbour hall');
  assert.equal(await page.locator(byTestId('problem')).count(), 0);
  assert.equal(await page.isHidden(byTestId('conflict-count')), true);
  await screenshot(page, 'conflict-keep-mine');
});

test('"Take theirs" drops my change and keeps the server\'s', {timeout: 90000}, async () => {
  const {page, query} = app;
  const row = await addTask(page, 'Print badges');
  await synced(page);
  const id = await conflictingRename(row, 'Print name tags', 'Print lanyards', 'Print badges');
  const problem = page.locator(byTestId('problem'));
  await problem.waitFor({timeout: 20000});
  await problem.locator(byTestId('take-theirs')).click();
  await problem.waitFor({state: 'detached'});
  await synced(page);
  assert.equal(query(`SELECT title FROM tasks WHERE id = '${id}'`), 'Print lanyards');
  await expectText(page, `[data-id="${id}"] ${byTestId('task-title')}`, 'Print lanyards');
  assert.deepEqual(app.pageErrors, []);
});
