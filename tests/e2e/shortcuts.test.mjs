// Keyboard shortcuts (issue 28): q or n adds a task from any view, f
// filters the task list, ? lists the shortcuts and Escape closes it; a
// letter typed into an input stays in the input. / and Ctrl-K open the
// search (issue 31), which ranks every kind, opens what Enter picks, and
// answers from this device's copy with the server stopped (the last test:
// it stops the server).

import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {addTask, byTestId, expectText, screenshot, seriousAxeViolations, startApp} from './app_harness.mjs';

let app;

before(async () => {
  app = await startApp();
});

after(async () => {
  await app?.close();
});

const focusedTestId = (page) => page.evaluate(() => document.activeElement?.dataset.testid ?? null);

test('n and q add a task from another view; letters typed in inputs stay there', async () => {
  const {page} = app;
  await page.click(byTestId('nav-people'));
  await page.locator(byTestId('view-people')).waitFor();
  await page.keyboard.press('n');
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'new-task-title');
  assert.equal(await page.locator(byTestId('view-tasks')).isVisible(), true);
  await page.keyboard.type('Water the plants');  // The n itself was not typed.
  await page.keyboard.press('Enter');
  await page.locator(byTestId('task-row'), {hasText: 'Water the plants'}).waitFor();
  assert.equal(await page.inputValue(byTestId('new-task-title')), '');

  // In an input a q is a q.
  await page.click(byTestId('nav-people'));
  await page.click(byTestId('person-name'));
  await page.keyboard.type('Quinn');
  assert.equal(await page.inputValue(byTestId('person-name')), 'Quinn');
  assert.equal(await focusedTestId(page), 'person-name');
  await page.fill(byTestId('person-name'), '');

  await page.locator('#view').focus();
  await page.keyboard.press('q');
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'new-task-title');
});

test('f filters the task list, and Escape clears the filter', async () => {
  const {page} = app;
  await addTask(page, 'Pay the rent');
  await addTask(page, 'Call the bank');
  await page.locator('#view').focus();
  await page.keyboard.press('f');
  assert.equal(await focusedTestId(page), 'task-filter');
  await page.keyboard.type('BANK');
  const visible = page.locator(`${byTestId('task-row')}:visible`);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="task-row"]')]
    .filter((r) => !r.hidden).length === 1);
  assert.deepEqual(await visible.locator(byTestId('task-title')).allTextContents(), ['Call the bank']);
  await expectText(page, byTestId('task-filter-count'), '1 of 3 shown');
  await page.keyboard.press('Escape');
  assert.equal(await page.inputValue(byTestId('task-filter')), '');
  assert.equal(await visible.count(), 3);

  // f works from another view too.
  await page.click(byTestId('nav-today'));
  await page.locator('#view').focus();
  await page.keyboard.press('f');
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'task-filter');
  await page.keyboard.type('rent');
  assert.deepEqual(await visible.locator(byTestId('task-title')).allTextContents(), ['Pay the rent']);
  // A task added while filtering follows the filter.
  await page.fill(byTestId('new-task-title'), 'Rent a van');
  await page.press(byTestId('new-task-title'), 'Enter');
  await page.locator(byTestId('task-row'), {hasText: 'Rent a van'}).waitFor();
  await expectText(page, byTestId('task-filter-count'), '2 of 4 shown');
  await page.fill(byTestId('task-filter'), '');
  await page.dispatchEvent(byTestId('task-filter'), 'input');
  assert.equal(await visible.count(), 4);
});

test('? lists the shortcuts and Escape closes the list', async () => {
  const {page} = app;
  await page.locator('#view').focus();
  await page.keyboard.press('?');
  const dialog = page.locator(byTestId('shortcuts'));
  await dialog.waitFor();
  assert.match(await dialog.textContent(), /Add a task/);
  await screenshot(page, 'shortcuts');
  // While the list is open, letters do nothing else.
  await page.keyboard.press('n');
  assert.equal(await dialog.isVisible(), true);
  await page.keyboard.press('Escape');
  await dialog.waitFor({state: 'hidden'});
  assert.deepEqual(app.pageErrors, []);
});

const resultTitles = (page) =>
  page.locator(byTestId('search-result-title')).allTextContents();

async function searchFor(page, words, first) {
  await page.fill(byTestId('search-input'), words);
  await page.locator(byTestId('search-result'), {hasText: first}).first().waitFor();
  await page.waitForFunction((f) => document.querySelector('[data-testid="search-result-title"]')
    ?.textContent === f, first);
}

test('/ and Ctrl-K search every kind, offline too, and Enter opens the pick', async () => {
  const {page, server} = app;
  await page.evaluate(async () => {
    const {rpc} = window.ensemble;
    await rpc('mutate', {name: 'page.create',
                         args: {spaceId: 'personal', title: 'Venue notes',
                                body: 'Book the hall for the launch'}});
    await rpc('mutate', {name: 'project.create', args: {spaceId: 'personal', title: 'Spring launch'}});
  });
  await addTask(page, 'Launch checklist');
  await page.locator('#view').focus();
  await page.keyboard.press('/');
  const dialog = page.locator(byTestId('search'));
  await dialog.waitFor();
  assert.equal(await focusedTestId(page), 'search-input');
  // Title matches of open work first, the later changed first; the page,
  // found by its text, after them.
  await searchFor(page, 'launch', 'Launch checklist');
  assert.deepEqual(await resultTitles(page), ['Launch checklist', 'Spring launch', 'Venue notes']);
  await expectText(page, byTestId('search-status'), '3 matches');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await dialog.waitFor({state: 'hidden'});
  await page.waitForFunction(() => location.hash.startsWith('#/projects/'));
  await page.locator(byTestId('view-projects')).waitFor();

  // With the server stopped the search answers from this device's copy.
  await server.stop();
  await expectText(page, byTestId('connection-state'), 'Offline', 20000);
  await page.keyboard.press('Control+k');
  await dialog.waitFor();
  await searchFor(page, 'hall', 'Venue notes');
  assert.match(await page.locator(byTestId('search-result')).first().textContent(),
               /Book the hall for the launch/);
  assert.deepEqual(await seriousAxeViolations(page), []);
  await screenshot(page, 'search');
  await page.fill(byTestId('search-input'), 'zebra crossing');
  await expectText(page, byTestId('search-status'), 'Nothing matches “zebra crossing”.');
  await searchFor(page, 'hall', 'Venue notes');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => location.hash.startsWith('#/pages/'));
  await page.locator(byTestId('view-pages')).waitFor();
  assert.deepEqual(app.pageErrors, []);
});
