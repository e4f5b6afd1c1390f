// Accounts in the app (ENSEMBLE_ACCOUNTS=on): signing up and in through the
// page, a space made and shared from Sharing, a role changed and a member
// removed, each seen by the other account through the server; sign-out hides
// the work, and another account cannot sign in over this device's copy. In
// local mode Sharing says why it is not there.

import assert from 'node:assert/strict';
import {test} from 'node:test';

import {byTestId, expectText, screenshot, startApp} from './app_harness.mjs';

const kPassword = 'correct horse battery staple';

// Bo, signed up straight through the API, with his own session cookie.
async function signUpBo(server) {
  const res = await fetch(`${server.url}/api/auth/signup`, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify({email: 'bo@example.com', password: kPassword, name: 'Bo'}),
  });
  assert.equal(res.status, 201, await res.text());
  const cookie = res.headers.get('set-cookie').split(';')[0];
  return async () => {
    const spaces = await fetch(`${server.url}/api/spaces`, {headers: {cookie}});
    return (await spaces.json()).spaces;
  };
}

async function signIn(page, button, email, name = '') {
  await page.fill(byTestId('signin-email'), email);
  await page.fill(byTestId('signin-password'), kPassword);
  await page.fill(byTestId('signin-name'), name);
  await page.click(byTestId(button));
}

test('a space is made, shared, changed and unshared from Sharing', async () => {
  const app = await startApp({env: {ENSEMBLE_ACCOUNTS: 'on', ENSEMBLE_SIGNUP: 'open'}});
  const {page, server} = app;
  try {
    // Signed out: only the sign-in form shows.
    await page.waitForSelector(`${byTestId('signin')}:not([hidden])`);
    assert.equal(await page.isVisible(byTestId('view-tasks')), false);
    await signIn(page, 'signup-submit', 'ana@example.com', 'Ana');
    await expectText(page, byTestId('account-name'), 'Ana');
    assert.equal(await page.isVisible(byTestId('signin')), false);
    const boSpaces = await signUpBo(server);

    await page.click(byTestId('nav-sharing'));
    await page.fill(byTestId('new-space-name'), 'Launch');
    await page.click(byTestId('new-space-submit'));
    await expectText(page, byTestId('sharing-message'), 'Made the space \u201CLaunch\u201D.');
    const launch = await page.$eval(byTestId('space-select'), (s) => s.value);
    assert.match(await page.$eval(byTestId('space-select'), (s) => s.selectedOptions[0].textContent),
                 /^Launch/);

    await page.fill(byTestId('share-email'), 'bo@example.com');
    await page.selectOption(byTestId('share-role'), 'editor');
    await page.click(byTestId('share-submit'));
    await expectText(page, byTestId('sharing-message'), 'Shared with bo@example.com as editor.');
    const bo = `${byTestId('member')}[data-email="bo@example.com"]`;
    await page.waitForSelector(`${bo}[data-role="editor"]`);
    assert.deepEqual((await boSpaces()).filter((s) => s.id === launch).map((s) => s.role),
                     ['editor']);

    await page.selectOption(`${bo} ${byTestId('member-role')}`, 'viewer');
    await page.waitForSelector(`${bo}[data-role="viewer"]`);
    assert.deepEqual((await boSpaces()).filter((s) => s.id === launch).map((s) => s.role),
                     ['viewer']);

    await page.click(`${bo} ${byTestId('member-remove')}`);
    await page.waitForSelector(bo, {state: 'detached'});
    assert.equal(await page.locator(byTestId('member')).count(), 1);
    assert.deepEqual((await boSpaces()).filter((s) => s.id === launch), []);
    await screenshot(page, 'sharing');

    // Signing out hides the work; Bo cannot sign in over Ana's copy here.
    await page.click(byTestId('sign-out'));
    await page.waitForSelector(`${byTestId('signin')}:not([hidden])`);
    assert.equal(await page.isVisible(byTestId('view-sharing')), false);
    await signIn(page, 'signin-submit', 'bo@example.com');
    await page.waitForFunction(
      (sel) => document.querySelector(sel)?.textContent.includes('another account'),
      byTestId('signin-message'));
    assert.equal(await page.isVisible(byTestId('signin')), true);
    await signIn(page, 'signin-submit', 'ana@example.com');
    await expectText(page, byTestId('account-name'), 'Ana');
    assert.deepEqual(app.pageErrors, []);
  } finally {
    await app.close();
  }
});

test('in local mode Sharing says it needs accounts', async () => {
  const app = await startApp();
  try {
    await app.page.click(byTestId('nav-sharing'));
    await app.page.waitForSelector(byTestId('sharing-local'));
    assert.match(await app.page.textContent(byTestId('sharing-local')), /ENSEMBLE_ACCOUNTS=on/);
    assert.equal(await app.page.isVisible(byTestId('account')), false);
    assert.equal(await app.page.isVisible(byTestId('signin')), false);
  } finally {
    await app.close();
  }
});
