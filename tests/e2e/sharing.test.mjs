// Accounts in the app (ENSEMBLE_ACCOUNTS=on): signing up and in through the
// page; a space made and shared from Sharing, which invites: nobody joins
// until they accept, and an owner sees and may withdraw what is pending; a
// role changed and a member removed, each seen by the other account through
// the server. Sign-out hides the work and offers to remove this device's
// copy; another account signing in here is refused until it does, then
// starts fresh, accepts an invitation in Sharing and receives the space's
// rows written before it joined. In local mode Sharing says why it is not
// there.

import assert from 'node:assert/strict';
import {test} from 'node:test';

import {addTask, byTestId, expectText, screenshot, startApp, synced} from './app_harness.mjs';

const kPassword = 'correct horse battery staple';

// Bo, signed up straight through the API: his spaces and invitations as the
// server tells them to his own session.
async function signUpBo(server) {
  const res = await fetch(`${server.url}/api/auth/signup`, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify({email: 'bo@example.com', password: kPassword, name: 'Bo'}),
  });
  assert.equal(res.status, 201, await res.text());
  const cookie = res.headers.get('set-cookie').split(';')[0];
  const get = async (path) => (await fetch(`${server.url}${path}`, {headers: {cookie}})).json();
  return {
    spaces: async () => (await get('/api/spaces')).spaces,
    invitations: async () => (await get('/api/invitations')).invitations,
    accept: async (id) => {
      const r = await fetch(`${server.url}/api/invitations/${id}/accept`, {
        method: 'POST', headers: {cookie, 'content-type': 'application/json'}, body: '{}'});
      assert.equal(r.status, 200, await r.text());
    },
  };
}

async function signIn(page, button, email, name = '') {
  await page.fill(byTestId('signin-email'), email);
  await page.fill(byTestId('signin-password'), kPassword);
  await page.fill(byTestId('signin-name'), name);
  await page.click(byTestId(button));
}

async function share(page, email, role) {
  await page.fill(byTestId('share-email'), email);
  await page.selectOption(byTestId('share-role'), role);
  await page.click(byTestId('share-submit'));
  await expectText(page, byTestId('sharing-message'),
                   `Invited ${email} as ${role}; they join when they accept.`);
}

