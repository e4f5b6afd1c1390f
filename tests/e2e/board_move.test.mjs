// Boards: a task created in the app goes on a new board as a card, is dragged
// to another column, and moved again from the keyboard; each move reaches the
// server as card.update. Skipped when this build's core has no board kinds.

import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {addTask, byTestId, pushAsOtherDevice, screenshot, startApp, synced} from './app_harness.mjs';

let app;
let hasBoards = false;

before(async () => {
  app = await startApp();
  const kinds = await app.page.evaluate(() => window.ensemble.rpc('kinds'));
  hasBoards = kinds.includes('board') && kinds.includes('card');
});

after(async () => {
  await app?.close();
});

test('a new task is put on a board and moved between columns', {timeout: 90000}, async (t) => {
  if (!hasBoards) {
    t.skip('this build has no board and card kinds');
    return;
  }
  const {page, query} = app;
  const row = await addTask(page, 'Write the launch post');
  const taskId = await row.getAttribute('data-id');

  await page.click(byTestId('nav-boards'));
  await page.fill(byTestId('new-board-title'), 'Launch');
  await page.press(byTestId('new-board-title'), 'Enter');
  const board = page.locator(byTestId('board'));
  await board.waitFor();
  const columns = board.locator(byTestId('board-column'));
  assert.equal(await columns.count(), 3);
  const [todo, doing, done] = await Promise.all(
    [0, 1, 2].map((i) => columns.nth(i).getAttribute('data-column-id')));

  // Add the task to the first column.
  await columns.nth(0).locator(byTestId('card-add-select')).selectOption(`task:${taskId}`);
  await columns.nth(0).locator(byTestId('card-add-button')).click();
  const card = page.locator(byTestId('board-card'), {hasText: 'Write the launch post'});
  await card.waitFor();
  const cardId = await card.getAttribute('data-id');
  const cardIn = (column) => page.locator(
    `${byTestId('board-column')}[data-column-id="${column}"] ${byTestId('board-card')}[data-id="${cardId}"]`);
  await cardIn(todo).waitFor();

  await synced(page);

  // Drag it to the second column, held by its edge (the middle is its move
  // control). While it is held another device renames the task: the sync
  // that brings the new title must not swap the card out from under the drag.
  const box = await cardIn(todo).boundingBox();
  await page.mouse.move(box.x + 4, box.y + 4);
  await page.mouse.down();
  const results = await pushAsOtherDevice(app.server, [
    {name: 'task.update', args: {id: taskId, fields: {title: 'Write the launch notes'},
                                 base: {title: 'Write the launch post'}}},
  ]);
  assert.equal(results[0].status, 'applied');
  await page.waitForFunction(async (id) => {
    const {tasks} = JSON.parse((await window.ensemble.rpc('listTasks')).json);
    return tasks.some((t) => t.id === id && t.title === 'Write the launch notes');
  }, taskId);
  await page.waitForTimeout(300);  // Time for the page to re-read what the worker pulled.
  assert.equal(await cardIn(todo).textContent().then((t) => t.includes('launch post')), true,
               'the held card is not re-rendered');
  const target = await columns.nth(1).boundingBox();
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, {steps: 5});
  await page.mouse.up();
  await cardIn(doing).waitFor({timeout: 10000});
  await page.locator(byTestId('board-card'), {hasText: 'Write the launch notes'}).waitFor();
  await synced(page);
  assert.equal(query(`SELECT "column" || '|' || task FROM board_cards WHERE id = '${cardId}'`),
               `${doing}|${taskId}`);

  // And on to the third from the keyboard, with its move control.
  await cardIn(doing).locator(byTestId('card-move')).focus();
  await cardIn(doing).locator(byTestId('card-move')).selectOption(done);
  await cardIn(done).waitFor({timeout: 10000});
  await synced(page);
  assert.equal(query(`SELECT "column" FROM board_cards WHERE id = '${cardId}'`), done);
  await screenshot(page, 'board_move');
  await page.setViewportSize({width: 390, height: 844});
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
  assert.equal(overflow, false, 'nothing scrolls sideways at 390 px');
  await screenshot(page, 'board_move-390');
  assert.deepEqual(app.pageErrors, []);
});

test('the board tabs follow the overview layout', {timeout: 60000}, async (t) => {
  if (!hasBoards) {
    t.skip('this build has no board and card kinds');
    return;
  }
  const {page} = app;
  await page.click(byTestId('nav-boards'));
  for (const title of ['Alpha', 'Beta']) {
    await page.fill(byTestId('new-board-title'), title);
    await page.press(byTestId('new-board-title'), 'Enter');
    await page.locator(byTestId('board-tab'), {hasText: title}).waitFor();
  }
  const tabTitles = () => page.$$eval(byTestId('board-tab'), (tabs) => tabs.map((b) => b.textContent));
  const before = await tabTitles();
  assert.ok(before.indexOf('Alpha') < before.indexOf('Beta'), before.join());
  const ids = await page.$$eval(byTestId('board-tab'), (tabs) =>
    Object.fromEntries(tabs.map((b) => [b.textContent, b.dataset.id])));
  const spaceId = await page.$eval(byTestId('space-select'), (s) => s.value);
  // Beta on the top row, Alpha below it.
  await page.evaluate(([spaceId, alpha, beta]) => window.ensemble.rpc('mutate', {
    name: 'board_layout.create',
    args: {spaceId, tiles: [{id: alpha, x: 0, y: 1, w: 2, h: 1}, {id: beta, x: 0, y: 0, w: 2, h: 1}]},
  }), [spaceId, ids.Alpha, ids.Beta]);
  await page.waitForFunction(() => {
    const titles = [...document.querySelectorAll('[data-testid="board-tab"]')].map((b) => b.textContent);
    return titles.indexOf('Beta') < titles.indexOf('Alpha');
  });
  await synced(page);
  assert.equal(app.query("SELECT COUNT(*) FROM board_layouts WHERE deleted = 0"), '1');
});
