// The assistant dock against the fake model (issue 28): tool rows say what
// happened in words, not tool names; the open chat's history shows with the
// server out of reach (kept on this device); Recent chats lists the space's
// chats newest first, opens one, and deletes one after a one-line confirm
// (the bin button, or Delete on a row), the open one starting over.

import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import {after, before, test} from 'node:test';

import {addTask, byTestId, expectText, screenshot, seriousAxeViolations, startApp} from './app_harness.mjs';
import {repoRoot, tempDir} from '../../tools/lib/harness.mjs';

const kKey = 'sk-e2e-chats-0001';

async function startFakeModel(scenario) {
  const dir = tempDir('ensemble-e2e-model-');
  const file = path.join(dir, 'scenario.json');
  fs.writeFileSync(file, JSON.stringify(scenario));
  const child = spawn(process.execPath, [path.join(repoRoot, 'tools', 'fake-model', 'fake_model.mjs'), file],
                      {stdio: ['pipe', 'pipe', 'inherit']});
  const {port} = await new Promise((resolve) => {
    readline.createInterface({input: child.stdout}).once('line', (line) => resolve(JSON.parse(line)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    stop() {
      child.stdin.end();
      child.kill('SIGTERM');
      fs.rmSync(dir, {recursive: true, force: true});
    },
  };
}

let model;
let app;

before(async () => {
  model = await startFakeModel({
    requireKey: kKey,
    responses: [
      {match: 'my open tasks', afterTool: false,
       toolCalls: [{id: 'call_list', name: 'hub_list_tasks', arguments: {}}]},
      {match: 'my open tasks', afterTool: true, text: ['You have three open tasks.']},
      {text: 'Hello there.'},
    ],
    exhausted: 'repeat-last',
  });
  app = await startApp({env: {
    ENSEMBLE_MODEL_PROVIDER: 'openai', ENSEMBLE_MODEL_BASE_URL: model.baseUrl,
    ENSEMBLE_MODEL: 'fake-model', ENSEMBLE_MODEL_API_KEY: kKey,
  }});
});

after(async () => {
  await app?.close();
  model?.stop();
});

async function ask(page, text) {
  const before = await page.locator(byTestId('reply')).count();
  await page.fill(byTestId('dock-input'), text);
  await page.press(byTestId('dock-input'), 'Enter');
  await page.locator(`${byTestId('reply')}[data-state="done"]`).nth(before).waitFor({timeout: 20000});
  return page.locator(byTestId('reply')).nth(before);
}

test('a tool row says what happened in words, not the tool name', {timeout: 60000}, async () => {
  const {page} = app;
  for (const title of ['Renew passport', 'Book dentist', 'Pay rent']) await addTask(page, title);
  const reply = await ask(page, 'What are my open tasks?');
  await expectText(page, byTestId('reply-text'), 'You have three open tasks.');
  await reply.locator(byTestId('tool-summary')).click();
  const row = reply.locator(byTestId('tool-row'));
  assert.equal(await row.getAttribute('data-name'), 'hub_list_tasks');
  assert.equal((await row.locator(byTestId('tool-text')).textContent()).trim(), 'Found 3 tasks');
  await row.locator('summary').click();
  const shown = await row.evaluate((e) => e.innerText);
  assert.doesNotMatch(shown, /hub_list_tasks|list tasks/, 'no tool name in the row');
  assert.match(shown, /Renew passport/, 'the details name what it found');
  // The tool's name only as the row's tooltip.
  assert.equal(await row.locator('summary').getAttribute('title'), 'hub_list_tasks');
  await screenshot(page, 'dock-tool-words');
});

test('the open chat\'s history shows with the server out of reach', {timeout: 60000}, async () => {
  const {page, server} = app;
  await page.waitForSelector(`${byTestId('app')}[data-offline-ready="true"]`, {timeout: 20000});
  // The device keeps the chat once the turn is over.
  await page.waitForFunction(() => Object.keys(localStorage)
    .some((k) => k.startsWith('ensemble-chat-history:')), null, {timeout: 10000});
  await server.stop();
  try {
    await page.reload();
    await page.waitForSelector(`${byTestId('app')}[data-db-state="ready"]`, {timeout: 20000});
    await page.locator(byTestId('user-message'), {hasText: 'What are my open tasks?'}).waitFor()
      .catch(async (e) => {
        await screenshot(page, 'dock-history-offline-failed');
        throw e;
      });
    assert.notEqual(await page.textContent(byTestId('connection-state')), 'Online');
    await expectText(page, byTestId('reply-text'), 'You have three open tasks.');
    assert.equal((await page.locator(byTestId('tool-text')).textContent()).trim(), 'Found 3 tasks');
    await screenshot(page, 'dock-history-offline');
  } finally {
    await server.start();
  }
  await expectText(page, byTestId('connection-state'), 'Online', 30000);
});

test('recent chats open a chat and delete one after a one-line confirm', {timeout: 60000}, async () => {
  const {page, query} = app;
  const first = query('SELECT id FROM assistant_conversations').trim();
  assert.match(first, /^[0-9A-Z]{26}$/);

  // A second chat.
  await page.click(byTestId('dock-new'));
  assert.equal(await page.locator(byTestId('user-message')).count(), 0);
  await ask(page, 'Say hello');
  const ids = () => query('SELECT id FROM assistant_conversations ORDER BY id').trim().split('\n')
    .filter(Boolean);
  assert.equal(ids().length, 2);
  const second = ids().find((id) => id !== first);

  // Listed newest first, titled by their first messages; open the older one.
  await page.click(byTestId('dock-chats'));
  const rows = page.locator(byTestId('chat-row'));
  await rows.nth(1).waitFor();
  assert.deepEqual(await rows.locator('.chat-title').allTextContents(),
                   ['Say hello', 'What are my open tasks?']);
  assert.equal(await page.getAttribute(byTestId('dock-chats'), 'aria-expanded'), 'true');
  assert.deepEqual(await seriousAxeViolations(page), []);
  await screenshot(page, 'dock-recent-chats');
  await rows.nth(1).locator(byTestId('chat-open')).click();
  await page.locator(byTestId('user-message'), {hasText: 'What are my open tasks?'}).waitFor();
  assert.equal(await page.locator(byTestId('user-message'), {hasText: 'Say hello'}).count(), 0);
  assert.equal(await page.isHidden(byTestId('dock-chats-panel')), true);

  // The bin button asks first; Cancel keeps the chat.
  await page.click(byTestId('dock-chats'));
  await rows.nth(1).waitFor();
  await rows.nth(0).locator(byTestId('chat-delete')).click();
  await expectText(page, `${byTestId('chat-row')}.confirming .chat-confirm-text`, 'Delete “Say hello”?');
  await page.click(byTestId('chat-delete-cancel'));
  assert.equal(ids().length, 2, 'nothing deleted before the confirm');

  // Delete on the open chat's row, then confirm: gone on the server, and the
  // dock starts over.
  const open = page.locator(`${byTestId('chat-row')}[data-id="${first}"] ${byTestId('chat-open')}`);
  await open.focus();
  await page.keyboard.press('Delete');
  await screenshot(page, 'dock-recent-chats-confirm');
  await page.locator(byTestId('chat-delete-confirm')).focus();
  await page.keyboard.press('Enter');
  await expectText(page, byTestId('chats-note'), 'Deleted “What are my open tasks?”.');
  assert.deepEqual(ids(), [second]);
  const listed = await page.evaluate(async () => {
    const res = await fetch('/api/assistant/conversations?spaceId=personal');
    return (await res.json()).conversations.map((c) => c.id);
  });
  assert.deepEqual(listed, [second], 'the server no longer lists it');
  assert.equal(await page.locator(byTestId('user-message')).count(), 0, 'the open chat started over');
  assert.equal(await rows.count(), 1);
  assert.deepEqual(app.pageErrors, []);
});