test('sharing invites, and a new account on this device starts fresh', async () => {
  const app = await startApp({env: {ENSEMBLE_ACCOUNTS: 'on', ENSEMBLE_SIGNUP: 'open'}});
  const {page, server} = app;
  try {
    // Signed out: only the sign-in form shows.
    await page.waitForSelector(`${byTestId('signin')}:not([hidden])`);
    assert.equal(await page.isVisible(byTestId('view-tasks')), false);
    await signIn(page, 'signup-submit', 'ana@example.com', 'Ana');
    await expectText(page, byTestId('account-name'), 'Ana');
    assert.equal(await page.isVisible(byTestId('signin')), false);
    const bo = await signUpBo(server);

    await page.click(byTestId('nav-sharing'));
    await page.fill(byTestId('new-space-name'), 'Launch');
    await page.click(byTestId('new-space-submit'));
    await expectText(page, byTestId('sharing-message'), 'Made the space \u201CLaunch\u201D.');
    const launch = await page.$eval(byTestId('space-select'), (s) => s.value);
    assert.match(await page.$eval(byTestId('space-select'), (s) => s.selectedOptions[0].textContent),
                 /^Launch/);

    // Sharing invites: Bo is not a member until he accepts; Ana may withdraw.
    await share(page, 'bo@example.com', 'editor');
    const pendingBo = `${byTestId('pending-invitation')}[data-email="bo@example.com"]`;
    await page.waitForSelector(`${pendingBo}[data-role="editor"]`);
    assert.deepEqual((await bo.spaces()).filter((s) => s.id === launch), []);
    assert.deepEqual((await bo.invitations()).map((i) => [i.spaceName, i.role, i.from]),
                     [['Launch', 'editor', 'ana@example.com']]);
    await page.click(`${pendingBo} ${byTestId('pending-withdraw')}`);
    await page.waitForSelector(pendingBo, {state: 'detached'});
    assert.deepEqual(await bo.invitations(), []);

    await share(page, 'bo@example.com', 'viewer');
    await bo.accept((await bo.invitations())[0].id);
    await page.reload();
    await page.click(byTestId('nav-sharing'));
    const boRow = `${byTestId('member')}[data-email="bo@example.com"]`;
    await page.waitForSelector(`${boRow}[data-role="viewer"]`);
    assert.equal(await page.locator(pendingBo).count(), 0);
    await page.selectOption(`${boRow} ${byTestId('member-role')}`, 'editor');
    await page.waitForSelector(`${boRow}[data-role="editor"]`);
    assert.deepEqual((await bo.spaces()).filter((s) => s.id === launch).map((s) => s.role),
                     ['editor']);
    await page.click(`${boRow} ${byTestId('member-remove')}`);
    await page.waitForSelector(boRow, {state: 'detached'});
    assert.equal(await page.locator(byTestId('member')).count(), 1);
    assert.deepEqual((await bo.spaces()).filter((s) => s.id === launch), []);

    // Written before Bo is in the space: he must receive it all the same.
    await addTask(page, 'Launch checklist');
    await synced(page);
    await page.click(byTestId('nav-sharing'));
    await share(page, 'bo@example.com', 'editor');
    await screenshot(page, 'sharing');

    // Signing out hides the work and offers to remove this device's copy.
    await page.click(byTestId('sign-out'));
    await page.waitForSelector(`${byTestId('signin')}:not([hidden])`);
    assert.equal(await page.isVisible(byTestId('view-sharing')), false);
    await page.waitForSelector(`${byTestId('device-copy')}:not([hidden])`);
    // Bo is refused over Ana's copy, and may remove it to start fresh.
    await signIn(page, 'signin-submit', 'bo@example.com');
    await page.waitForFunction(
      (sel) => document.querySelector(sel)?.textContent.includes('another account'),
      byTestId('signin-message'));
    assert.equal(await page.isVisible(byTestId('signin')), true);
    await page.click(byTestId('forget-device'));
    await expectText(page, byTestId('signin-message'),
                     'This device\u2019s copy is removed. Sign in to start fresh.');
    const left = await page.evaluate(() => window.ensemble.rpc('listRecords', {kind: 'task'}));
    assert.deepEqual(left, []);
    await signIn(page, 'signin-submit', 'bo@example.com');
    await expectText(page, byTestId('account-name'), 'Bo');

    // Bo answers Ana's invitation in Sharing and receives the older task.
    await page.click(byTestId('nav-sharing'));
    const invitation = `${byTestId('invitation')}[data-space="${launch}"]`;
    await page.waitForSelector(invitation);
    await page.click(`${invitation} ${byTestId('invitation-accept')}`);
    await expectText(page, byTestId('sharing-message'),
                     'You joined \u201CLaunch\u201D as editor.');
    assert.equal(await page.$eval(byTestId('space-select'), (s) => s.value), launch);
    await page.click(byTestId('nav-tasks'));
    await page.locator(byTestId('task-row'), {hasText: 'Launch checklist'}).waitFor();
    assert.deepEqual(app.pageErrors, []);
  } finally {
    await app.close();
  }
});

test('in local mode Sharing tells the person what they can do', async () => {
  const app = await startApp();
  try {
    await app.page.click(byTestId('nav-sharing'));
    await app.page.waitForSelector(byTestId('sharing-local'));
    // Said to the person, not to the operator: no environment variables.
    const said = await app.page.textContent(byTestId('sharing-local'));
    assert.match(said, /ask whoever runs this Ensemble to turn on accounts/);
    assert.doesNotMatch(said, /ENSEMBLE_|=on/);
    assert.equal(await app.page.isVisible(byTestId('account')), false);
    assert.equal(await app.page.isVisible(byTestId('signin')), false);
  } finally {
    await app.close();
  }
});
