// Boards mean what they say (issue 28). The task board's columns are the
// task statuses: a drag changes a task's status (Undo takes it back) and a
// status changed elsewhere moves the card. A custom board's columns are the
// person's: named, renamed, reordered and deleted; tasks are found with a
// search box, notes are cards too, a card comes off with Undo, and the board
// is renamed or deleted after a confirm. Each change reaches the server, and
// what is half-typed survives the re-render a sync causes.

import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {
  addTask, byTestId, expectText, newBoard, pushAsOtherDevice, putTaskOn, screenshot,
  seriousAxeViolations, startApp, synced, undoToast,
} from './app_harness.mjs';

let app;

before(async () => {
  app = await startApp();
});

after(async () => {
  await app?.close();
});

const undo = (text) => undoToast(app.page, text);

const cardIn = (column, id) => app.page.locator(
  `${byTestId('board-column')}[data-column-id="${column}"] ${byTestId('board-card')}[data-id="${id}"]`);

const boardColumns = (id) =>
  JSON.parse(app.query(`SELECT columns FROM boards WHERE id = '${id}'`)).map((c) => c.title);

async function dragTo(page, card, column) {
  const box = await card.boundingBox();
  await page.mouse.move(box.x + 4, box.y + 4);  // Its edge: the middle holds its controls.
  await page.mouse.down();
  const target = await column.boundingBox();
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, {steps: 5});
  await page.mouse.up();
}

test('the task board: a drag changes the status, and a status changed elsewhere moves the card',
     async () => {
  const {page, query} = app;
  const row = await addTask(page, 'Call the plumber');
  const id = await row.getAttribute('data-id');
  await page.click(byTestId('nav-boards'));
  await page.click(byTestId('board-tab') + '[data-id="tasks"]');
  const titles = await page.$$eval(`${byTestId('board')} ${byTestId('board-column')} h3`,
                                   (hs) => hs.map((x) => x.firstChild.textContent));
  assert.deepEqual(titles, ['To do', 'Doing', 'Done']);
  await cardIn('todo', id).waitFor();

  await dragTo(page, cardIn('todo', id), page.locator(`${byTestId('board-column')}[data-column-id="doing"]`));
  await cardIn('doing', id).waitFor();
  await synced(page);
  assert.equal(query(`SELECT status FROM tasks WHERE id = '${id}'`), 'doing');
  await page.click(byTestId('nav-tasks'));
  // The list agrees, once it has rendered again (a read at once may see the
  // rows of the list as it was).
  await page.locator(`${byTestId('task-row')}[data-id="${id}"][data-status="doing"]`).waitFor();
  await page.click(byTestId('nav-boards'));
  await undo('Moved “Call the plumber” to Doing.');
  await cardIn('todo', id).waitFor();
  await synced(page);
  assert.equal(query(`SELECT status FROM tasks WHERE id = '${id}'`), 'todo');

  // From the keyboard, with the card's move control.
  await cardIn('todo', id).locator(byTestId('card-move')).focus();
  await cardIn('todo', id).locator(byTestId('card-move')).selectOption('done');
  await cardIn('done', id).waitFor();
  // Asked in one step in the page: a sync may re-render the board between a
  // locator finding the control and a check of it.
  const focusOnMoved = () => page.evaluate((card) => document.activeElement?.matches(
    `[data-testid="board-card"][data-id="${card}"] [data-testid="card-move"]`) ?? false, id);
  assert.equal(await focusOnMoved(), true, 'the focus stays on the moved card');

  const results = await pushAsOtherDevice(app.server, [
    {name: 'task.update', args: {id, fields: {status: 'doing'}, base: {status: 'done'}}},
  ]);
  assert.equal(results[0].status, 'applied');
  await cardIn('doing', id).waitFor({timeout: 15000});
  assert.deepEqual(await seriousAxeViolations(page), []);
  assert.deepEqual(app.pageErrors, []);
});

