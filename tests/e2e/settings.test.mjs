// Settings in the app: the write mode and areas, the model (its key sent once and never
// shown again), the effort the model takes, and the time zone, each saved on
// the server and read back; a refused value says why and changes nothing.

import assert from 'node:assert/strict';
import {test} from 'node:test';

import {byTestId, expectText, screenshot, startApp} from './app_harness.mjs';

const kKey = 'sk-test-e2e-0123456789abcdef';

test('settings are changed in the app and kept on the server', async () => {
  const app = await startApp();
  const {page, server} = app;
  const saved = async (path = '/api/settings') =>
    (await fetch(`${server.url}${path}`, {cache: 'no-store'})).json();
  const message = byTestId('settings-message');
  try {
    await page.click(byTestId('nav-settings'));
    await page.waitForSelector(byTestId('setting-write-mode'));
    assert.match(await page.textContent(byTestId('model-state')), /No model is set up/);
    // Without a model the only effort is none.
    assert.deepEqual(await page.$$eval(`${byTestId('setting-effort')} option`,
                                       (o) => o.map((x) => x.value)), ['none']);

    await page.selectOption(byTestId('setting-write-mode'), 'preview');
    await expectText(page, message, 'The write mode is saved.');
    assert.equal((await saved()).assistant.writePolicy, 'preview');

    // Write areas: every one is on at first, and only those the assistant
    // can write in are offered; one turned off is kept off on the server and
    // still offered, so it can be turned on again; the others keep theirs.
    const areas = (await saved()).choices.writeAreas;
    const everyArea = (await saved()).assistant.allowedWriteAreas;
    assert.ok(areas.includes('boards'), areas.join());
    assert.ok(areas.length < everyArea.length, `${areas.join()} of ${everyArea.join()}`);
    assert.equal(await page.$$eval(`${byTestId('setting-write-areas')} input:checked`, (c) => c.length),
                 areas.length);
    assert.deepEqual(await page.$$eval(`${byTestId('setting-write-areas')} input`,
                                       (c) => c.map((x) => x.value)), areas);
    await page.uncheck(byTestId('write-area-boards'));
    await expectText(page, message, 'The assistant will not change Boards.');
    assert.deepEqual((await saved()).assistant.allowedWriteAreas, everyArea.filter((a) => a !== 'boards'));
    assert.equal(await page.isChecked(byTestId('write-area-boards')), false);
    await page.check(byTestId('write-area-boards'));
    await expectText(page, message, 'The assistant may change Boards again.');
    assert.deepEqual((await saved()).assistant.allowedWriteAreas, everyArea);
    await page.uncheck(byTestId('write-area-trash'));
    await expectText(page, message, 'The assistant will not change Trash.');

    await page.fill(byTestId('model-provider'), 'openai');
    await page.fill(byTestId('model-baseUrl'), 'https://api.example.com/v1');
    await page.fill(byTestId('model-model'), 'o3-mini');
    await page.fill(byTestId('model-apiKey'), kKey);
    await page.click(byTestId('model-save'));
    await expectText(page, message, 'The model is saved.');
    await expectText(page, byTestId('model-state'), 'Your model: o3-mini (openai), with a saved key.');
    // The key is never shown again, nor sent back by the server.
    assert.equal(await page.inputValue(byTestId('model-apiKey')), '');
    assert.equal((await page.content()).includes(kKey), false);
    const model = await saved('/api/settings/model');
    assert.equal(model.hasKey, true);
    assert.equal(JSON.stringify(model).includes(kKey), false);

    // The effort offers what the model takes.
    assert.deepEqual(await page.$$eval(`${byTestId('setting-effort')} option`,
                                       (o) => o.map((x) => x.value)),
                     ['none', 'low', 'medium', 'high']);
    await page.selectOption(byTestId('setting-effort'), 'medium');
    await expectText(page, message, 'The effort is saved.');
    assert.equal((await saved()).assistant.effort, 'medium');

    // A zone that does not exist is refused with the server's reason.
    await page.fill(byTestId('setting-time-zone'), 'Mars/Olympus');
    await page.click(byTestId('time-zone-save'));
    await page.waitForFunction((sel) => /time zone name/.test(document.querySelector(sel)?.textContent),
                               message);
    assert.equal((await saved()).general.timeZone, 'UTC');
    await page.fill(byTestId('setting-time-zone'), 'Europe/Paris');
    await page.click(byTestId('time-zone-save'));
    await expectText(page, message, 'The time zone is saved.');
    assert.equal((await saved()).general.timeZone, 'Europe/Paris');
    await screenshot(page, 'settings');

    // Without the model the saved effort is shown as unused.
    await page.click(byTestId('model-remove'));
    await expectText(page, message, 'Your model is removed.');
    assert.match(await page.textContent(byTestId('model-state')), /No model is set up/);
    assert.match(await page.$eval(byTestId('setting-effort'), (s) => s.selectedOptions[0].textContent),
                 /unused without a model/);

    // A failure the server gave no reason for (a proxy's error page) is
    // still said in words, not as "HTTP 502".
    await page.route('**/api/settings/model', (route) => (route.request().method() === 'GET'
      ? route.fulfill({status: 502, contentType: 'text/html', body: '<h1>Bad Gateway</h1>'})
      : route.continue()));
    await page.fill(byTestId('setting-time-zone'), 'UTC');
    await page.click(byTestId('time-zone-save'));
    await expectText(page, message, 'Could not read the settings: the server is not answering ' +
                                    'right now (502); try again in a moment');
    await page.unroute('**/api/settings/model');
    assert.deepEqual(app.pageErrors, []);
  } finally {
    await app.close();
  }
});
