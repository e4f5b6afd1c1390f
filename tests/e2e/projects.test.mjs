// Projects (issue 28): a list with open and done counts, and a project page
// whose summary, status, deliverables, people, notes pages and tasks are edited
// there, complete and delete with Undo, and a summary typed while a sync
// re-renders the page lands on the server exactly as typed.

import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {
  byTestId, expectText, pushAsOtherDevice, screenshot, seriousAxeViolations, startApp, synced,
} from './app_harness.mjs';

let app;
let projectId;

before(async () => {
  app = await startApp();
});

after(async () => {
  await app?.close();
});

const row = (sql) => JSON.parse(app.query(sql) || 'null');
const toast = (text) => app.page.locator(byTestId('toast'), {hasText: text});

test('a project is created, and its page edits what the project holds', async () => {
  const {page, query} = app;
  await page.click(byTestId('nav-projects'));
  await page.fill(byTestId('new-project-title'), 'Move house');
  await page.press(byTestId('new-project-title'), 'Enter');
  await page.locator(byTestId('project-page')).waitFor();
  projectId = await page.getAttribute(byTestId('project-page'), 'data-id');

  await page.fill(byTestId('project-form-description'), 'Out of the flat by March.');
  await page.selectOption(byTestId('project-form-status'), 'archived');
  await page.fill(byTestId('project-form-due'), '2027-03-01');
  await page.click(byTestId('project-form-save'));
  await expectText(page, byTestId('projects-message'), 'Saved.');

  await page.fill(byTestId('new-deliverable-title'), 'Signed lease');
  await page.click(byTestId('add-deliverable'));
  await page.locator(byTestId('deliverable'), {hasText: 'Signed lease'}).waitFor();
  await page.locator(byTestId('deliverable-done')).check();
  await expectText(page, byTestId('projects-message'), '“Signed lease” is done.');

  await pushAsOtherDevice(app.server, [{name: 'person.create', args: {
    id: '01JB0000000000000000000E01', spaceId: 'personal', name: 'Ana Lima', role: 'Mover'}}]);
  await page.locator(`${byTestId('project-add-person')} option`, {hasText: 'Ana Lima (Mover)'}).waitFor({state: 'attached'});
  await page.selectOption(byTestId('project-add-person'), '01JB0000000000000000000E01');
  await page.click(byTestId('project-person-add'));
  await page.locator(byTestId('project-person'), {hasText: 'Mover'}).waitFor();

  await page.fill(byTestId('project-new-task'), 'Book the van');
  await page.click(byTestId('project-add-task'));
  await page.locator(byTestId('project-task'), {hasText: 'Book the van'}).waitFor();
  await synced(page);

  const stored = query(`SELECT json_object('status', status, 'due', due, 'description', description,
    'people', json(people), 'deliverables', json(deliverables)) FROM projects WHERE id = '${projectId}'`);
  const p = JSON.parse(stored);
  assert.equal(p.status, 'archived');
  assert.equal(p.due, '2027-03-01');
  assert.equal(p.description, 'Out of the flat by March.');
  assert.deepEqual(p.people, ['01JB0000000000000000000E01']);
  assert.equal(p.deliverables.length, 1);
  assert.equal(p.deliverables[0].title, 'Signed lease');
  assert.equal(p.deliverables[0].done, true);
  assert.equal(query(`SELECT project FROM tasks WHERE title = 'Book the van'`), projectId);
  assert.deepEqual(await seriousAxeViolations(page), []);
  await screenshot(page, 'projects-page');

  await page.click(byTestId('projects-back'));
  const item = page.locator(byTestId('project-item'), {hasText: 'Move house'});
  await expectText(page, `${byTestId('project-item')} ${byTestId('project-counts')}`, '1 open · 0 done');
  assert.ok(await item.isVisible());
  assert.deepEqual(await seriousAxeViolations(page), []);
});

test('a summary typed while a sync re-renders the page is saved as typed', async () => {
  const {page, query} = app;
  await page.evaluate((id) => { location.hash = `#/projects/${id}`; }, projectId);
  await page.locator(byTestId('project-form-description')).waitFor();
  await page.fill(byTestId('project-form-description'), '');
  await page.locator(byTestId('project-form-description')).focus();
  await page.keyboard.type('Pack the books');
  // Another device renames the project meanwhile: the page re-renders.
  const [result] = await pushAsOtherDevice(app.server, [{name: 'project.update', args: {
    id: projectId, fields: {title: 'Move house in spring'}, base: {title: 'Move house'}}}]);
  assert.equal(result.status, 'applied');
  await page.locator(byTestId('project-status')).locator('xpath=..', {hasText: 'spring'}).waitFor();
  await page.keyboard.type(' first.');
  assert.equal(await page.inputValue(byTestId('project-form-title')), 'Move house in spring');
  await page.click(byTestId('project-form-save'));
  await expectText(page, byTestId('projects-message'), 'Saved.');
  await synced(page);
  assert.equal(query(`SELECT description FROM projects WHERE id = '${projectId}'`), 'Pack the books first.');
  assert.equal(query(`SELECT title FROM projects WHERE id = '${projectId}'`), 'Move house in spring');
  await page.reload();
  await page.locator(byTestId('project-form-description')).waitFor();
  assert.equal(await page.inputValue(byTestId('project-form-description')), 'Pack the books first.');
  await screenshot(page, 'projects-kept-typing');

  // Notes: a page of the project's own, listed on the project.
  await page.click(byTestId('project-new-notes'));
  await page.locator(byTestId('page-title-input')).waitFor();
  await synced(page);
  assert.equal(query(`SELECT title FROM pages WHERE project = '${projectId}'`), 'Move house in spring notes');
  await page.evaluate((id) => { location.hash = `#/projects/${id}`; }, projectId);
  await page.locator(byTestId('project-page'), {hasText: 'Move house in spring notes'}).waitFor();
});

test('a project is completed and deleted, each with Undo', async () => {
  const {page, query} = app;
  await page.click(byTestId('project-complete'));
  await toast('Completed “Move house in spring”.').waitFor();
  await page.locator(byTestId('project-reopen')).waitFor();
  await synced(page);
  assert.equal(query(`SELECT status FROM projects WHERE id = '${projectId}'`), 'done');
  await toast('Completed').locator(byTestId('toast-undo')).click();
  await page.locator(byTestId('project-complete')).waitFor();
  await synced(page);
  assert.equal(query(`SELECT status FROM projects WHERE id = '${projectId}'`), 'archived');

  await page.click(byTestId('project-delete'));
  await page.locator(byTestId('project-delete-confirm')).waitFor();
  assert.equal(query(`SELECT deleted FROM projects WHERE id = '${projectId}'`), '0',
               'asking deletes nothing');
  await screenshot(page, 'projects-delete-confirm');
  await page.click(byTestId('project-delete-confirm'));
  await page.locator(byTestId('project-list')).or(page.locator(byTestId('projects-empty'))).waitFor();
  await synced(page);
  assert.equal(query(`SELECT deleted FROM projects WHERE id = '${projectId}'`), '1');
  await toast('moved to Trash').locator(byTestId('toast-undo')).click();
  await page.locator(byTestId('project-item'), {hasText: 'Move house in spring'}).waitFor();
  await synced(page);
  assert.equal(query(`SELECT deleted FROM projects WHERE id = '${projectId}'`), '0');
  assert.deepEqual(app.pageErrors, []);
});
