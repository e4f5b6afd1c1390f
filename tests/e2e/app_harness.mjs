// Shared by the app's browser tests (assistant dock, conflicts, offline
// merge, boards): a server with a fresh data folder, Chromium on its page,
// and screenshots of each final state under build/e2e-screenshots/.

import fs from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';

import {freePort, launchBrowser, repoRoot, ServerProcess, sqliteQuery, tempDir} from '../../tools/lib/harness.mjs';

export const kShotDir = path.join(repoRoot, 'build', 'e2e-screenshots');
export const byTestId = (id) => `[data-testid="${id}"]`;

export async function expectText(page, selector, text, timeout = 15000) {
  await page.waitForFunction(([sel, want]) => document.querySelector(sel)?.textContent.trim() === want,
                             [selector, text], {timeout});
}

// Starts the server (env adds to its environment) and opens the app.
export async function startApp({env = {}, viewport} = {}) {
  const dataDir = tempDir('ensemble-e2e-app-');
  const server = new ServerProcess({port: await freePort(), dataDir, env});
  await server.start();
  const browser = await launchBrowser(viewport ? {viewport} : undefined);
  const {page} = browser;
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`${server.url}/`);
  await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
  await expectText(page, byTestId('connection-state'), 'Online');
  return {
    server, browser, page, dataDir, pageErrors,
    query: (sql) => sqliteQuery(path.join(dataDir, 'ensemble.db'), sql),
    async close() {
      await browser.close();
      await server.stop();
      fs.rmSync(dataDir, {recursive: true, force: true});
    },
  };
}

export async function synced(page) {
  await expectText(page, byTestId('pending-count'), '0', 20000);
  await page.evaluate(() => window.ensemble.rpc('syncNow'));
}

export async function addTask(page, title) {
  await page.click(byTestId('nav-tasks'));
  await page.fill(byTestId('new-task-title'), title);
  await page.press(byTestId('new-task-title'), 'Enter');
  const found = page.locator(byTestId('task-row'), {hasText: title});
  await found.waitFor();
  return page.locator(`${byTestId('task-row')}[data-id="${await found.getAttribute('data-id')}"]`);
}

// Makes a custom board named `title` with columns named `columns`, in
// order, as a person does; answers the board's locator once all show.
export async function newBoard(page, title, columns) {
  await page.click(byTestId('nav-boards'));
  await page.fill(byTestId('new-board-title'), title);
  await page.press(byTestId('new-board-title'), 'Enter');
  await page.locator(byTestId('board-tab'), {hasText: title}).waitFor();
  const board = page.locator(`${byTestId('board')}:has(${byTestId('column-add')})`);
  for (const [i, name] of columns.entries()) {
    await board.locator(byTestId('column-add-input')).fill(name);
    await board.locator(byTestId('column-add-input')).press('Enter');
    await board.locator(byTestId('board-column')).nth(i).filter({hasText: name}).waitFor();
  }
  return board;
}

// Finds the task titled `title` from `column`'s search box and adds it;
// answers the card's locator.
export async function putTaskOn(page, column, title) {
  await column.locator(byTestId('card-add-input')).fill(title.slice(0, -1));
  await column.locator(byTestId('card-add-match'), {hasText: title}).click();
  const card = column.locator(byTestId('board-card'), {hasText: title});
  await card.waitFor();
  return card;
}

// A push from another device (its own client id), straight to the server;
// its mutation ids go on from one call to the next, as a client's do.
let otherDeviceMutationId = 0;
export async function pushAsOtherDevice(server, mutations) {
  const res = await fetch(`${server.url}/api/sync/push`, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify({
      clientGroupId: '01JB00000000000000000000G9',
      clientId: '01JB00000000000000000000C9',
      mutations: mutations.map((m) => ({id: ++otherDeviceMutationId, clientTime: Date.now(), ...m})),
    }),
  });
  return (await res.json()).results;
}

// The whole page by default; {fullPage: false} keeps what the window shows
// (a sticky bar in a full-page picture lands mid-page).
// Presses Undo on the toast saying `text` and waits until it says Undone.
// (its text changes, so it is followed by element, not by text).
export async function undoToast(page, text) {
  const shown = await page.locator(byTestId('toast'), {hasText: text}).elementHandle();
  await (await shown.$(byTestId('toast-undo'))).click();
  await page.waitForFunction((el) => el.textContent.startsWith('Undone.'), shown);
}

export async function screenshot(page, name, {fullPage = true} = {}) {
  fs.mkdirSync(kShotDir, {recursive: true});
  await page.screenshot({path: path.join(kShotDir, `${name}.png`), fullPage});
}

// axe-core (npm) over the page as it stands: the violations of impact
// serious or critical, each as "rule: target, ...". The engine is evaluated
// through the DevTools protocol, which the app's script-src does not govern.
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export async function seriousAxeViolations(page) {
  const loaded = await page.evaluate(() => typeof window.axe === 'object');
  if (!loaded) await page.evaluate(`${axeSource}\n;undefined`);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, {resultTypes: ['violations']});
    return result.violations.map((v) => ({id: v.id, impact: v.impact,
                                          targets: v.nodes.map((n) => n.target.join(' '))}));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.targets.slice(0, 5).join(', ')}`);
}
