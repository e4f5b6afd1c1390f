// The task list's filters, sort, grouping and Completed section (issue
// 28): each filter narrows the list, sorting and grouping order it, done
// work goes to a collapsed Completed section, a new task says where it went
// (or that the filters hide it), and the filters survive a reload.

import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {
  addTask, byTestId, expectText, pushAsOtherDevice, screenshot, seriousAxeViolations, startApp,
  synced,
} from './app_harness.mjs';

let app;

// Dates around today in this machine's time zone (the browser's too).
function day(offset) {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

const kGarden = '01JB0000000000000000000P01';
const kHouse = '01JB0000000000000000000P02';
const kAna = '01JB0000000000000000000R01';
const task = (n, title, fields) => ({name: 'task.create', args: {
  id: `01JB0000000000000000000T0${n}`, spaceId: 'personal', title, ...fields}});

before(async () => {
  app = await startApp();
  const results = await pushAsOtherDevice(app.server, [
    {name: 'project.create', args: {id: kGarden, spaceId: 'personal', title: 'Garden'}},
    {name: 'project.create', args: {id: kHouse, spaceId: 'personal', title: 'House'}},
    {name: 'person.create', args: {id: kAna, spaceId: 'personal', name: 'Ana Lima'}},
    task(1, 'Prune the roses', {due: day(-2), project: kGarden, people: [kAna], labels: ['outside'],
                                priority: 'high'}),
    task(2, 'Fix the gate', {due: day(0), project: kHouse, status: 'doing', priority: 'urgent'}),
    task(3, 'Paint the fence', {due: day(3), labels: ['outside'], priority: 'low'}),
    task(4, 'Buy seeds', {}),
    task(5, 'Sweep the porch', {status: 'done'}),
  ]);
  assert.deepEqual(results.map((r) => r.status), Array(8).fill('applied'));
  await app.page.click(byTestId('nav-tasks'));
  await app.page.locator(byTestId('task-row'), {hasText: 'Buy seeds'}).waitFor();
  // The project and person choices arrive with their records.
  await app.page.locator(`${byTestId('task-filter-person')} option`, {hasText: 'Ana Lima'})
    .waitFor({state: 'attached'});
});

after(async () => {
  await app?.close();
});

// Titles of the rows the open list shows, top to bottom.
const shownTitles = () => app.page.evaluate(() =>
  [...document.querySelectorAll('[data-testid="task-list"] [data-testid="task-row"]:not([hidden])')]
    .map((row) => row.querySelector('[data-testid="task-title"]').textContent));

async function choose(testId, value) {
  await app.page.selectOption(byTestId(testId), value);
}

test('each filter narrows the list, and Clear filters brings it all back', async () => {
  const {page, query} = app;
  assert.deepEqual(await shownTitles(),
                   ['Prune the roses', 'Fix the gate', 'Paint the fence', 'Buy seeds']);
  assert.equal(await page.isHidden(byTestId('task-filters-clear')), true);

  await choose('task-filter-status', 'doing');
  assert.deepEqual(await shownTitles(), ['Fix the gate']);
  await expectText(page, byTestId('task-filter-count'), '1 of 5 shown');
  await choose('task-filter-status', '');

  const byDue = {overdue: ['Prune the roses'], today: ['Fix the gate'],
                 week: ['Fix the gate', 'Paint the fence'], none: ['Buy seeds']};
  for (const [value, titles] of Object.entries(byDue)) {
    await choose('task-filter-due', value);
    assert.deepEqual(await shownTitles(), titles, `due: ${value}`);
  }
  await choose('task-filter-due', '');

  await choose('task-filter-project', kGarden);
  assert.deepEqual(await shownTitles(), ['Prune the roses']);
  await choose('task-filter-project', '-');
  assert.deepEqual(await shownTitles(), ['Paint the fence', 'Buy seeds']);
  await choose('task-filter-project', '');

  await choose('task-filter-person', kAna);
  assert.deepEqual(await shownTitles(), ['Prune the roses']);
  await choose('task-filter-label', 'outside');
  assert.deepEqual(await shownTitles(), ['Prune the roses']);
  await choose('task-filter-person', '');
  assert.deepEqual(await shownTitles(), ['Prune the roses', 'Paint the fence']);
  await expectText(page, byTestId('task-filter-count'), '2 of 5 shown');

  assert.deepEqual(await seriousAxeViolations(page), []);
  await screenshot(page, 'task-list-filters');
  await page.click(byTestId('task-filters-clear'));
  assert.deepEqual(await shownTitles(),
                   ['Prune the roses', 'Fix the gate', 'Paint the fence', 'Buy seeds']);
  assert.equal(await page.isHidden(byTestId('task-filters-clear')), true);
  assert.equal(await page.inputValue(byTestId('task-filter-label')), '');
  // What the filters read is what the server holds.
  await synced(page);
  assert.equal(query(`SELECT project || '|' || people || '|' || labels FROM tasks
                      WHERE title = 'Prune the roses'`), `${kGarden}|["${kAna}"]|["outside"]`);
});

test('sorting by due date puts the earliest first; grouping by status shows headings', async () => {
  const {page, query} = app;
  await choose('task-sort', 'due');
  assert.deepEqual(await shownTitles(),
                   ['Prune the roses', 'Fix the gate', 'Paint the fence', 'Buy seeds']);
  await choose('task-sort', 'title');
  assert.deepEqual(await shownTitles(),
                   ['Buy seeds', 'Fix the gate', 'Paint the fence', 'Prune the roses']);
  await choose('task-sort', 'priority');
  assert.deepEqual(await shownTitles(),
                   ['Fix the gate', 'Prune the roses', 'Paint the fence', 'Buy seeds']);

  await choose('task-sort', 'due');
  await choose('task-group', 'status');
  const order = await page.evaluate(() =>
    [...document.querySelectorAll('[data-testid="task-list"] > li:not([hidden])')]
      .map((li) => (li.dataset.testid === 'task-group-heading' ? `# ${li.textContent}` :
        li.querySelector('[data-testid="task-title"]').textContent)));
  assert.deepEqual(order, ['# To do', 'Prune the roses', 'Paint the fence', 'Buy seeds',
                           '# Doing', 'Fix the gate']);
  assert.deepEqual(await seriousAxeViolations(page), []);
  await screenshot(page, 'task-list-grouped');
  await choose('task-group', 'project');
  await page.locator(byTestId('task-group-heading'), {hasText: 'Garden'}).waitFor();
  await page.locator(byTestId('task-group-heading'), {hasText: 'No project'}).waitFor();

  await choose('task-group', 'none');
  await choose('task-sort', 'manual');
  assert.equal(await page.locator(byTestId('task-group-heading')).count(), 0);
  await synced(page);
  assert.equal(query(`SELECT due FROM tasks WHERE title = 'Fix the gate'`), day(0));
});

test('a completed task moves into the collapsed Completed section', async () => {
  const {page, query, server} = app;
  await expectText(page, byTestId('task-completed-summary'), 'Completed (1)');
  const completed = page.locator(byTestId('task-completed'));
  assert.equal(await completed.evaluate((d) => d.open), false);

  // Done elsewhere: straight into Completed.
  await pushAsOtherDevice(server, [{name: 'task.update', args: {
    id: '01JB0000000000000000000T04', fields: {status: 'done'}, base: {status: 'todo'}}}]);
  await page.locator(`${byTestId('task-list-done')} ${byTestId('task-row')}`, {hasText: 'Buy seeds'})
    .waitFor({state: 'attached'});
  await expectText(page, byTestId('task-completed-summary'), 'Completed (2)');

  // Done here: the row stays in place (its toast has Undo) until the list
  // is next arranged, then goes to Completed too.
  const row = await addTask(page, 'Water the lawn');
  const id = await row.getAttribute('data-id');
  await row.locator(byTestId('task-status')).click();
  await page.locator(`${byTestId('task-row')}[data-id="${id}"][data-status="doing"]`).waitFor();
  await row.locator(byTestId('task-status')).click();
  await page.locator(`${byTestId('task-list')} [data-id="${id}"][data-status="done"]`).waitFor();
  await choose('task-sort', 'title');
  await page.locator(`${byTestId('task-list-done')} [data-id="${id}"]`).waitFor({state: 'attached'});
  await expectText(page, byTestId('task-completed-summary'), 'Completed (3)');
  assert.equal(await row.isVisible(), false);
  assert.equal((await shownTitles()).includes('Water the lawn'), false);

  await page.click(byTestId('task-completed-summary'));
  await row.waitFor();
  await screenshot(page, 'task-list-completed');
  await synced(page);
  assert.equal(query(`SELECT status FROM tasks WHERE id = '${id}'`), 'done');

  // Asking for done work lists it in the open list, with no Completed section.
  await choose('task-filter-status', 'done');
  assert.deepEqual(await shownTitles(), ['Buy seeds', 'Sweep the porch', 'Water the lawn']);
  assert.equal(await completed.isHidden(), true);
  await page.click(byTestId('task-filters-clear'));

  // Reopened from Completed: it stays put until the list is arranged again.
  await row.locator(byTestId('task-status')).click();
  await page.locator(`${byTestId('task-list-done')} [data-id="${id}"][data-status="todo"]`).waitFor();
  await choose('task-sort', 'manual');
  await page.locator(`${byTestId('task-list')} [data-id="${id}"]`).waitFor();
  await expectText(page, byTestId('task-completed-summary'), 'Completed (2)');
  await page.click(byTestId('task-completed-summary'));  // Folded again.
  await synced(page);
  assert.equal(query(`SELECT status FROM tasks WHERE id = '${id}'`), 'todo');
});

test('a new task says it was added, or that the filters hide it', async () => {
  const {page, query} = app;
  await page.fill(byTestId('new-task-title'), 'Oil the hinges');
  await page.press(byTestId('new-task-title'), 'Enter');
  await expectText(page, byTestId('task-added-text'), 'Added “Oil the hinges”.');
  await page.locator(`${byTestId('task-row')}.flash`, {hasText: 'Oil the hinges'}).waitFor();

  await choose('task-filter-status', 'doing');
  await page.fill(byTestId('new-task-title'), 'Call the plumber');
  await page.press(byTestId('new-task-title'), 'Enter');
  await expectText(page, byTestId('task-added-text'),
                   'Added “Call the plumber” — hidden by your filters.');
  const row = page.locator(byTestId('task-row'), {hasText: 'Call the plumber'});
  assert.equal(await row.isHidden(), true);
  await screenshot(page, 'task-list-added-hidden');
  await page.click(byTestId('task-added-clear'));
  await row.waitFor();
  await expectText(page, byTestId('task-added-text'), 'Added “Call the plumber”.');
  assert.equal(await page.inputValue(byTestId('task-filter-status')), '');
  await synced(page);
  assert.equal(query(`SELECT status FROM tasks WHERE title = 'Call the plumber'`), 'todo');
});

test('filters, sort and grouping survive a reload', async () => {
  const {page, query} = app;
  await choose('task-filter-label', 'outside');
  await choose('task-filter-due', 'week');
  await choose('task-group', 'due');
  assert.deepEqual(await shownTitles(), ['Paint the fence']);
  await page.reload();
  await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`);
  await page.click(byTestId('nav-tasks'));
  await page.locator(byTestId('task-row'), {hasText: 'Paint the fence'}).waitFor();
  assert.equal(await page.inputValue(byTestId('task-filter-label')), 'outside');
  assert.equal(await page.inputValue(byTestId('task-filter-due')), 'week');
  assert.deepEqual(await shownTitles(), ['Paint the fence']);
  await page.locator(byTestId('task-group-heading'), {hasText: 'This week'}).waitFor();
  await page.locator(byTestId('task-filters-clear')).waitFor();
  await screenshot(page, 'task-list-after-reload');
  await page.click(byTestId('task-filters-clear'));
  await choose('task-group', 'none');
  assert.equal((await shownTitles()).length, 6);
  await synced(page);
  assert.equal(query(`SELECT labels FROM tasks WHERE title = 'Paint the fence'`), '["outside"]');
});

test('tasks are selected and changed at once, with one Undo for all', async () => {
  const {page, query} = app;
  const statuses = () => query(
    "SELECT title || '=' || status || '/' || deleted FROM tasks WHERE title IN " +
    "('Oil the hinges', 'Paint the fence', 'Prune the roses') ORDER BY title").split('\n');
  const before = statuses();
  const row = (title) => page.locator(byTestId('task-row'), {hasText: title});
  // Rows off screen are not drawn (content-visibility): scroll, as a person would.
  const tick = async (title) => {
    await row(title).evaluate((li) => li.scrollIntoView({block: 'center'}));
    await row(title).locator(byTestId('task-select')).check();
  };
  await page.click(byTestId('task-select-mode'));
  await page.locator(byTestId('task-bulk')).waitFor();
  await expectText(page, byTestId('task-bulk-count'), 'None selected');
  assert.equal(await page.isDisabled(byTestId('task-bulk-done')), true, 'nothing to change yet');
  await tick('Oil the hinges');
  await tick('Paint the fence');
  await expectText(page, byTestId('task-bulk-count'), '2 tasks selected');
  assert.deepEqual(await seriousAxeViolations(page), [], 'while selecting');
  await screenshot(page, 'task-list-bulk', {fullPage: false});

  await page.click(byTestId('task-bulk-done'));
  await page.locator(byTestId('toast'), {hasText: 'Completed 2 tasks.'}).waitFor();
  await synced(page);
  assert.deepEqual(statuses(), ['Oil the hinges=done/0', 'Paint the fence=done/0', before[2]]);
  await expectText(page, byTestId('task-bulk-count'), 'None selected');
  await page.locator(byTestId('toast'), {hasText: 'Completed 2 tasks.'})
    .locator(byTestId('toast-undo')).click();
  await row('Oil the hinges').and(page.locator('[data-status="todo"]')).waitFor();
  await synced(page);
  assert.deepEqual(statuses(), before);

  // A status for each, from the keyboard's select, then Trash and back.
  await tick('Prune the roses');
  await tick('Oil the hinges');
  await page.selectOption(byTestId('task-bulk-status'), 'doing');
  await page.locator(byTestId('toast'), {hasText: 'Moved 2 tasks to Doing.'}).waitFor();
  await synced(page);
  assert.deepEqual(statuses(), ['Oil the hinges=doing/0', before[1], 'Prune the roses=doing/0']);
  await page.locator(byTestId('toast'), {hasText: 'Moved 2 tasks to Doing.'})
    .locator(byTestId('toast-undo')).click();
  await row('Oil the hinges').and(page.locator('[data-status="todo"]')).waitFor();

  await choose('task-filter-label', 'outside');  // Paint the fence, Prune the roses
  await page.click(byTestId('task-bulk-all'));
  await expectText(page, byTestId('task-bulk-count'), '2 tasks selected');
  await page.click(byTestId('task-bulk-delete'));
  await page.locator(byTestId('toast'), {hasText: 'Moved 2 tasks to Trash.'}).waitFor();
  await row('Paint the fence').waitFor({state: 'detached'});
  await synced(page);
  assert.deepEqual(statuses(), [before[0], 'Paint the fence=todo/1', 'Prune the roses=todo/1']);
  await page.locator(byTestId('toast'), {hasText: 'Moved 2 tasks to Trash.'})
    .locator(byTestId('toast-undo')).click();
  await row('Paint the fence').waitFor();
  await synced(page);
  assert.deepEqual(statuses(), before);

  await page.click(byTestId('task-filters-clear'));
  await page.click(byTestId('task-select-mode'));
  assert.equal(await page.isVisible(byTestId('task-bulk')), false);
  assert.equal(await page.locator(byTestId('task-select')).count(), 0, 'no checkboxes left behind');
  assert.deepEqual(app.pageErrors, []);
});

test('a long list shows its first screen first, then every task, in order and once', async () => {
  const {page} = app;
  const more = Array.from({length: 120}, (_, i) => ({name: 'task.create', args: {
    id: `01JC${'0'.repeat(19)}${String(i).padStart(3, '0')}`, spaceId: 'personal',
    title: `Long list task ${i}`}}));
  assert.ok((await pushAsOtherDevice(app.server, more)).every((r) => r.status === 'applied'));
  await page.click(byTestId('nav-tasks'));
  await page.locator(byTestId('task-row'), {hasText: 'Long list task 119'}).waitFor();
  // The stored order, nothing filtered: what the first screen assumes.
  await page.evaluate(() => localStorage.removeItem('ensemble.taskList'));
  await page.reload();
  await page.waitForFunction(() => performance.getEntriesByName('tasks-all-listed').length > 0);
  const marks = await page.evaluate(() => ({
    first: performance.getEntriesByName('tasks-listed')[0].detail.count,
    all: performance.getEntriesByName('tasks-all-listed')[0].detail.count,
  }));
  const stored = await page.evaluate(async () =>
    JSON.parse((await window.ensemble.rpc('listTasks')).json).tasks);
  const open = stored.filter((t) => t.status !== 'done').map((t) => t.id);
  assert.equal(marks.first, 100, 'the first screen was not read first');
  assert.equal(marks.all, stored.length);
  const shown = await page.evaluate(() =>
    [...document.querySelectorAll('[data-testid="task-list"] [data-testid="task-row"]')]
      .map((row) => row.dataset.id));
  assert.deepEqual(shown, open, 'the open list is the stored open tasks, in order, each once');
  assert.equal(await page.locator(`${byTestId('task-list-done')} ${byTestId('task-row')}`).count(),
               stored.length - open.length);
  assert.ok(await page.isHidden(byTestId('empty-state')));
  // The module's second half (wasm/js/split_pre.js) came after the list, by
  // the worker's prefetch: nothing the first screen ran, its sync included,
  // had to wait for it (wasm/split/first_screen.mjs lists what it runs).
  let status = {};
  for (let tries = 0; !status.deferred && tries < 200; tries++) {
    status = await page.evaluate(() => window.ensemble.rpc('status'));
    if (!status.deferred) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.equal(status.deferred, 'prefetch',
               `the first screen called into the second half: ${status.deferredFirstCall?.stack}`);
  assert.deepEqual(app.pageErrors, []);
});

test('a list too long for the page keeps the rows near the screen, and loses none', async () => {
  const {page} = app;
  const more = Array.from({length: 400}, (_, i) => ({name: 'task.create', args: {
    id: `01JD${'0'.repeat(19)}${String(i).padStart(3, '0')}`, spaceId: 'personal',
    title: `Window task ${i}`}}));
  assert.ok((await pushAsOtherDevice(app.server, more)).every((r) => r.status === 'applied'));
  const list = page.locator(byTestId('task-list'));
  await list.locator('.list-spacer').first().waitFor({state: 'attached'});
  const stored = await page.evaluate(async () =>
    JSON.parse((await window.ensemble.rpc('listTasks')).json).tasks);
  const open = stored.filter((t) => t.status !== 'done');
  const attached = await list.locator(byTestId('task-row')).count();
  assert.ok(attached > 0 && attached < 200, `${attached} of ${open.length} rows in the page`);

  // Scrolled to the end: the last task is there, the first is not.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await list.locator(byTestId('task-row'), {hasText: 'Window task 399'}).waitFor();
  assert.equal(await list.locator(`${byTestId('task-row')}[data-id="${open[0].id}"]`).count(), 0);

  // A title being edited stays in the page however far the list scrolls.
  const last = list.locator(byTestId('task-row'), {hasText: 'Window task 399'});
  await last.locator(byTestId('task-title')).click();
  await page.keyboard.press('End');
  await page.keyboard.type(' edited');
  await page.evaluate(() => window.scrollTo(0, 0));
  await list.locator(`${byTestId('task-row')}[data-id="${open[0].id}"]`).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'task-title-input');
  await page.keyboard.press('Enter');
  // Saved: the worker has it (the row itself may be out of the page by now).
  const title = (id) => page.evaluate(async (taskId) => JSON.parse(
    (await window.ensemble.rpc('listTasks')).json).tasks.find((t) => t.id === taskId).title, id);
  const editedId = open.find((t) => t.title === 'Window task 399').id;
  for (let i = 0; (await title(editedId)) !== 'Window task 399 edited'; i++) {
    assert.ok(i < 100, `the title is ${await title(editedId)}`);
    await page.waitForTimeout(50);
  }

  // Scrolling down past a row being edited, as rows above it leave the page,
  // moves no row the page keeps: the edit keeps its focus and its text.
  await page.evaluate(() => window.scrollTo(0, 0));  // Enter put the focus, and the page, back there.
  const editing = open[30];
  await list.locator(`${byTestId('task-row')}[data-id="${editing.id}"]`)
    .locator(byTestId('task-title')).click();
  await page.keyboard.press('End');
  await page.keyboard.type(' draft');
  for (let i = 0; i < 12; i++) {
    await page.evaluate(() => new Promise((resolve) => {
      window.scrollBy(0, 400);
      requestAnimationFrame(() => requestAnimationFrame(resolve));
    }));
  }
  assert.equal(await page.evaluate(() => document.activeElement.value),
               `${editing.title} draft`, 'the edit lost its input');
  await page.keyboard.press('Escape');

  // Opening a task far down the list brings its row, with its details, to the screen.
  const far = open.find((t) => t.title === 'Window task 250');
  await page.evaluate((id) => {
    location.hash = `#/tasks/${id}`;
  }, far.id);
  const farRow = list.locator(`${byTestId('task-row')}[data-id="${far.id}"]`);
  await farRow.locator('.task-editor').waitFor();
  assert.ok(await farRow.isVisible());

  // The filter box still finds any task; select all takes every task shown, on screen or not.
  await page.fill(byTestId('task-filter'), 'Window task 39');
  await expectText(page, byTestId('task-filter-count'), `11 of ${stored.length} shown`);
  await page.fill(byTestId('task-filter'), '');
  await page.click(byTestId('task-select-mode'));
  await page.click(byTestId('task-bulk-all'));
  await expectText(page, byTestId('task-bulk-count'), `${open.length} tasks selected`);
  await page.click(byTestId('task-select-mode'));
  assert.deepEqual(app.pageErrors, []);
});
