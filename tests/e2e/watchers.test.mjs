// A watcher's news in the app (core/reminders/watcher_news.h): Ana watches a
// task in a space she shares with Bo; Bo's change reaches her Today as
// "Bo changed status" with the Today count, and Seen clears it on the server
// too. Her own change is not news.

import assert from 'node:assert/strict';
import {test} from 'node:test';

import {addTask, byTestId, expectText, screenshot, startApp, synced} from './app_harness.mjs';

const kPassword = 'correct horse battery staple';

async function api(server, cookie, method, path, body) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {'content-type': 'application/json', ...(cookie ? {cookie} : {})},
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
  return {res, body: text ? JSON.parse(text) : null};
}

test('another member\'s change shows under Watched changes until Seen', {timeout: 90000},
  async () => {
    const app = await startApp({env: {ENSEMBLE_ACCOUNTS: 'on', ENSEMBLE_SIGNUP: 'open'}});
    const {page, server} = app;
    try {
      await page.waitForSelector(`${byTestId('signin')}:not([hidden])`);
      await page.fill(byTestId('signin-email'), 'ana@example.com');
      await page.fill(byTestId('signin-password'), kPassword);
      await page.fill(byTestId('signin-name'), 'Ana');
      await page.click(byTestId('signup-submit'));
      await expectText(page, byTestId('account-name'), 'Ana');
      const space = await page.$eval(byTestId('space-select'), (s) => s.value);

      const signup = await api(server, null, 'POST', '/api/auth/signup',
                               {email: 'bo@example.com', password: kPassword, name: 'Bo'});
      const bo = signup.res.headers.get('set-cookie').split(';')[0];
      const anaCookie = (await page.context().cookies())
        .map((c) => `${c.name}=${c.value}`).join('; ');
      const invited = await api(server, anaCookie, 'PUT',
                                `/api/spaces/${encodeURIComponent(space)}/members`,
                                {email: 'bo@example.com', role: 'editor'});
      await api(server, bo, 'POST', `/api/invitations/${invited.body.invitation.id}/accept`, {});

      const row = await addTask(page, 'Draft the plan');
      const task = await row.getAttribute('data-id');
      await page.evaluate(([spaceId, target]) => window.ensemble.rpc('mutate', {
        name: 'watcher.create',
        args: {spaceId, target_kind: 'task', target, condition: 'when it is done'},
      }), [space, task]);
      // Ana's own change is not news to her.
      await page.evaluate((id) => window.ensemble.rpc('mutate', {
        name: 'task.update', args: {id, fields: {title: 'Draft the launch plan'}},
      }), task);
      await synced(page);

      // Bo, on his own device, finishes the task.
      const pushed = await api(server, bo, 'POST', '/api/sync/push', {
        clientGroupId: '01JB00000000000000000000G8',
        clientId: '01JB00000000000000000000C8',
        mutations: [{id: 1, clientTime: Date.now(), name: 'task.update',
                     args: {id: task, fields: {status: 'done'}}}],
      });
      assert.equal(pushed.body.results[0].status, 'applied', JSON.stringify(pushed.body));

      await page.click(byTestId('nav-today'));
      await page.evaluate(() => window.ensemble.rpc('syncNow'));
      const item = page.locator(byTestId('news-item'));
      await item.waitFor();
      await expectText(page, byTestId('news-text'), 'Bo changed status');
      const text = await item.textContent();
      assert.match(text, /Draft the launch plan/);
      assert.doesNotMatch(text, /2 changes/);  // Her rename made none.
      await expectText(page, byTestId('today-count'), '1');
      await screenshot(page, 'watcher-news');

      await page.click(byTestId('news-seen'));
      await item.waitFor({state: 'detached'});
      await page.locator(byTestId('today-count')).waitFor({state: 'detached'});
      await synced(page);
      // The server has it seen too: a fresh copy of Ana's has it so.
      const pulled = await api(server, anaCookie, 'GET',
                               '/api/sync/pull?clientId=01JB00000000000000000000C7&cursor=0');
      const watcher = pulled.body.changes.find((c) => c.kind === 'watcher');
      assert.equal(watcher.row.changes, 0);
      assert.equal(watcher.row.last_change, 'Bo changed status');
      // A watcher is its owner's own: Bo, a member, never receives it.
      const bos = await api(server, bo, 'GET',
                            '/api/sync/pull?clientId=01JB00000000000000000000C9&cursor=0');
      assert.equal(bos.body.changes.filter((c) => c.kind === 'watcher').length, 0);
      assert.ok(bos.body.changes.some((c) => c.kind === 'task'));
      assert.deepEqual(app.pageErrors, []);
    } finally {
      await app.close();
    }
  });