test('a new task is put on a board and moved between columns', {timeout: 90000}, async () => {
  const {page, query} = app;
  const row = await addTask(page, 'Write the launch post');
  const taskId = await row.getAttribute('data-id');

  const board = await newBoard(page, 'Launch', ['Ideas', 'Writing', 'Published']);
  const boardId = await page.getAttribute(`${byTestId('board-tab')}[aria-current="true"]`, 'data-id');
  await synced(page);
  assert.deepEqual(boardColumns(boardId), ['Ideas', 'Writing', 'Published'],
                   'the columns are the person\'s, in their order');
  const columns = board.locator(byTestId('board-column'));
  const [todo, doing, done] = await Promise.all(
    [0, 1, 2].map((i) => columns.nth(i).getAttribute('data-column-id')));

  const card = await putTaskOn(page, columns.nth(0), 'Write the launch post');
  assert.equal(await card.getAttribute('data-task-id'), taskId);
  const cardId = await card.getAttribute('data-id');
  await synced(page);

  // Drag it to the second column. While it is held another device renames
  // the task: the sync that brings the new title must not swap the card out
  // from under the drag.
  const box = await cardIn(todo, cardId).boundingBox();
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
  assert.equal(await cardIn(todo, cardId).textContent().then((t) => t.includes('launch post')), true,
               'the held card is not re-rendered');
  const target = await columns.nth(1).boundingBox();
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, {steps: 5});
  await page.mouse.up();
  await cardIn(doing, cardId).waitFor({timeout: 10000});
  await page.locator(byTestId('board-card'), {hasText: 'Write the launch notes'}).waitFor();
  await synced(page);
  assert.equal(query(`SELECT "column" || '|' || task FROM board_cards WHERE id = '${cardId}'`),
               `${doing}|${taskId}`);

  // And on to the third from the keyboard, with its move control.
  await cardIn(doing, cardId).locator(byTestId('card-move')).focus();
  await cardIn(doing, cardId).locator(byTestId('card-move')).selectOption(done);
  await cardIn(done, cardId).waitFor({timeout: 10000});
  await synced(page);
  assert.equal(query(`SELECT "column" FROM board_cards WHERE id = '${cardId}'`), done);
  await screenshot(page, 'board_move');
  await page.setViewportSize({width: 390, height: 844});
  try {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
    assert.equal(overflow, false, 'nothing scrolls sideways at 390 px');
    await screenshot(page, 'board_move-390');
  } finally {
    await page.setViewportSize({width: 1280, height: 800});
  }
  assert.deepEqual(app.pageErrors, []);
});

test('columns are renamed, reordered and deleted; notes are cards; a card comes off with Undo',
     async () => {
  const {page, query} = app;
  await addTask(page, 'Book the venue');
  const board = await newBoard(page, 'Wedding', ['Now', 'Later', 'Maybe']);
  const boardId = await page.getAttribute(`${byTestId('board-tab')}[aria-current="true"]`, 'data-id');
  // By its heading: a card's move menu names the other columns too.
  const column = (name) => board.locator(byTestId('board-column'))
    .filter({has: page.locator('h3', {hasText: name})});
  const menu = async (name) => {
    const details = column(name).locator(byTestId('column-menu'));
    if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
    return details;
  };

  let open = await menu('Later');
  await open.locator(byTestId('column-rename-input')).fill('Next month');
  await open.locator(byTestId('column-rename-save')).click();
  await expectText(page, byTestId('board-message'), 'Renamed “Later” to “Next month”.');
  open = await menu('Maybe');
  await open.locator(byTestId('column-move-left')).click();
  await expectText(page, byTestId('board-message'), 'Moved “Maybe” left.');
  await synced(page);
  assert.deepEqual(boardColumns(boardId), ['Now', 'Maybe', 'Next month']);

  // A note, and a task found by search; a column holding cards is not deleted.
  await column('Maybe').locator(byTestId('card-add-input')).fill('Ask about a band');
  await column('Maybe').locator(byTestId('card-add-input')).press('Enter');
  const note = column('Maybe').locator(byTestId('board-card'), {hasText: 'Ask about a band'});
  await note.waitFor();
  assert.equal(await note.getAttribute('data-task-id'), null);
  const card = await putTaskOn(page, column('Now'), 'Book the venue');
  const cardId = await card.getAttribute('data-id');
  // The task is on the board once, so the search no longer offers it.
  await column('Maybe').locator(byTestId('card-add-input')).fill('venue');
  assert.equal(await column('Maybe').locator(byTestId('card-add-match')).count(), 0);
  await column('Maybe').locator(byTestId('card-add-input')).fill('');

  open = await menu('Maybe');
  await open.locator(byTestId('column-delete')).click();
  await expectText(page, byTestId('board-message'),
                   '“Maybe” still holds 1 card: move them or take them off the board first.');
  await note.locator(byTestId('card-remove')).click();
  await note.waitFor({state: 'detached'});
  await synced(page);
  const noteId = query(`SELECT id FROM board_cards WHERE note = 'Ask about a band'`);
  assert.equal(query(`SELECT deleted FROM board_cards WHERE id = '${noteId}'`), '1');
  await card.locator(byTestId('card-remove')).click();
  await undo('Took “Book the venue” off “Wedding”.');
  await column('Now').locator(`${byTestId('board-card')}[data-id="${cardId}"]`).waitFor();

  open = await menu('Maybe');
  assert.deepEqual(await seriousAxeViolations(page), [], 'with a column menu open');
  await open.locator(byTestId('column-delete')).click();
  await column('Maybe').waitFor({state: 'detached'});
  await synced(page);
  assert.deepEqual(boardColumns(boardId), ['Now', 'Next month']);
  assert.equal(query(`SELECT deleted FROM board_cards WHERE id = '${cardId}'`), '0');
  await screenshot(page, 'board_columns');
  assert.deepEqual(app.pageErrors, []);
});

