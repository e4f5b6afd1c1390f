// The frame around the views (issue 28): on a long page the top bar and the
// sidebar stay where they are while the list scrolls under them; the skip
// link moves focus without losing the open view or its highlight; at a
// phone's width every view fits and the assistant opens over it.

import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {byTestId, screenshot, startApp, synced} from './app_harness.mjs';

let app;

before(async () => {
  app = await startApp();
  // A list several screens long: written through the worker, as a sync would.
  await app.page.evaluate(async () => {
    for (let i = 1; i <= 60; i++) {
      await window.ensemble.rpc('createTask', {title: `Errand ${String(i).padStart(2, '0')}`});
    }
  });
  await app.page.locator(byTestId('task-row'), {hasText: 'Errand 60'}).waitFor();
  await synced(app.page);
});

after(async () => {
  await app?.close();
});

const box = (page, selector) => page.locator(selector).evaluate((node) => {
  const r = node.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, height: r.height};
});

test('on a long list the top bar and the sidebar stay in place', async () => {
  const {page} = app;
  const viewport = page.viewportSize();
  assert.ok(await page.evaluate(() => document.documentElement.scrollHeight > 2 * innerHeight),
            'the list is several screens long');
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForFunction(() => scrollY > innerHeight);
  const bar = await box(page, '.topbar');
  const sidebar = await box(page, byTestId('sidebar'));
  assert.equal(bar.top, 0, 'the top bar is still at the top');
  assert.ok(Math.abs(sidebar.top - bar.bottom) < 1, `the sidebar starts under the bar (${sidebar.top})`);
  assert.ok(Math.abs(sidebar.bottom - viewport.height) < 1,
            `the sidebar reaches the bottom of the window (${sidebar.bottom})`);
  assert.ok(await page.locator(byTestId('nav-settings')).isVisible());
  const dock = await box(page, byTestId('dock'));
  assert.ok(Math.abs(dock.top - bar.bottom) < 1 && Math.abs(dock.bottom - viewport.height) < 1,
            'the dock fills the column beside the list');
  await screenshot(page, 'layout-long-list', {fullPage: false});
  // Still usable from there: the nav works without scrolling back up.
  await page.click(byTestId('nav-pages'));
  await page.locator(`${byTestId('nav-pages')}[aria-current="page"]`).waitFor();
});

test('the skip link focuses the view and keeps it, its address and its highlight', async () => {
  const {page} = app;
  await page.click(byTestId('nav-people'));
  await page.locator(`${byTestId('nav-people')}[aria-current="page"]`).waitFor();
  await page.locator('.skip-link').focus();
  assert.ok(await page.locator('.skip-link').isVisible(), 'the link shows when focused');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'view');
  assert.equal(await page.evaluate(() => location.hash), '#/people');
  assert.equal(await page.getAttribute(byTestId('nav-people'), 'aria-current'), 'page');
  assert.equal(await page.isVisible(byTestId('view-people')), true);
  await page.reload();
  await page.locator(`${byTestId('nav-people')}[aria-current="page"]`).waitFor();
});

test('at 390 px wide the list fits and the assistant opens over it', async () => {
  const {page} = app;
  await page.setViewportSize({width: 390, height: 844});
  try {
    await page.click(byTestId('nav-tasks'));
    await page.locator(byTestId('task-row')).first().waitFor();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth),
              'nothing scrolls sideways');
    const row = await page.locator(byTestId('task-row')).first().evaluate((node) =>
      node.getBoundingClientRect().width);
    assert.ok(row > 300, `a task row uses the width (${row} px)`);
    await page.click(byTestId('dock-toggle'));
    await page.waitForFunction(() => document.activeElement?.dataset.testid === 'dock-input');
    const dock = await box(page, byTestId('dock'));
    assert.ok(dock.height >= 800, 'the assistant opens over the whole height');
    await screenshot(page, 'layout-phone-dock', {fullPage: false});
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.querySelector('[data-testid="dock"]').dataset.open === 'false');
    await screenshot(page, 'layout-phone', {fullPage: false});
  } finally {
    await page.setViewportSize({width: 1280, height: 800});
  }
});
