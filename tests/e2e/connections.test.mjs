// Settings → Connections: a calendar link added for the open space is listed
// by its name, app and status, never by its link (a secret the server keeps
// encrypted and never sends back); a link that is not http(s) or webcal is
// refused inline with the server's reason; a removed one is gone. The section
// fits a 390 px screen.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';

import {byTestId, expectText, screenshot, startApp} from './app_harness.mjs';

const kLink = 'http://127.0.0.1:9/cal.ics';

test('a calendar link is added, listed without its link, and removed in Settings', async () => {
  const app = await startApp();
  const {page, server} = app;
  const message = byTestId('connections-message');
  const row = page.locator(byTestId('connection'), {hasText: 'Work calendar'});
  try {
    await page.click(byTestId('nav-settings'));
    await page.waitForSelector(byTestId('connections-empty'));
    const space = await page.$eval(byTestId('space-select'), (s) => s.value);
    const listed = async () => (await fetch(
      `${server.url}/api/connections?spaceId=${encodeURIComponent(space)}`, {cache: 'no-store'})).json();

    await page.fill(byTestId('connection-name'), 'Work calendar');
    await page.fill(byTestId('connection-url'), kLink);
    await page.click(byTestId('connection-add'));
    await expectText(page, message, 'Added \u201CWork calendar\u201D.');
    await row.waitFor();
    assert.equal(await row.getAttribute('data-status'), 'new');
    assert.match(await row.textContent(), /Calendar link/);

    // The link leaves the page with the form, and the server never sends it back.
    assert.equal(await page.inputValue(byTestId('connection-url')), '');
    assert.equal((await page.content()).includes(kLink), false);
    assert.equal((await page.evaluate(() => document.body.innerText)).includes(kLink), false);
    const saved = await listed();
    assert.deepEqual(saved.connections.map((c) => [c.name, c.app, c.status]),
                     [['Work calendar', 'calendar-link', 'new']]);
    assert.equal(JSON.stringify(saved).includes(kLink), false);
    // Kept encrypted: no file in the server's data folder holds the link as written.
    for (const file of fs.readdirSync(app.dataDir, {recursive: true})) {
      const full = path.join(app.dataDir, file);
      if (fs.statSync(full).isFile()) {
        assert.equal(fs.readFileSync(full).includes(kLink), false, `${file} holds the link`);
      }
    }
    await screenshot(page, 'connections');

    // On a phone: a link that is not http(s) or webcal is refused with the
    // server's reason, shown in the section; it stays in the form to be corrected.
    await page.setViewportSize({width: 390, height: 844});
    await page.fill(byTestId('connection-name'), 'Old calendar');
    await page.fill(byTestId('connection-url'), 'ftp://x');
    await page.press(byTestId('connection-url'), 'Enter');
    const error = byTestId('connections-error');
    await page.waitForFunction((sel) => /webcal/.test(document.querySelector(sel)?.textContent ?? ''),
                               error);
    assert.match(await page.textContent(error), /^Could not add \u201COld calendar\u201D: /);
    assert.equal(await page.getAttribute(error, 'role'), 'alert');
    assert.equal(await page.inputValue(byTestId('connection-url')), 'ftp://x');
    assert.equal(await page.locator(byTestId('connection')).count(), 1);
    assert.equal((await listed()).connections.length, 1);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
    assert.equal(overflow, false, 'nothing scrolls sideways at 390 px');
    await page.locator(byTestId('connections')).scrollIntoViewIfNeeded();
    await screenshot(page, 'connections-390');

    // Removed from the keyboard; the focus goes back to the section's heading.
    await page.getByRole('button', {name: 'Remove Work calendar'}).focus();
    await page.keyboard.press('Enter');
    await expectText(page, message, 'Removed \u201CWork calendar\u201D.');
    await page.waitForSelector(byTestId('connections-empty'));
    assert.equal(await row.count(), 0);
    assert.equal(await page.isVisible(error), false);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid),
                 'connections-heading');
    assert.deepEqual((await listed()).connections, []);
    assert.deepEqual(app.pageErrors, []);
  } finally {
    await app.close();
  }
});