test('a board is renamed, and deleted only after a confirm, with Undo', async () => {
  const {page, query} = app;
  await newBoard(page, 'Chores', ['Weekly']);
  const boardId = await page.getAttribute(`${byTestId('board-tab')}[aria-current="true"]`, 'data-id');
  await page.click(`${byTestId('board-menu')} > summary`);
  await page.fill(byTestId('board-rename-input'), 'House chores');
  await page.click(byTestId('board-rename-save'));
  await page.locator(byTestId('board-tab'), {hasText: 'House chores'}).waitFor();

  await page.click(`${byTestId('board-menu')} > summary`);
  await page.click(byTestId('board-delete'));
  await page.locator(byTestId('board-delete-ask')).waitFor();
  assert.deepEqual(await seriousAxeViolations(page), [], 'with the delete question open');
  await page.click(byTestId('board-delete-cancel'));
  await page.click(`${byTestId('board-menu')} > summary`);
  await page.click(byTestId('board-delete'));
  await page.click(byTestId('board-delete-confirm'));
  await page.locator(`${byTestId('board-tab')}[data-id="${boardId}"]`).waitFor({state: 'detached'});
  await synced(page);
  assert.equal(query(`SELECT title || '|' || deleted FROM boards WHERE id = '${boardId}'`),
               'House chores|1');
  await undo('“House chores” moved to Trash.');
  await page.locator(`${byTestId('board-tab')}[data-id="${boardId}"][aria-current="true"]`).waitFor();
  await synced(page);
  assert.equal(query(`SELECT deleted FROM boards WHERE id = '${boardId}'`), '0');
  assert.deepEqual(app.pageErrors, []);
});

test('what is half-typed on a board survives the re-render a sync causes', async () => {
  const {page} = app;
  const board = await newBoard(page, 'Reading', ['Shelf']);
  const search = board.locator(byTestId('card-add-input'));
  await search.click();
  await page.keyboard.type('Dun');
  await pushAsOtherDevice(app.server, [
    {name: 'task.create', args: {id: '01JB0000000000000000000T77', spaceId: 'personal',
                                 title: 'Dune, the sequel'}},
  ]);
  // The pull re-renders the board; the box keeps its text and the focus,
  // and its matches now hold the task that came in.
  await board.locator(byTestId('card-add-match'), {hasText: 'Dune, the sequel'}).waitFor();
  await page.keyboard.type('e');
  assert.equal(await search.inputValue(), 'Dune');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await board.locator(`${byTestId('board-card')}[data-task-id="01JB0000000000000000000T77"]`).waitFor();

  const name = board.locator(byTestId('column-add-input'));
  await name.click();
  await page.keyboard.type('Read');
  const shown = await board.locator(byTestId('board-column')).first().elementHandle();
  await pushAsOtherDevice(app.server, [
    {name: 'task.create', args: {id: '01JB0000000000000000000T78', spaceId: 'personal',
                                 title: 'Emma'}},
  ]);
  await page.waitForFunction((column) => !column.isConnected, shown);  // Re-rendered.
  await page.keyboard.type('ing');
  assert.equal(await name.inputValue(), 'Reading');
  assert.deepEqual(app.pageErrors, []);
});

test('the board tabs follow the overview layout', async () => {
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
