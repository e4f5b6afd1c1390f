// People (issue 28): a person opens on their own page, whose fields are
// edited there and kept through a sync that re-renders the page mid-word
// and through a reload; a task found by a search is assigned to them (the
// task's people on the server); and a delete asks first and has Undo.

import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {
  addTask, byTestId, expectText, pushAsOtherDevice, screenshot, seriousAxeViolations, startApp,
  synced,
} from './app_harness.mjs';

let app;
let personId;

before(async () => {
  app = await startApp();
});

after(async () => {
  await app?.close();
});

const toast = (text) => app.page.locator(byTestId('toast'), {hasText: text});

test('a person is opened, edited while a sync re-renders the page, and kept on reload', async () => {
  const {page, query} = app;
  await page.click(byTestId('nav-people'));
  await page.fill(byTestId('person-name'), 'Ana Lima');
  await page.press(byTestId('person-name'), 'Enter');
  await page.locator(byTestId('person-item'), {hasText: 'Ana Lima'}).waitFor();
  await page.click(byTestId('person-open'));
  await page.locator(byTestId('person-page')).waitFor();
  personId = await page.getAttribute(byTestId('person-page'), 'data-id');
  assert.match(await page.evaluate(() => location.hash), new RegExp(`^#/people/${personId}$`));

  await page.fill(byTestId('person-form-edit-email'), 'ana@example.org');
  await page.selectOption(byTestId('person-form-edit-relationship'), 'client');
  await page.click(byTestId('person-form-edit-role'));
  await page.keyboard.type('Lead ');
  // Another device gives Ana a task meanwhile: the page re-renders with it.
  const [result] = await pushAsOtherDevice(app.server, [{name: 'task.create', args: {
    id: '01JB0000000000000000000T01', spaceId: 'personal', title: 'Sign the contract',
    people: [personId]}}]);
  assert.equal(result.status, 'applied');
  await page.locator(byTestId('person-task'), {hasText: 'Sign the contract'}).waitFor();
  await page.keyboard.type('designer');
  await page.fill(byTestId('person-form-edit-team'), 'Studio');
  await page.click(byTestId('person-form-edit-save'));
  await expectText(page, byTestId('people-message'), 'Saved.');
  await synced(page);
  assert.equal(query(`SELECT json_array(name, email, role, team, relationship) FROM people
    WHERE id = '${personId}'`), '["Ana Lima","ana@example.org","Lead designer","Studio","client"]');

  await page.reload();
  await page.locator(byTestId('person-form-edit-role')).waitFor();
  assert.equal(await page.inputValue(byTestId('person-form-edit-role')), 'Lead designer');
  assert.equal(await page.inputValue(byTestId('person-form-edit-email')), 'ana@example.org');
  assert.equal(await page.inputValue(byTestId('person-form-edit-relationship')), 'client');
  assert.deepEqual(await seriousAxeViolations(page), []);
  await screenshot(page, 'people-person-page');
});

test('a task found by a search is assigned to the person, and unassigned with Undo', async () => {
  const {page, query} = app;
  await addTask(page, 'Draft the brief');
  await addTask(page, 'Order prints');
  const taskId = query(`SELECT id FROM tasks WHERE title = 'Draft the brief'`);
  await page.evaluate((id) => { location.hash = `#/people/${id}`; }, personId);
  await page.locator(byTestId('person-assign-search')).waitFor();

  await page.fill(byTestId('person-assign-search'), 'no such thing');
  await page.locator(byTestId('person-assign-none')).waitFor();
  await page.fill(byTestId('person-assign-search'), 'brief');
  await expectText(page, byTestId('person-assign-result'), 'Draft the brief');
  assert.equal(await page.locator(byTestId('person-assign-result')).count(), 1);
  await screenshot(page, 'people-assign-search');
  await page.press(byTestId('person-assign-search'), 'Enter');
  await page.locator(byTestId('person-task'), {hasText: 'Draft the brief'}).waitFor();
  await expectText(page, byTestId('people-message'), 'Ana Lima is on “Draft the brief”.');
  assert.equal(await page.inputValue(byTestId('person-assign-search')), '');
  await synced(page);
  assert.equal(query(`SELECT people FROM tasks WHERE id = '${taskId}'`), `["${personId}"]`);

  const row = page.locator(`${byTestId('person-task')}[data-id="${taskId}"]`);
  await row.locator(byTestId('person-unassign')).click();
  await row.waitFor({state: 'detached'});
  await synced(page);
  assert.equal(query(`SELECT people FROM tasks WHERE id = '${taskId}'`), '[]');
  await toast('is off “Draft the brief”').locator(byTestId('toast-undo')).click();
  await row.waitFor();
  await synced(page);
  assert.equal(query(`SELECT people FROM tasks WHERE id = '${taskId}'`), `["${personId}"]`);
});

test('a person is deleted after a confirmation, and Undo brings them back', async () => {
  const {page, query} = app;
  await page.click(byTestId('person-delete'));
  await page.locator(byTestId('person-delete-confirm')).waitFor();
  assert.equal(query(`SELECT deleted FROM people WHERE id = '${personId}'`), '0', 'asking deletes nothing');
  assert.deepEqual(await seriousAxeViolations(page), []);
  await screenshot(page, 'people-delete-confirm');
  await page.click(byTestId('person-delete-confirm'));
  await page.locator(byTestId('person-form')).waitFor();
  await page.locator(byTestId('person-item'), {hasText: 'Ana Lima'}).waitFor({state: 'detached'});
  await synced(page);
  assert.equal(query(`SELECT deleted FROM people WHERE id = '${personId}'`), '1');
  await toast('“Ana Lima” moved to Trash.').locator(byTestId('toast-undo')).click();
  await page.locator(byTestId('person-item'), {hasText: 'Ana Lima'}).waitFor();
  await synced(page);
  assert.equal(query(`SELECT deleted FROM people WHERE id = '${personId}'`), '0');
  assert.deepEqual(await seriousAxeViolations(page), []);
  await screenshot(page, 'people-list');
  assert.deepEqual(app.pageErrors, []);
});
