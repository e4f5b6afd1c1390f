// A task's detail (issue 28): assignees, project and the tasks it depends
// on are saved with Save (only what changed, with its base) and survive a
// reload; "Create a page" makes the task's page and links it; comments are
// added, edited, resolved and deleted (with Undo) with their author and
// time; and text typed into a comment or the description through a sync's
// re-render reaches the server exactly as typed.

import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {
  addTask, byTestId, expectText, pushAsOtherDevice, screenshot, seriousAxeViolations, startApp,
  synced,
} from './app_harness.mjs';

let app;

const kAna = '01JB0000000000000000000D01';
const kBo = '01JB0000000000000000000D02';
const kProject = '01JB0000000000000000000D03';

before(async () => {
  app = await startApp();
  const results = await pushAsOtherDevice(app.server, [
    {name: 'person.create', args: {id: kAna, spaceId: 'personal', name: 'Ana Ruiz'}},
    {name: 'person.create', args: {id: kBo, spaceId: 'personal', name: 'Bo Chen'}},
    {name: 'project.create', args: {id: kProject, spaceId: 'personal', title: 'Website relaunch'}},
  ]);
  assert.deepEqual(results.map((r) => r.status), ['applied', 'applied', 'applied']);
});

after(async () => {
  await app?.close();
});

const rowOf = (id) => app.page.locator(`${byTestId('task-row')}[data-id="${id}"]`);

async function reload() {
  await app.page.reload();
  await app.page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
  await app.page.click(byTestId('nav-tasks'));
}

test('assignees, project and a dependency are saved and survive a reload', async () => {
  const {page, server, query} = app;
  const first = await addTask(page, 'Write the copy');
  const firstId = await first.getAttribute('data-id');
  const row = await addTask(page, 'Launch the site');
  const id = await row.getAttribute('data-id');
  await synced(page);
  await row.locator(byTestId('task-edit')).click();
  const detail = row.locator(byTestId('task-editor'));

  await detail.locator(byTestId('task-people-search')).fill('ana');
  await detail.locator(byTestId('task-people-offer'), {hasText: 'Ana Ruiz'}).click();
  await detail.locator(byTestId('task-people-search')).fill('Bo');
  await page.keyboard.press('Enter');  // Takes the first offer, does not save.
  await detail.locator(byTestId('task-people-chosen'), {hasText: 'Bo Chen'}).waitFor();
  assert.equal(await detail.count(), 1);
  await detail.getByRole('button', {name: 'Remove Bo Chen'}).click();
  await detail.getByLabel('Project').selectOption({label: 'Website relaunch'});
  await detail.locator(byTestId('task-depends-search')).fill('copy');
  await detail.locator(byTestId('task-depends-offer'), {hasText: 'Write the copy'}).click();
  await expectText(page, `${byTestId('task-row')}[data-id="${id}"] ${byTestId('task-blocked')}`,
                   'Blocked: waiting for “Write the copy”.');
  await row.locator(byTestId('task-save')).click();
  await detail.waitFor({state: 'detached'});
  await synced(page);
  assert.equal(query(`SELECT people || '|' || project || '|' || depends_on FROM tasks WHERE id = '${id}'`),
               `["${kAna}"]|${kProject}|["${firstId}"]`);

  await reload();
  await rowOf(id).locator(byTestId('task-edit')).click();
  const again = rowOf(id).locator(byTestId('task-editor'));
  await again.locator(byTestId('task-people-chosen'), {hasText: 'Ana Ruiz'}).waitFor();
  assert.equal(await again.getByLabel('Project').inputValue(), kProject);
  await again.locator(byTestId('task-depends-chosen'), {hasText: 'Write the copy (To do)'}).waitFor();
  // The task it waits for is finished elsewhere: the open detail says so.
  const results = await pushAsOtherDevice(server, [
    {name: 'task.update', args: {id: firstId, fields: {status: 'done'}, base: {status: 'todo'}}},
  ]);
  assert.equal(results[0].status, 'applied');
  await expectText(page, `${byTestId('task-row')}[data-id="${id}"] ${byTestId('task-blocked')}`,
                   'Not blocked: everything it depends on is done.');
  await again.scrollIntoViewIfNeeded();
  await screenshot(page, 'task_detail-links', {fullPage: false});
  await again.locator(byTestId('task-people-search')).press('Escape');
  await again.waitFor({state: 'detached'});
  assert.deepEqual(app.pageErrors, []);
});

test('"Create a page" makes the task\'s page and links it', async () => {
  const {page, query} = app;
  const row = await addTask(page, 'Plan the offsite');
  const id = await row.getAttribute('data-id');
  await row.locator(byTestId('task-edit')).click();
  await row.locator(byTestId('task-page-create')).click();
  const link = row.locator(byTestId('task-page-link'));
  await link.waitFor();
  await synced(page);
  const pageId = query(`SELECT page FROM tasks WHERE id = '${id}'`);
  assert.match(pageId, /^[0-9A-Z]{26}$/);
  assert.equal(query(`SELECT title FROM pages WHERE id = '${pageId}'`), 'Plan the offsite');
  await screenshot(page, 'task_detail-page', {fullPage: false});

  await reload();
  await rowOf(id).locator(byTestId('task-edit')).click();
  await rowOf(id).locator(byTestId('task-page-link')).click();
  await page.waitForFunction((want) => location.hash === `#/pages/${want}`, pageId);
  await page.locator(`${byTestId('page-editor')}[data-id="${pageId}"]`).waitFor();
  assert.equal(await page.inputValue(byTestId('page-title-input')), 'Plan the offsite');
});

