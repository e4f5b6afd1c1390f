// The app's editors lose nothing typed. The page editor keeps what was
// saved after Save (it used to fall back to the page as it was before),
// saves by itself 900 ms after typing stops through the re-render a sync
// causes, asks before a reload with unsaved text, and a page changed
// elsewhere while being edited ends in the conflict flow, never in an
// overwrite. The task details editor sends only what the person changed,
// so a change made elsewhere meanwhile is kept, and one to the same field
// asks before it is overwritten. The inline title edit, the people form,
// a desk list's new line and Settings' text fields keep what is typed
// through a re-render.

import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {
  addTask, byTestId, expectText, pushAsOtherDevice, screenshot, startApp, synced,
} from './app_harness.mjs';

let app;

before(async () => {
  app = await startApp();
});

after(async () => {
  await app?.close();
});

const titleInput = byTestId('page-title-input');
const bodyInput = byTestId('page-body-input');

async function newPage(title) {
  const {page} = app;
  await page.click(byTestId('nav-pages'));
  await page.click(byTestId('new-page'));
  await page.locator(titleInput).waitFor();
  await page.fill(titleInput, title);
  await page.click(byTestId('page-save'));
  await expectText(page, byTestId('page-message'), 'Saved.');
  await synced(page);
  return page.locator(byTestId('page-editor')).getAttribute('data-id');
}

const serverPage = (id) => app.query(`SELECT title || '|' || body FROM pages WHERE id = '${id}'`);

test('after Save the editor keeps what was saved, and typing on loses nothing', async () => {
  const {page} = app;
  await page.click(byTestId('nav-pages'));
  await page.click(byTestId('new-page'));
  await page.locator(titleInput).waitFor();
  await page.fill(titleInput, 'Trip plan');
  await page.fill(bodyInput, 'Book the train.');
  await page.click(byTestId('page-save'));
  await expectText(page, byTestId('page-message'), 'Saved.');
  await page.locator(byTestId('page-item'), {hasText: 'Trip plan'}).waitFor();
  assert.equal(await page.inputValue(titleInput), 'Trip plan');
  assert.equal(await page.inputValue(bodyInput), 'Book the train.');

  await page.click(bodyInput);
  await page.keyboard.press('End');
  await page.keyboard.type('\nPack the tent.');
  await page.click(byTestId('page-save'));
  await expectText(page, byTestId('page-message'), 'Saved.');
  await synced(page);
  const id = await page.locator(byTestId('page-editor')).getAttribute('data-id');
  assert.equal(serverPage(id), 'Trip plan|Book the train.\nPack the tent.');
  assert.deepEqual(app.pageErrors, []);
});

test('a page saves itself after typing stops, through a sync, and a reload shows it', async () => {
  const {page, server} = app;
  const id = await newPage('Standup notes');
  await page.click(bodyInput);
  await page.keyboard.type('Ana: shipped the invoice export.');
  // Another device adds a page: the pull it causes re-renders this view
  // while the person is typing.
  const results = await pushAsOtherDevice(server, [
    {name: 'page.create', args: {id: '01JB0000000000000000000P01', spaceId: 'personal',
                                 title: 'Made elsewhere', body: ''}},
  ]);
  assert.equal(results[0].status, 'applied');
  await page.locator(byTestId('page-item'), {hasText: 'Made elsewhere'}).waitFor();
  await page.keyboard.type('\nBo: reviewing the board.');  // The caret stayed in the body.
  await expectText(page, byTestId('page-message'), 'Saved.');
  assert.equal(await page.inputValue(titleInput), 'Standup notes');
  await synced(page);
  const typed = 'Ana: shipped the invoice export.\nBo: reviewing the board.';
  assert.equal(serverPage(id), `Standup notes|${typed}`);

  await page.reload();
  await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
  await page.click(byTestId('nav-pages'));
  await page.locator(byTestId('page-item'), {hasText: 'Standup notes'}).click();
  assert.equal(await page.inputValue(bodyInput), typed);
  await screenshot(page, 'page_editor-autosaved');
});

