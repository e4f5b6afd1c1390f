// The web shell's behaviour in headless Chromium against the real server
// (embedded SQLite store): adding, inline editing and status changes reach
// the server; a refused change (SAVE_CONFLICT) is shown readably; a second
// tab gets a clear "open in another tab" state instead of sharing the
// database, and takes over when the first tab closes.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';

import {
  freePort, launchBrowser, repoRoot, ServerProcess, sqliteQuery, sqlString, tempDir,
} from '../../tools/lib/harness.mjs';

const kShotDir = path.join(repoRoot, 'build', 'e2e');
const byTestId = (id) => `[data-testid="${id}"]`;

async function expectText(page, selector, text, timeout = 15000) {
  await page.waitForFunction(([sel, want]) => document.querySelector(sel)?.textContent.trim() === want,
                             [selector, text], {timeout});
}

const ready = (page) =>
  page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});

describe('web shell', () => {
  let dataDir;
  let server;
  let browser;
  let page;

  const serverTask = (title) => sqliteQuery(
    path.join(dataDir, 'ensemble.db'),
    `SELECT status || '|' || COALESCE(due, '') || '|' || version FROM tasks WHERE title = ${sqlString(title)}`);

  async function synced() {
    await expectText(page, byTestId('pending-count'), '0', 20000);
    await page.evaluate(() => window.ensemble.rpc('syncNow'));
  }

  async function addTask(title, due = '') {
    await page.fill(byTestId('new-task-title'), title);
    await page.fill(byTestId('new-task-due'), due);
    await page.press(byTestId('new-task-title'), 'Enter');
    const found = page.locator(byTestId('task-row'), {hasText: title});
    await found.waitFor();
    // By id from here on: while a title is edited the row shows no text.
    return page.locator(`${byTestId('task-row')}[data-id="${await found.getAttribute('data-id')}"]`);
  }

  before(async () => {
    dataDir = tempDir('ensemble-e2e-shell-');
    server = new ServerProcess({port: await freePort(), dataDir});
    await server.start();
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(`${server.url}/`);
    await ready(page);
    await expectText(page, byTestId('connection-state'), 'Online');
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, {recursive: true, force: true});
  });

  test('the page has an icon, served as SVG', async () => {
    const icon = await page.evaluate(async () => {
      const href = document.querySelector('link[rel="icon"]')?.getAttribute('href');
      const res = await fetch(href);
      return {href, status: res.status, type: res.headers.get('content-type'),
              svg: (await res.text()).startsWith('<svg')};
    });
    assert.deepEqual(icon, {href: '/favicon.svg', status: 200, type: 'image/svg+xml', svg: true});
  });

  test('an added task shows at once and reaches the server', async () => {
    const row = await addTask('Book the venue', '2027-01-15');
    assert.match(await row.locator(byTestId('task-due')).textContent(), /2027/);
    assert.equal(await row.locator(byTestId('task-status')).textContent(), 'To do');
    await synced();
    assert.equal(serverTask('Book the venue'), 'todo|2027-01-15|1');
    // The form is ready for the next one.
    assert.equal(await page.inputValue(byTestId('new-task-title')), '');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'new-task-title');
  });

  test('the status button moves a task along and the server follows', async () => {
    const row = await addTask('Send the invitations');
    const status = row.locator(byTestId('task-status'));
    await status.click();
    await expectText(page, `${byTestId('task-row')}[data-status="doing"] ${byTestId('task-status')}`, 'Doing');
    await status.focus();
    await page.keyboard.press('Enter');  // Keyboard works as well as the mouse.
    await page.waitForSelector(`${byTestId('task-row')}[data-status="done"]`);
    assert.equal(await status.textContent(), 'Done');
    await synced();
    assert.equal(serverTask('Send the invitations'), 'done||3');
  });

  test('a title is edited in place; Escape cancels', async () => {
    const row = await addTask('Draft agenda');
    await row.locator(byTestId('task-title')).click();
    const input = row.locator(byTestId('task-title-input'));
    await input.fill('Final agenda');
    await input.press('Enter');
    await expectText(page, `[data-id="${await row.getAttribute('data-id')}"] ${byTestId('task-title')}`,
                     'Final agenda');
    await synced();
    assert.equal(serverTask('Final agenda'), 'todo||2');

    const edited = row;
    await edited.locator(byTestId('task-title')).focus();
    await page.keyboard.press('Enter');
    await edited.locator(byTestId('task-title-input')).fill('Not this');
    await page.keyboard.press('Escape');
    assert.equal(await edited.locator(byTestId('task-title')).textContent(), 'Final agenda');
    assert.equal(await page.locator(byTestId('task-row'), {hasText: 'Not this'}).count(), 0);
  });

  test('a title is as long as the core allows, a limit the page reads from the module', async () => {
    const limits = await page.evaluate(() => window.ensemble.rpc('limits'));
    const max = limits.fields.task.title.maxChars;
    assert.ok(Number.isInteger(max) && max > 0);
    assert.equal(await page.getAttribute(byTestId('new-task-title'), 'maxlength'), String(max));
    const row = await addTask('Measure the room');
    await row.locator(byTestId('task-title')).click();
    const input = row.locator(byTestId('task-title-input'));
    assert.equal(await input.getAttribute('maxlength'), String(max));
    await input.press('Escape');
  });

  test('a blank title is refused with a readable message', async () => {
    const rowsBefore = await page.locator(byTestId('task-row')).count();
    await page.fill(byTestId('new-task-title'), '    ');
    await page.click(byTestId('add-task'));
    await page.waitForSelector(`${byTestId('form-error')}:not([hidden])`);
    assert.match(await page.textContent(byTestId('form-error')), /title/i);
    assert.equal(await page.locator(byTestId('task-row')).count(), rowsBefore);
  });

  test('a change the server refuses is shown, and the server\'s value wins', async () => {
    const row = await addTask('Order coffee');
    await synced();
    const id = await row.getAttribute('data-id');
    const rowTitle = `[data-id="${id}"] ${byTestId('task-title')}`;

    // Offline, the person renames the task; meanwhile another device renames
    // it on the server.
    await browser.context.setOffline(true);
    await expectText(page, byTestId('connection-state'), 'Offline');
    await row.locator(byTestId('task-title')).click();
    await row.locator(byTestId('task-title-input')).fill('Order tea');
    await row.locator(byTestId('task-title-input')).press('Enter');
    await expectText(page, byTestId('pending-count'), '1');
    const res = await fetch(`${server.url}/api/sync/push`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({
        clientGroupId: '01JB00000000000000000000G2',
        clientId: '01JB00000000000000000000C2',
        mutations: [{id: 1, name: 'task.update', clientTime: Date.now(),
                     args: {id, fields: {title: 'Order juice'}, base: {title: 'Order coffee'}}}],
      }),
    });
    assert.equal((await res.json()).results[0].status, 'applied');

    await browser.context.setOffline(false);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    const problem = page.locator(byTestId('problem'));
    await problem.waitFor({timeout: 20000});
    assert.equal(await problem.getAttribute('data-code'), 'SAVE_CONFLICT');
    const text = await problem.textContent();
    assert.match(text, /Renaming “Order coffee” to “Order tea” was not saved/);
    assert.match(text, /changed elsewhere/);
    assert.match(text, /Order juice/);
    await expectText(page, rowTitle, 'Order juice');
    await expectText(page, byTestId('pending-count'), '0');
    fs.mkdirSync(kShotDir, {recursive: true});
    await page.screenshot({path: path.join(kShotDir, 'web_shell-conflict.png'), fullPage: true});

    await problem.getByRole('button', {name: /Dismiss/}).click();
    await page.locator(byTestId('problem')).waitFor({state: 'detached'});
    // Dismissed in the database, not just on screen: it stays gone after a reload.
    await page.reload();
    await expectText(page, rowTitle, 'Order juice');
    assert.equal(await page.locator(byTestId('problem')).count(), 0);
  });

  test('a second tab waits with a clear message and takes over when the first closes', async () => {
    const second = await browser.context.newPage();
    await second.goto(`${server.url}/`);
    await second.waitForSelector(`${byTestId('app')}[data-db-state="blocked"]`, {timeout: 20000});
    assert.match(await second.textContent(byTestId('db-state')), /open in another tab/);
    assert.equal(await second.isDisabled(byTestId('add-task')), true);
    assert.equal(await second.textContent(byTestId('connection-state')), 'Paused');
    await second.screenshot({path: path.join(kShotDir, 'web_shell-second-tab.png')});

    const titles = await page.locator(byTestId('task-title')).allTextContents();
    await page.close();
    await ready(second);
    // The top of the list shows first; the whole list (Completed too) follows.
    await second.waitForFunction((n) => document.querySelectorAll('[data-testid="task-title"]').length === n,
                                 titles.length);
    assert.deepEqual(await second.locator(byTestId('task-title')).allTextContents(), titles);
    page = second;
  });

  test('narrow screens get the same controls', async () => {
    await page.setViewportSize({width: 390, height: 844});
    const box = await page.locator(byTestId('add-task')).boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, 'the add button fits the screen');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
    assert.equal(overflow, false, 'nothing scrolls sideways');
    await page.screenshot({path: path.join(kShotDir, 'web_shell-390.png'), fullPage: true});
  });
});
