// The offline slice, end to end in headless Chromium against the real server:
// a task created in the browser while the server is down is stored in the
// browser's SQLite database (OPFS), survives a page reload (the service
// worker serves the app), and reaches the server's database exactly once
// when the server comes back.
//
// Runs on the server's embedded SQLite store always, and on PostgreSQL when
// ENSEMBLE_TEST_DATABASE_URL names a server (a fresh database is created for
// the run and dropped after). ENSEMBLE_REQUIRE_PG=1 turns a missing
// PostgreSQL into a failure instead of a skip.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';

import {
  createPgDatabase, freePort, launchBrowser, psql, repoRoot, ServerProcess, sqliteQuery, sqlString,
  tempDir,
} from '../../tools/lib/harness.mjs';

const kShotDir = path.join(repoRoot, 'build', 'e2e');
const byTestId = (id) => `[data-testid="${id}"]`;

async function expectText(page, testId, text, timeout = 15000) {
  await page.waitForFunction(
    ([sel, want]) => document.querySelector(sel)?.textContent.trim() === want,
    [byTestId(testId), text], {timeout});
}

async function scenario({label, databaseUrl, countOnServer}) {
  const dataDir = tempDir('ensemble-e2e-data-');
  const server = new ServerProcess({port: await freePort(), dataDir, databaseUrl});
  const browser = await launchBrowser();
  try {
    await offlineSlice({label, server, context: browser.context, page: browser.page, dataDir,
                        countOnServer});
  } catch (e) {
    e.message += `\n--- server log ---\n${server.log}`;
    throw e;
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, {recursive: true, force: true});
  }
}

// Every mutation the server took from the app (POST /api/sync/push, sent by
// its worker, answered 200), as [name, title].
function watchPushes(context) {
  const pushed = [];
  context.on('response', (response) => {
    const request = response.request();
    if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/api/sync/push' ||
        response.status() !== 200) {
      return;
    }
    for (const m of JSON.parse(request.postData()).mutations) pushed.push([m.name, m.args.title]);
  });
  return pushed;
}

async function offlineSlice({label, server, context, page, dataDir, countOnServer}) {
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const pushed = watchPushes(context);
  await server.start();
  await page.goto(`${server.url}/`);
  await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
  await expectText(page, 'connection-state', 'Online');
  // The service worker must control the page before the server goes away,
  // or there is nothing to reload from.
  await page.waitForSelector(`${byTestId('app')}[data-offline-ready="true"]`, {timeout: 20000});
  const status = await page.evaluate(() => window.ensemble.rpc('status'));
  assert.equal(status.db.storage, 'opfs', 'the database lives in OPFS');

  // --- The server goes down. ---
  await server.stop();
  const title = `Written offline (${label}) ${Date.now()}`;
  await page.fill(byTestId('new-task-title'), title);
  await page.fill(byTestId('new-task-due'), '2026-12-24');
  await page.click(byTestId('add-task'));
  await expectText(page, 'connection-state', 'Offline');
  await expectText(page, 'pending-count', '1');
  const row = page.locator(byTestId('task-row'), {hasText: title});
  await row.waitFor();

  // --- Reload while the server is still down. ---
  await page.reload();
  await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
  await row.waitFor({timeout: 10000});
  assert.equal(await row.count(), 1, 'the task is still there after the reload');
  assert.match(await row.locator(byTestId('task-due')).textContent(), /2026/);
  await expectText(page, 'pending-count', '1');
  await expectText(page, 'connection-state', 'Offline');
  assert.equal((await page.evaluate(() => window.ensemble.rpc('status'))).sync.pending, 1);
  assert.deepEqual(pushed, [], 'nothing was pushed while the server was down');

  // --- The server comes back. ---
  await server.start();
  await expectText(page, 'pending-count', '0', 30000);
  await expectText(page, 'connection-state', 'Online');
  // The outbox held that one mutation, kept across the reload.
  assert.deepEqual(pushed, [['task.create', title]], 'the outbox pushed the task once');
  assert.equal(await countOnServer(dataDir, title), 1, 'exactly one row on the server');

  // Another full sync (a reload while online) must not apply it again.
  await page.reload();
  await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
  await expectText(page, 'connection-state', 'Online');
  await page.evaluate(() => window.ensemble.rpc('syncNow'));
  await row.waitFor();
  assert.equal(await countOnServer(dataDir, title), 1, 'still exactly one row after another sync');
  assert.deepEqual(pushed, [['task.create', title]], 'and it was not pushed again');
  assert.equal(await page.locator(byTestId('task-row'), {hasText: title}).count(), 1);
  assert.equal(await page.locator(byTestId('problem')).count(), 0, 'no rejections or errors shown');

  fs.mkdirSync(kShotDir, {recursive: true});
  await page.screenshot({path: path.join(kShotDir, `offline_sync-${label}.png`), fullPage: true});
  await page.setViewportSize({width: 390, height: 844});
  await page.screenshot({path: path.join(kShotDir, `offline_sync-${label}-390.png`), fullPage: true});
  assert.deepEqual(pageErrors, []);
}

const countTasks = (title) => `SELECT COUNT(*) FROM tasks WHERE title = ${sqlString(title)}`;

test('offline task reaches the server exactly once (SQLite store)', {timeout: 180000}, async () => {
  await scenario({
    label: 'sqlite',
    databaseUrl: null,
    countOnServer: (dataDir, title) =>
      Number(sqliteQuery(path.join(dataDir, 'ensemble.db'), countTasks(title))),
  });
});

const pgAdminUrl = process.env.ENSEMBLE_TEST_DATABASE_URL;
const requirePg = process.env.ENSEMBLE_REQUIRE_PG === '1';

test('offline task reaches the server exactly once (PostgreSQL store)', {
  timeout: 180000,
  skip: !pgAdminUrl && !requirePg ? 'ENSEMBLE_TEST_DATABASE_URL is not set' : false,
}, async () => {
  assert.ok(pgAdminUrl, 'ENSEMBLE_REQUIRE_PG=1 but ENSEMBLE_TEST_DATABASE_URL is not set');
  const pg = createPgDatabase(pgAdminUrl);
  try {
    await scenario({
      label: 'postgres',
      databaseUrl: pg.url,
      countOnServer: (dataDir, title) => Number(psql(pg.url, countTasks(title))),
    });
  } finally {
    pg.drop();
  }
});