test('a title saved during a pause after a space keeps the space', async () => {
  const {page} = app;
  const id = await newPage('Weekly');
  await page.click(titleInput);
  await page.keyboard.press('End');
  await page.keyboard.type(' review ');
  // The autosave stores the title trimmed; the render its change causes
  // must not take the space the person just typed.
  await expectText(page, byTestId('page-message'), 'Saved.');
  await synced(page);
  await page.keyboard.type('notes');
  assert.equal(await page.inputValue(titleInput), 'Weekly review notes');
  await expectText(page, byTestId('page-message'), 'Saved.');
  await synced(page);
  assert.equal(serverPage(id), 'Weekly review notes|');
});

test('reloading with unsaved text asks first, and the text is kept', async () => {
  const {page} = app;
  const id = await newPage('Reading list');
  await page.click(bodyInput);
  await page.keyboard.type('Dune');
  const dialog = new Promise((resolve) => page.once('dialog', resolve));
  // Sooner than the autosave, so the text is still unsaved.
  await page.evaluate(() => setTimeout(() => location.reload(), 0));
  const asked = await dialog;
  assert.equal(asked.type(), 'beforeunload');
  await asked.dismiss();
  await expectText(page, byTestId('page-message'), 'Saved.');
  await synced(page);
  assert.equal(serverPage(id), 'Reading list|Dune');
});

test('a page renamed on the server while renamed offline shows the conflict', async () => {
  const {page, browser, server} = app;
  const id = await newPage('Agenda');
  await browser.context.setOffline(true);
  await expectText(page, byTestId('connection-state'), 'Offline');
  await page.fill(titleInput, 'Agenda for Monday');
  await expectText(page, byTestId('page-message'), 'Saved.');
  await expectText(page, byTestId('pending-count'), '1');
  const results = await pushAsOtherDevice(server, [
    {name: 'page.update', args: {id, fields: {title: 'Board agenda'}, base: {title: 'Agenda'}}},
  ]);
  assert.equal(results[0].status, 'applied');
  await browser.context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));

  const problem = page.locator(byTestId('problem'));
  await problem.waitFor({timeout: 20000});
  assert.equal(await problem.getAttribute('data-code'), 'SAVE_CONFLICT');
  assert.equal(serverPage(id), 'Board agenda|');  // Not overwritten.
  await page.waitForFunction((sel) => document.querySelector(sel)?.value === 'Board agenda',
                             titleInput);
  await problem.locator(byTestId('keep-mine')).click();
  await problem.waitFor({state: 'detached'});
  await page.waitForFunction((sel) => document.querySelector(sel)?.value === 'Agenda for Monday',
                             titleInput);
  await synced(page);
  assert.equal(serverPage(id), 'Agenda for Monday|');
});

test('a page changed in another tab while being edited asks whose text to keep', async () => {
  const {page} = app;
  const id = await newPage('Packing');
  // The person types, and before the autosave another tab saves the same
  // field into this replica.
  await page.evaluate(async ([bodySel, pageId]) => {
    const input = document.querySelector(bodySel);
    input.value = 'Boots';
    input.dispatchEvent(new Event('input', {bubbles: true}));
    await window.ensemble.rpc('mutate', {name: 'page.update',
                                         args: {id: pageId, fields: {body: 'Tent'}, base: {body: ''}}});
  }, [bodyInput, id]);
  const conflict = page.locator(byTestId('page-conflict'));
  await conflict.locator(byTestId('page-keep-mine')).waitFor();
  assert.equal(await page.inputValue(bodyInput), 'Boots');
  await synced(page);
  assert.equal(serverPage(id), 'Packing|Tent');  // Nothing overwritten unasked.
  await screenshot(page, 'page_editor-conflict');

  await conflict.locator(byTestId('page-keep-mine')).click();
  await expectText(page, byTestId('page-message'), 'Saved.');
  await synced(page);
  assert.equal(serverPage(id), 'Packing|Boots');
  assert.equal(await page.locator(byTestId('page-keep-mine')).count(), 0);
  assert.deepEqual(app.pageErrors, []);
});

const serverTask = (id) =>
  app.query(`SELECT coalesce(due, '-') || '|' || description FROM tasks WHERE id = '${id}'`);

