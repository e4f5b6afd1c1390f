// Every view of the app, holding records, passes axe-core with no serious
// or critical violation (issue 28), at the desktop width and at a phone's.

import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {
  addTask, byTestId, newBoard, putTaskOn, seriousAxeViolations, startApp, synced,
} from './app_harness.mjs';

const kViews = ['tasks', 'today', 'needs-me', 'boards', 'projects', 'pages', 'people', 'routines',
                'trash', 'sharing', 'settings'];

let app;

before(async () => {
  app = await startApp();
  const {page} = app;
  // Something in every view: tasks (one opened in details), a board with a
  // card, a project (its page open), a page, a person, a task in Trash.
  const row = await addTask(page, 'Renew the passport');
  await row.locator(byTestId('task-edit')).click();
  const gone = await addTask(page, 'Old errand');
  await gone.locator(byTestId('task-edit')).click();
  await gone.locator(byTestId('task-delete')).click();
  const board = await newBoard(page, 'Home', ['Errands', 'Done']);
  await putTaskOn(page, board.locator(byTestId('board-column')).first(), 'Renew the passport');
  await page.click(byTestId('nav-projects'));
  await page.fill(byTestId('new-project-title'), 'Move house');
  await page.press(byTestId('new-project-title'), 'Enter');
  await page.locator(byTestId('project-page')).waitFor();
  await page.click(byTestId('nav-pages'));
  await page.click(byTestId('new-page'));
  await page.locator(byTestId('page-title-input')).waitFor();
  await page.click(byTestId('nav-people'));
  await page.fill(byTestId('person-name'), 'Ana Lima');
  await page.keyboard.press('Enter');
  await page.locator(byTestId('person-item')).waitFor();
  await synced(page);
});

after(async () => {
  await app?.close();
});

async function checkEveryView() {
  const {page} = app;
  const found = {};
  for (const view of kViews) {
    await page.evaluate((v) => { location.hash = `#/${v}`; }, view);
    await page.waitForFunction((v) => document.querySelector(`[data-view="${v}"][aria-current="page"]`),
                               view);
    const violations = await seriousAxeViolations(page);
    if (violations.length) found[view] = violations;
  }
  return found;
}

test('every view passes axe-core at 1280 px, and so does the shortcuts list', async () => {
  assert.deepEqual(await checkEveryView(), {});
  const {page} = app;
  await page.locator('#view').focus();
  await page.keyboard.press('?');
  await page.locator(byTestId('shortcuts')).waitFor();
  assert.deepEqual(await seriousAxeViolations(page), []);
  await page.keyboard.press('Escape');
});

test('every view passes axe-core at 390 px', async () => {
  await app.page.setViewportSize({width: 390, height: 844});
  try {
    assert.deepEqual(await checkEveryView(), {});
  } finally {
    await app.page.setViewportSize({width: 1280, height: 800});
  }
});
