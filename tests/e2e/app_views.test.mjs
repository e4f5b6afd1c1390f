// The app's other views in headless Chromium against the real server: Today
// lists due and overdue work, the page editor saves a page, Trash restores a
// deleted task, People merges two entries of one person, desk lists are made
// and ticked in Today, the details editor sets priority and labels, the dock's
// @-menu picks a record from the keyboard, and the sidebar works at 390 px.

import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {addTask, byTestId, expectText, screenshot, startApp, synced} from './app_harness.mjs';

let app;
let hasRecords = false;

before(async () => {
  app = await startApp();
  const kinds = await app.page.evaluate(() => window.ensemble.rpc('kinds'));
  hasRecords = kinds.includes('page');
});

after(async () => {
  await app?.close();
});

const localDate = (offsetDays) => {
  const d = new Date(Date.now() + offsetDays * 86400000);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

test('the details editor sets priority, labels and due; Today lists due work', async () => {
  const {page, query} = app;
  const row = await addTask(page, 'Renew the domain');
  await row.locator(byTestId('task-edit')).click();
  await row.locator(byTestId('task-priority-input')).selectOption('urgent');
  await row.locator(byTestId('task-labels-input')).fill('admin, web');
  await row.locator(byTestId('task-due-input')).fill(localDate(-2));
  await row.locator(byTestId('task-save')).click();
  await expectText(page, `[data-id="${await row.getAttribute('data-id')}"] ${byTestId('task-priority')}`,
                   'Urgent');
  await addTask(page, 'Pay the invoice');
  const second = page.locator(byTestId('task-row'), {hasText: 'Pay the invoice'});
  await second.locator(byTestId('task-edit')).click();
  await second.locator(byTestId('task-due-input')).fill(localDate(0));
  await second.locator(byTestId('task-save')).click();
  await addTask(page, 'Someday maybe');
  await synced(page);
  assert.equal(query("SELECT priority || '|' || labels FROM tasks WHERE title = 'Renew the domain'"),
               'urgent|["admin","web"]');

  await page.click(byTestId('nav-today'));
  await page.locator(byTestId('today-item')).first().waitFor();
  assert.deepEqual(await page.locator(`${byTestId('today-overdue')} ${byTestId('today-item')} a`).allTextContents(),
                   ['Renew the domain']);
  assert.deepEqual(await page.locator(`${byTestId('today-due')} ${byTestId('today-item')} a`).allTextContents(),
                   ['Pay the invoice']);
  await screenshot(page, 'app_views-today');

  // A keyboard user changes a status from its button: the change re-renders
  // Today, which builds every row's button anew, and the focus stays on that
  // task's status button instead of falling to the page.
  const invoice = page.locator(byTestId('today-item'), {hasText: 'Pay the invoice'});
  const invoiceId = await invoice.getAttribute('data-id');
  await invoice.locator(byTestId('today-status')).focus();
  await page.keyboard.press('Enter');
  await page.locator(`${byTestId('today-item')}[data-id="${invoiceId}"][data-status="doing"]`).waitFor();
  assert.deepEqual(await page.evaluate(() => [document.activeElement.dataset.testid,
                                              document.activeElement.closest('[data-id]')?.dataset.id]),
                   ['today-status', invoiceId]);
  await synced(page);
  assert.equal(query(`SELECT status FROM tasks WHERE id = '${invoiceId}'`), 'doing');
});

test('a reminder shows in Today at its time, counts in the sidebar, and Dismiss reaches the server',
     async (t) => {
  if (!hasRecords) return t.skip('this build cannot list records');
  const {page, query} = app;
  await page.click(byTestId('nav-today'));
  const [due] = await page.evaluate(async () => {
    const create = (text, at) => window.ensemble.rpc('mutate', {
      name: 'reminder.create', args: {spaceId: 'personal', text, at}});
    return [(await create('Call the bank', Date.now() - 60000)).id,
            (await create('Stretch', Date.now() + 2500)).id];
  });
  const reminder = (text) => page.locator(byTestId('today-reminder'), {hasText: text});
  await reminder('Call the bank').waitFor();
  await expectText(page, byTestId('today-count'), '1');
  assert.equal(await reminder('Stretch').count(), 0);
  // Nothing reloads or pulls: the page wakes at the reminder's time.
  await reminder('Stretch').waitFor({timeout: 15000});
  await expectText(page, byTestId('today-count'), '2');
  await screenshot(page, 'app_views-reminders');
  // A reload on the task list: Today's module arrives after the list's
  // first paint, when what it counts is read already, and still counts it.
  await page.goto(new URL('/#/tasks', page.url()).href);
  await page.reload();
  await expectText(page, byTestId('today-count'), '2');
  await page.click(byTestId('nav-today'));
  await reminder('Call the bank').locator(byTestId('reminder-dismiss')).click();
  await reminder('Call the bank').waitFor({state: 'detached'});
  await expectText(page, byTestId('today-count'), '1');
  await synced(page);
  assert.equal(query(`SELECT dismissed FROM reminders WHERE id = '${due}'`), '1');
  await reminder('Stretch').locator(byTestId('reminder-dismiss')).click();
  await page.locator(byTestId('today-count')).waitFor({state: 'detached'});
});

test('a desk list is made in Today, its lines ticked and removed, and each change reaches the server',
     async (t) => {
  if (!hasRecords) return t.skip('this build cannot list records');
  const {page, query} = app;
  await page.click(byTestId('nav-today'));
  await page.fill(byTestId('desk-new-list'), 'Waiting on');
  await page.keyboard.press('Enter');
  const list = page.locator(byTestId('desk-list'), {hasText: 'Waiting on'});
  await list.waitFor();
  const listId = await list.getAttribute('data-id');
  for (const text of ['Contract from Ana', 'Invoice #12']) {
    await list.locator(byTestId('desk-line-input')).fill(text);
    await list.locator(byTestId('desk-line-input')).press('Enter');
    // On a timeout, say what the section showed (a refusal shows there) and
    // what the input held, so that a rare failure can be told apart.
    await list.locator(byTestId('desk-line'), {hasText: text}).waitFor().catch(async (e) => {
      const shown = await page.locator(byTestId('desk-lists')).innerText().catch(() => '(none)');
      const typed = await list.locator(byTestId('desk-line-input')).inputValue().catch(() => '?');
      await screenshot(page, 'app_views-desk-lists-failed').catch(() => {});
      throw new Error(`"${text}" never showed (the input holds "${typed}"); Lists read:\n` +
                      `${shown}\n${e.message}`);
    });
  }
  const line = (text) => list.locator(byTestId('desk-line'), {hasText: text});
  // Lines keep the order they were added in.
  assert.deepEqual(await list.locator(`${byTestId('desk-line')} label`).allTextContents(),
                   ['Contract from Ana', 'Invoice #12']);
  await line('Contract from Ana').locator(byTestId('desk-line-done')).check();
  await list.locator(`${byTestId('desk-line')}[data-done="yes"]`).waitFor();
  await line('Invoice #12').locator(byTestId('desk-line-remove')).click();
  await line('Invoice #12').waitFor({state: 'detached'});
  await screenshot(page, 'app_views-desk-lists');
  // Sections with nothing to show leave no trace (not the word "null").
  assert.doesNotMatch(await page.locator(byTestId('today-body')).innerText(), /null|undefined/);
  await synced(page);
  assert.equal(query(`SELECT title FROM desk_lists WHERE id = '${listId}'`), 'Waiting on');
  assert.equal(query(`SELECT text || ':' || done || ':' || deleted FROM desk_list_items
                      WHERE list = '${listId}' ORDER BY position`),
               'Contract from Ana:1:0\nInvoice #12:0:1');
  await list.locator(byTestId('desk-list-remove')).click();
  await list.waitFor({state: 'detached'});
  await synced(page);
  assert.equal(query(`SELECT deleted FROM desk_lists WHERE id = '${listId}'`), '1');

  // A change landing while a title is half typed (here a task added
  // elsewhere, due today) re-renders Today; the input keeps its text, its
  // focus and its caret, so the next key still goes to it.
  await page.fill(byTestId('desk-new-list'), 'To read');
  await page.evaluate(() => document.activeElement.setSelectionRange(3, 3));
  await page.evaluate((due) => window.ensemble.rpc('createTask',
                                                   {title: 'Water the plants', due, spaceId: 'personal'}),
                      localDate(0));
  await page.locator(byTestId('today-item'), {hasText: 'Water the plants'}).waitFor();
  assert.deepEqual(await page.evaluate(() => [document.activeElement.dataset.testid,
                                              document.activeElement.selectionStart]),
                   ['desk-new-list', 3]);
  await page.keyboard.type('Books ');
  await page.keyboard.press('Enter');
  await page.locator(byTestId('desk-list'), {hasText: 'To Books read'}).waitFor();
});

test('a deleted task waits in Trash and Restore brings it back', async (t) => {
  if (!hasRecords) return t.skip('this build cannot list records');
  const {page, query} = app;
  const row = await addTask(page, 'Old errand');
  const id = await row.getAttribute('data-id');
  await row.locator(byTestId('task-edit')).click();
  await row.locator(byTestId('task-delete')).click();
  await row.waitFor({state: 'detached'});
  await page.click(byTestId('nav-trash'));
  const item = page.locator(`${byTestId('trash-item')}[data-id="${id}"]`);
  await item.waitFor();
  await synced(page);
  assert.equal(query(`SELECT deleted FROM tasks WHERE id = '${id}'`), '1');
  await item.locator(byTestId('trash-restore')).click();
  await item.waitFor({state: 'detached'});
  await synced(page);
  assert.equal(query(`SELECT deleted FROM tasks WHERE id = '${id}'`), '0');
  await page.click(byTestId('nav-tasks'));
  await page.locator(`${byTestId('task-row')}[data-id="${id}"]`).waitFor();
});

test('People suggests two entries of one name, and Merge reaches the server', async (t) => {
  if (!hasRecords) return t.skip('this build cannot list records');
  const {page, query} = app;
  await page.click(byTestId('nav-people'));
  for (const [name, email] of [['Ana Lima', 'ana@work.example'], ['ana lima', 'ana@home.example']]) {
    await page.fill(byTestId('person-name'), name);
    await page.fill(byTestId('person-email'), email);
    await page.keyboard.press('Enter');
    await page.locator(byTestId('person-item'), {hasText: email}).waitFor();
  }
  const pair = page.locator(byTestId('merge-suggestion'));
  await pair.waitFor();
  assert.match(await pair.textContent(), /same name/);
  await pair.locator(byTestId('merge-start')).click();
  await pair.locator('[role="alert"]', {hasText: 'goes to Trash'}).waitFor();
  // A change landing meanwhile reads the suggestions again; the question
  // stays open until it is answered.
  await page.evaluate(() => window.ensemble.rpc('mutate', {
    name: 'person.create', args: {spaceId: 'personal', name: 'Bo Reyes'}}));
  await page.locator(byTestId('person-item'), {hasText: 'Bo Reyes'}).waitFor();
  // The worker answers in order, so once this read is back the view's own
  // read of the suggestions (asked first) has been drawn.
  await page.evaluate(() => window.ensemble.rpc('mergeSuggestions', {spaceId: 'personal'}));
  assert.equal(await pair.locator('[role="alert"]', {hasText: 'goes to Trash'}).count(), 1);
  await screenshot(page, 'app_views-people-merge');
  await pair.locator(byTestId('merge-confirm')).click();
  await pair.waitFor({state: 'detached'});
  await expectText(page, byTestId('people-message'), 'Merged “ana lima” into “Ana Lima”.');
  assert.equal(await page.locator(byTestId('person-item')).count(), 2);
  await synced(page);
  assert.equal(query("SELECT deleted FROM people WHERE email = 'ana@home.example'"), '1');
  assert.equal(query("SELECT p.name FROM person_identities i JOIN people p ON p.id = i.person " +
                     "WHERE i.value = 'ana@home.example' AND i.deleted = 0"), 'Ana Lima');

  // Two people of one name who are two people: "Not the same" ends the pair for good.
  for (const email of ['cy@one.example', 'cy@two.example']) {
    await page.fill(byTestId('person-name'), 'Cy Park');
    await page.fill(byTestId('person-email'), email);
    await page.keyboard.press('Enter');
    await page.locator(byTestId('person-item'), {hasText: email}).waitFor();
  }
  await pair.waitFor();
  await pair.locator(byTestId('merge-not-same')).click();
  await pair.waitFor({state: 'detached'});
  await expectText(page, byTestId('people-message'),
                   '“Cy Park” and “Cy Park” will not be suggested again.');
  assert.equal(await page.locator(byTestId('person-item'), {hasText: 'Cy Park'}).count(), 2);
  await synced(page);
  assert.equal(query("SELECT distinct_from = '[\"' || " +
                     "(SELECT id FROM people WHERE email = 'cy@one.example') || '\"]' " +
                     "FROM people WHERE email = 'cy@two.example'"), '1');
});

test('a page is written in the page editor and reaches the server', async (t) => {
  if (!hasRecords) return t.skip('this build cannot list records');
  const {page, query} = app;
  await page.click(byTestId('nav-pages'));
  await page.click(byTestId('new-page'));
  const title = page.locator(byTestId('page-title-input'));
  await title.waitFor();
  await title.fill('Offsite notes');
  await page.fill(byTestId('page-body-input'), 'Day one: arrive.\nDay two: plan.');
  await page.click(byTestId('page-save'));
  await expectText(page, byTestId('page-message'), 'Saved.');
  await page.locator(byTestId('page-item'), {hasText: 'Offsite notes'}).waitFor();
  await synced(page);
  assert.equal(query("SELECT body FROM pages WHERE title = 'Offsite notes'"),
               'Day one: arrive.\nDay two: plan.');
  await screenshot(page, 'app_views-page');
});

test('the @-menu offers records and is used from the keyboard', async () => {
  const {page} = app;
  await page.click(byTestId('dock-input'));
  await page.keyboard.type('Remind me about @Renew');
  const option = page.locator(byTestId('mention-option'));
  await option.first().waitFor();
  assert.match(await option.first().textContent(), /Renew the domain/);
  await page.keyboard.press('Enter');
  await page.locator(byTestId('mention-menu')).waitFor({state: 'hidden'});
  assert.equal(await page.inputValue(byTestId('dock-input')), 'Remind me about @Renew the domain ');
  assert.match(await page.textContent(byTestId('mention-chip')), /@Renew the domain/);
  await page.fill(byTestId('dock-input'), '');
});

test('at 390 px the sidebar and views fit without sideways scrolling', async () => {
  const {page} = app;
  await page.setViewportSize({width: 390, height: 844});
  for (const view of ['tasks', 'today', 'boards', 'pages', 'people', 'trash']) {
    await page.click(byTestId(`nav-${view}`));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
    assert.equal(overflow, false, `${view}: nothing scrolls sideways`);
  }
  await page.click(byTestId('nav-tasks'));
  await page.click(byTestId('dock-toggle'));
  await page.locator(byTestId('dock-input')).waitFor({state: 'visible'});
  await screenshot(page, 'app_views-390-dock');
  await page.keyboard.press('Escape');
  await page.locator(byTestId('dock')).waitFor({state: 'hidden'});
  assert.deepEqual(app.pageErrors, []);
});
