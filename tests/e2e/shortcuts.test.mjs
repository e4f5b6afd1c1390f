// Keyboard shortcuts (issue 28): q or n adds a task from any view, / and
// Ctrl-K filter the task list, ? lists the shortcuts and Escape closes it;
// a letter typed into an input stays in the input.

import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {addTask, byTestId, expectText, screenshot, startApp} from './app_harness.mjs';

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

test('/ and Ctrl-K filter the task list, and Escape clears the filter', async () => {
  const {page} = app;
  await addTask(page, 'Pay the rent');
  await addTask(page, 'Call the bank');
  await page.locator('#view').focus();
  await page.keyboard.press('/');
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

  // Ctrl-K works even from an input, and from another view.
  await page.click(byTestId('nav-today'));
  await page.locator('#view').focus();
  await page.keyboard.press('Control+k');
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
