// Nothing disappears silently (issue 28): moving a task or a page to
// Trash, completing a task and moving a card each show a toast saying so,
// and its Undo takes the change back on the server too.

import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {
  addTask, byTestId, expectText, newBoard, putTaskOn, screenshot, startApp, synced, undoToast,
} from './app_harness.mjs';

let app;

before(async () => {
  app = await startApp();
});

after(async () => {
  await app?.close();
});

const toast = (text) => app.page.locator(byTestId('toast'), {hasText: text});
const undo = (text) => undoToast(app.page, text);

test('a task moved to Trash comes back with Undo', async () => {
  const {page, query} = app;
  const row = await addTask(page, 'Sort the receipts');
  const id = await row.getAttribute('data-id');
  await row.locator(byTestId('task-edit')).click();
  await row.locator(byTestId('task-delete')).click();
  await row.waitFor({state: 'detached'});
  await toast('“Sort the receipts” moved to Trash.').waitFor();
  await screenshot(page, 'undo-toast');
  await synced(page);
  assert.equal(query(`SELECT deleted FROM tasks WHERE id = '${id}'`), '1');
  await undo('moved to Trash');
  await page.locator(`${byTestId('task-row')}[data-id="${id}"]`).waitFor();
  await synced(page);
  assert.equal(query(`SELECT deleted FROM tasks WHERE id = '${id}'`), '0');
});

test('completing a task says so, and Undo puts its status back', async () => {
  const {page, query} = app;
  const row = await addTask(page, 'File the taxes');
  const id = await row.getAttribute('data-id');
  await row.locator(byTestId('task-status')).click();  // To do -> Doing: no toast.
  await page.locator(`${byTestId('task-row')}[data-id="${id}"][data-status="doing"]`).waitFor();
  assert.equal(await toast('File the taxes').count(), 0);
  await row.locator(byTestId('task-status')).click();
  await page.locator(`${byTestId('task-row')}[data-id="${id}"][data-status="done"]`).waitFor();
  await undo('Completed “File the taxes”.');
  await page.locator(`${byTestId('task-row')}[data-id="${id}"][data-status="doing"]`).waitFor();
  await synced(page);
  assert.equal(query(`SELECT status FROM tasks WHERE id = '${id}'`), 'doing');
});

test('a page moved to Trash comes back with Undo', async () => {
  const {page, query} = app;
  await page.click(byTestId('nav-pages'));
  await page.click(byTestId('new-page'));
  await page.locator(byTestId('page-title-input')).waitFor();
  await page.fill(byTestId('page-title-input'), 'Old notes');
  await page.click(byTestId('page-save'));
  await expectText(page, byTestId('page-message'), 'Saved.');
  const id = await page.locator(byTestId('page-editor')).getAttribute('data-id');
  await page.click(byTestId('page-delete'));
  await page.locator(`${byTestId('page-item')}[data-id="${id}"]`).waitFor({state: 'detached'});
  await undo('“Old notes” moved to Trash.');
  await page.locator(`${byTestId('page-item')}[data-id="${id}"]`).waitFor();
  await synced(page);
  assert.equal(query(`SELECT deleted || '|' || title FROM pages WHERE id = '${id}'`), '0|Old notes');
});

test('a desk line and a desk list removed in Today come back with Undo', async () => {
  const {page, query} = app;
  await page.click(byTestId('nav-today'));
  await page.fill(byTestId('desk-new-list'), 'Errands');
  await page.keyboard.press('Enter');
  const list = page.locator(byTestId('desk-list'), {hasText: 'Errands'});
  await list.waitFor();
  const listId = await list.getAttribute('data-id');
  await list.locator(byTestId('desk-line-input')).fill('Post office');
  await list.locator(byTestId('desk-line-input')).press('Enter');
  const line = list.locator(byTestId('desk-line'), {hasText: 'Post office'});
  await line.waitFor();
  const lineId = await line.getAttribute('data-id');
  await line.locator(byTestId('desk-line-remove')).click();
  await line.waitFor({state: 'detached'});
  await undo('Removed “Post office”.');
  await line.waitFor();
  await list.locator(byTestId('desk-list-remove')).click();
  await list.waitFor({state: 'detached'});
  await synced(page);
  assert.equal(query(`SELECT deleted FROM desk_lists WHERE id = '${listId}'`), '1');
  await undo('Removed “Errands”.');
  await list.locator(byTestId('desk-line'), {hasText: 'Post office'}).waitFor();
  await synced(page);
  assert.equal(query(`SELECT deleted FROM desk_lists WHERE id = '${listId}'`), '0');
  assert.equal(query(`SELECT deleted FROM desk_list_items WHERE id = '${lineId}'`), '0');
});

test('a card moved to another column goes back with Undo', async (t) => {
  const {page, query} = app;
  const kinds = await page.evaluate(() => window.ensemble.rpc('kinds'));
  if (!kinds.includes('card')) return t.skip('this build has no cards');
  const row = await addTask(page, 'Paint the fence');
  const taskId = await row.getAttribute('data-id');
  const board = await newBoard(page, 'Garden', ['Ideas', 'Doing']);
  const columns = board.locator(byTestId('board-column'));
  const [first, second] = await Promise.all([0, 1].map((i) => columns.nth(i).getAttribute('data-column-id')));
  const card = await putTaskOn(page, columns.nth(0), 'Paint the fence');
  assert.equal(await card.getAttribute('data-task-id'), taskId);
  const cardId = await card.getAttribute('data-id');
  await card.locator(byTestId('card-move')).selectOption(second);
  const inColumn = (column) => page.locator(
    `${byTestId('board-column')}[data-column-id="${column}"] ${byTestId('board-card')}[data-id="${cardId}"]`);
  await inColumn(second).waitFor();
  await undo('Moved “Paint the fence” to Doing.');
  await inColumn(first).waitFor();
  await synced(page);
  assert.equal(query(`SELECT "column" FROM board_cards WHERE id = '${cardId}'`), first);
  assert.deepEqual(app.pageErrors, []);
});