const serverComment = (id) =>
  app.query(`SELECT body || '|' || resolved || '|' || deleted FROM comments WHERE id = '${id}'`);

test('comments are added, edited, resolved and deleted with Undo', async () => {
  const {page} = app;
  await page.click(byTestId('nav-tasks'));
  const row = await addTask(page, 'Review the budget');
  const id = await row.getAttribute('data-id');
  await row.locator(byTestId('task-edit')).click();
  const thread = row.locator(byTestId('task-comments'));
  await thread.getByLabel('Add a comment').fill('Numbers look high.');
  await thread.locator(byTestId('comment-add')).click();
  const comment = thread.locator(byTestId('comment'));
  await comment.locator(byTestId('comment-body'), {hasText: 'Numbers look high.'}).waitFor();
  assert.equal(await thread.getByLabel('Add a comment').inputValue(), '');
  assert.equal(await comment.locator(byTestId('comment-author')).textContent(), 'You');
  const written = Date.parse(await comment.locator(byTestId('comment-time')).getAttribute('datetime'));
  assert.ok(Math.abs(written - Date.now()) < 60000, `written at ${new Date(written)}`);
  const commentId = await comment.getAttribute('data-id');
  await synced(page);
  assert.equal(app.query(`SELECT target_kind || '|' || target FROM comments WHERE id = '${commentId}'`),
               `task|${id}`);
  assert.equal(serverComment(commentId), 'Numbers look high.|0|0');

  await comment.locator(byTestId('comment-edit')).click();
  await comment.locator(byTestId('comment-edit-input')).fill('Numbers look high; check travel.');
  await comment.locator(byTestId('comment-edit-save')).click();
  await comment.locator(byTestId('comment-body'), {hasText: 'check travel'}).waitFor();
  await comment.locator(byTestId('comment-resolve')).click();
  await comment.locator(byTestId('comment-resolved')).waitFor();
  assert.equal(await comment.locator(byTestId('comment-resolve')).textContent(), 'Reopen');
  assert.deepEqual(await seriousAxeViolations(page), []);
  await thread.scrollIntoViewIfNeeded();
  await screenshot(page, 'task_detail-comments', {fullPage: false});
  await synced(page);
  assert.equal(serverComment(commentId), 'Numbers look high; check travel.|1|0');

  await comment.locator(byTestId('comment-delete')).click();
  await comment.waitFor({state: 'detached'});
  await thread.locator(byTestId('comment-none')).waitFor();
  await synced(page);
  assert.equal(serverComment(commentId), 'Numbers look high; check travel.|1|1');
  await page.locator(byTestId('toast'), {hasText: 'Comment deleted.'})
    .locator(byTestId('toast-undo')).click();
  await thread.locator(byTestId('comment')).waitFor();
  await synced(page);
  assert.equal(serverComment(commentId), 'Numbers look high; check travel.|1|0');
  assert.deepEqual(app.pageErrors, []);
});

test('a comment and a description typed through a sync reach the server as typed', async () => {
  const {page, server, query} = app;
  const row = await addTask(page, 'Order the chairs');
  const id = await row.getAttribute('data-id');
  await synced(page);
  await row.locator(byTestId('task-edit')).click();
  const thread = row.locator(byTestId('task-comments'));
  await thread.getByLabel('Add a comment').click();
  await page.keyboard.type('Ask Bo for');
  await row.locator(byTestId('task-description-input')).click();
  await page.keyboard.type('Forty chairs,');
  // Another device sets the due date: the pull re-renders the row, and the
  // detail under it, while the text is unsaved.
  const results = await pushAsOtherDevice(server, [
    {name: 'task.update', args: {id, fields: {due: '2031-06-01'}, base: {due: null}}},
  ]);
  assert.equal(results[0].status, 'applied');
  await row.locator(byTestId('task-due')).filter({hasText: '2031'}).waitFor();
  await page.keyboard.type(' stackable.');  // The caret stayed in the description.
  await thread.getByLabel('Add a comment').press('End');
  await page.keyboard.type(' the supplier list.');
  await thread.locator(byTestId('comment-add')).click();
  await thread.locator(byTestId('comment-body'), {hasText: 'supplier'}).waitFor();
  assert.equal(await row.locator(byTestId('task-description-input')).inputValue(),
               'Forty chairs, stackable.');
  await thread.scrollIntoViewIfNeeded();
  await screenshot(page, 'task_detail-typed-through-sync', {fullPage: false});
  await row.locator(byTestId('task-save')).click();
  await row.locator(byTestId('task-editor')).waitFor({state: 'detached'});
  await synced(page);
  assert.equal(query(`SELECT due || '|' || description FROM tasks WHERE id = '${id}'`),
               '2031-06-01|Forty chairs, stackable.');
  assert.equal(query(`SELECT body FROM comments WHERE target = '${id}' AND deleted = 0`),
               'Ask Bo for the supplier list.');
  assert.deepEqual(app.pageErrors, []);
});
