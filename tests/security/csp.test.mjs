// The app under its own Content-Security-Policy (docs/SECURITY.md, "Requests
// from other sites"): every view opens, the worker compiles and runs the wasm
// core, and the browser reports no violation, in the page or in the worker.
// Also: the page's responses carry the policy, nosniff and no referrer, and
// another site's page cannot write through the browser.

import assert from 'node:assert/strict';
import http from 'node:http';
import {after, before, test} from 'node:test';

import {byTestId, startApp} from '../e2e/app_harness.mjs';

const kViews = ['tasks', 'today', 'boards', 'pages', 'people', 'trash', 'sharing', 'settings'];

let app;
const violations = [];

before(async () => {
  app = await startApp();
  const {page, context} = {page: app.page, context: app.browser.context};
  // Violations reach the console of the page and of each worker as errors
  // that name the policy; the page also fires securitypolicyviolation.
  const watch = (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
  };
  page.on('console', watch);
  page.on('worker', (worker) => worker.on('console', watch));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window.__cspViolations ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  // Load again so the init script and the listeners see the whole start.
  await page.reload();
  await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
});

after(async () => {
  await app?.close();
});

test('every view opens under the policy with no violation', async () => {
  const {page} = app;
  const response = await page.goto(`${app.server.url}/`);
  const headers = response.headers();
  assert.match(headers['content-security-policy'], /script-src 'self' 'wasm-unsafe-eval'/);
  assert.match(headers['content-security-policy'], /frame-ancestors 'none'/);
  assert.equal(headers['x-content-type-options'], 'nosniff');
  assert.equal(headers['referrer-policy'], 'no-referrer');
  // The worker runs the core: the database opens only if the policy let it
  // compile the module and Embind's glue ran without eval.
  await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
  for (const view of kViews) {
    await page.click(byTestId(`nav-${view}`));
    await page.waitForSelector(`${byTestId('app')}[data-view="${view}"]`);
  }
  // A task typed and listed exercises the worker's writes under the policy.
  await page.click(byTestId('nav-tasks'));
  await page.fill(byTestId('new-task-title'), 'Under the policy');
  await page.press(byTestId('new-task-title'), 'Enter');
  await page.locator(byTestId('task-row'), {hasText: 'Under the policy'}).waitFor();
  const inPage = await page.evaluate(() => window.__cspViolations ?? []);
  assert.deepEqual([...violations, ...inPage], []);
});

test("another site's page cannot write through the browser", async () => {
  // Another site: a page of its own origin (a second loopback port), served
  // without our policy. It posts as a form does, and with fetch as a page
  // may without asking (no-cors, text/plain).
  const body = JSON.stringify({
    clientGroupId: 'g', clientId: 'evil',
    mutations: [{id: 1, name: 'task.create', clientTime: Date.now(),
                 args: {id: '01JEV1L000000000000000000A', spaceId: 'personal', title: 'planted'}}],
  });
  const target = `${app.server.url}/api/sync/push`;
  const evil = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><title>evil</title>
      <form method="POST" action="${target}" enctype="text/plain">
        <input name='${body.slice(0, -2)}' value='"}'>
      </form>`);
  });
  await new Promise((resolve) => evil.listen(0, '127.0.0.1', resolve));
  try {
    const {page} = app;
    await page.goto(`http://127.0.0.1:${evil.address().port}/`);
    const type = await page.evaluate(async ([url, text]) => {
      const r = await fetch(url, {method: 'POST', mode: 'no-cors',
                                  headers: {'content-type': 'text/plain'}, body: text});
      return r.type;
    }, [target, body]);
    assert.equal(type, 'opaque');  // Sent; the answer is hidden from the page.
    await Promise.all([page.waitForNavigation(), page.evaluate(() => document.forms[0].submit())]);
    assert.match(await page.content(), /CROSS_ORIGIN/);
  } finally {
    evil.close();
  }
  assert.equal(app.query("SELECT COUNT(*) FROM sync_clients WHERE client_id = 'evil'"), '0');
  assert.equal(app.query("SELECT COUNT(*) FROM tasks WHERE title = 'planted'"), '0');
});