test('task details keep a due date set elsewhere while the description is typed', async () => {
  const {page, server} = app;
  const row = await addTask(page, 'Ship the report');
  const id = await row.getAttribute('data-id');
  await synced(page);
  await row.locator(byTestId('task-edit')).click();
  await row.locator(byTestId('task-description-input')).fill('Draft it on Thursday.');
  // Another device sets the due date; the pull re-renders the row under the
  // open editor.
  const results = await pushAsOtherDevice(server, [
    {name: 'task.update', args: {id, fields: {due: '2031-05-02'}, base: {due: null}}},
  ]);
  assert.equal(results[0].status, 'applied');
  await row.locator(byTestId('task-due')).filter({hasText: '2031'}).waitFor();
  assert.equal(await row.locator(byTestId('task-description-input')).inputValue(),
               'Draft it on Thursday.');
  await row.locator(byTestId('task-save')).click();
  await row.locator(byTestId('task-editor')).waitFor({state: 'detached'});
  await synced(page);
  assert.equal(serverTask(id), '2031-05-02|Draft it on Thursday.');
});

test('task details changed elsewhere in the same field ask before overwriting', async () => {
  const {page, server} = app;
  const row = await addTask(page, 'Book the venue');
  const id = await row.getAttribute('data-id');
  await synced(page);
  await row.locator(byTestId('task-edit')).click();
  const description = row.locator(byTestId('task-description-input'));
  await description.fill('The hall on Main Street.');
  const results = await pushAsOtherDevice(server, [
    {name: 'task.update', args: {id, fields: {description: 'The park.'}, base: {description: ''}}},
  ]);
  assert.equal(results[0].status, 'applied');
  await synced(page);  // The pull brings the other description to this device.
  await row.locator(byTestId('task-save')).click();
  await page.locator(byTestId('form-error'), {hasText: 'changed elsewhere'}).waitFor();
  assert.equal(await description.inputValue(), 'The hall on Main Street.');
  assert.equal(serverTask(id), '-|The park.');  // Not overwritten unasked.

  await row.locator(byTestId('task-save')).click();  // Keep mine, knowingly.
  await row.locator(byTestId('task-editor')).waitFor({state: 'detached'});
  await synced(page);
  assert.equal(serverTask(id), '-|The hall on Main Street.');
  assert.deepEqual(app.pageErrors, []);
});

test('settings keep what is typed through a re-render, and save it', async () => {
  const {page, server} = app;
  const saved = async (path) => (await fetch(`${server.url}${path}`, {cache: 'no-store'})).json();
  await page.click(byTestId('nav-settings'));
  await page.waitForSelector(byTestId('model-form'));
  await page.fill(byTestId('model-provider'), 'openai');
  await page.fill(byTestId('model-baseUrl'), 'https://api.example.com/v1');
  await page.fill(byTestId('model-model'), 'o4-mini');
  await page.fill(byTestId('setting-time-zone'), 'Europe/Lisbon');
  // A change from another device re-renders the view (its status line is
  // built anew) while the fields hold unsaved text.
  await page.evaluate(() => {
    window.beforeRender = document.querySelector('[data-testid="settings-message"]');
  });
  const results = await pushAsOtherDevice(server, [
    {name: 'task.create', args: {id: '01JB0000000000000000000T77', spaceId: 'personal',
                                 title: 'Made while settings were typed'}},
  ]);
  assert.equal(results[0].status, 'applied');
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="settings-message"]') !== window.beforeRender);
  assert.equal(await page.inputValue(byTestId('model-model')), 'o4-mini');
  assert.equal(await page.inputValue(byTestId('setting-time-zone')), 'Europe/Lisbon');

  await page.click(byTestId('model-save'));
  await expectText(page, byTestId('settings-message'), 'The model is saved.');
  await page.click(byTestId('time-zone-save'));
  await expectText(page, byTestId('settings-message'), 'The time zone is saved.');
  assert.equal((await saved('/api/settings/model')).model, 'o4-mini');
  assert.equal((await saved('/api/settings')).general.timeZone, 'Europe/Lisbon');
  await page.reload();
  await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
  await page.click(byTestId('nav-settings'));
  await page.waitForSelector(byTestId('model-form'));
  assert.equal(await page.inputValue(byTestId('model-model')), 'o4-mini');
  assert.equal(await page.inputValue(byTestId('setting-time-zone')), 'Europe/Lisbon');
  assert.deepEqual(app.pageErrors, []);
});

test('an inline title edit keeps its text while a sync changes the same task', async () => {
  const {page, server} = app;
  const row = await addTask(page, 'Call the plumber');
  const id = await row.getAttribute('data-id');
  await synced(page);
  await row.locator(byTestId('task-title')).click();
  const input = row.locator(byTestId('task-title-input'));
  await page.keyboard.press('End');
  await page.keyboard.type(' about the boiler');
  const results = await pushAsOtherDevice(server, [
    {name: 'task.update', args: {id, fields: {status: 'doing'}, base: {status: 'todo'}}},
  ]);
  assert.equal(results[0].status, 'applied');
  await page.locator(`${byTestId('task-row')}[data-id="${id}"][data-status="doing"]`).waitFor();
  assert.equal(await input.inputValue(), 'Call the plumber about the boiler');
  await page.keyboard.type(' today');  // The caret stayed in the input.
  await page.keyboard.press('Enter');
  await synced(page);
  assert.equal(app.query(`SELECT title || '|' || status FROM tasks WHERE id = '${id}'`),
               'Call the plumber about the boiler today|doing');
  await page.reload();
  await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
  await page.locator(`${byTestId('task-row')}[data-id="${id}"]`,
                     {hasText: 'Call the plumber about the boiler today'}).waitFor();
});

test('the people form keeps a name being typed through a sync', async () => {
  const {page, server} = app;
  await page.click(byTestId('nav-people'));
  await page.click(byTestId('person-name'));
  await page.keyboard.type('Rosa');
  const results = await pushAsOtherDevice(server, [
    {name: 'person.create', args: {id: '01JB0000000000000000000R01', spaceId: 'personal',
                                   name: 'Made elsewhere'}},
  ]);
  assert.equal(results[0].status, 'applied');
  await page.locator(byTestId('person-item'), {hasText: 'Made elsewhere'}).waitFor();
  await page.keyboard.type(' Diaz');
  await page.fill(byTestId('person-email'), 'rosa@example.org');
  await page.keyboard.press('Enter');
  await page.locator(byTestId('person-item'), {hasText: 'rosa@example.org'}).waitFor();
  await synced(page);
  assert.equal(app.query("SELECT name FROM people WHERE email = 'rosa@example.org'"), 'Rosa Diaz');
});

test('a desk list keeps a line being typed through a sync, and the server gets it whole', async () => {
  const {page, server} = app;
  await page.click(byTestId('nav-today'));
  await page.fill(byTestId('desk-new-list'), 'Calls');
  await page.press(byTestId('desk-new-list'), 'Enter');
  const list = page.locator(byTestId('desk-list'), {hasText: 'Calls'});
  await list.waitFor();
  await synced(page);
  const listId = await list.getAttribute('data-id');
  await list.locator(byTestId('desk-line-input')).click();
  await page.keyboard.type('Ring the');
  const results = await pushAsOtherDevice(server, [
    {name: 'desk_list_item.create', args: {id: '01JB0000000000000000000D01', spaceId: 'personal',
                                           list: listId, text: 'Made elsewhere', position: 1}},
  ]);
  assert.equal(results[0].status, 'applied');
  await list.locator(byTestId('desk-line'), {hasText: 'Made elsewhere'}).waitFor();
  await page.keyboard.type(' landlord');  // The focus stayed in the box.
  await page.keyboard.press('Enter');
  await list.locator(byTestId('desk-line'), {hasText: 'Ring the landlord'}).waitFor();
  await synced(page);
  assert.equal(app.query(`SELECT text FROM desk_list_items WHERE list = '${listId}' ORDER BY position`),
               'Made elsewhere\nRing the landlord');
  await page.reload();
  await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
  await page.click(byTestId('nav-today'));
  await page.locator(byTestId('desk-line'), {hasText: 'Ring the landlord'}).waitFor();
});
