// The service worker's app shell (web-shell/sw.js) names every file the app
// loads: a module missing from it makes an offline reload fail to start.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';

import {repoRoot} from '../../tools/lib/harness.mjs';

const webRoot = path.join(repoRoot, 'web-shell');

test('every script, style and icon of the web shell is in the offline shell', () => {
  const sw = fs.readFileSync(path.join(webRoot, 'sw.js'), 'utf8');
  const shell = new Set([...sw.matchAll(/^\s+'(\/[^']*)',$/gm)].map((m) => m[1]));
  const files = [];
  for (const dir of ['', 'views']) {
    for (const name of fs.readdirSync(path.join(webRoot, dir))) {
      if (/\.(js|css|svg)$/.test(name) && name !== 'sw.js') files.push(`/${dir ? `${dir}/` : ''}${name}`);
    }
  }
  assert.ok(files.length > 10, `found ${files.length} files`);
  const missing = files.filter((f) => !shell.has(f));
  assert.deepEqual(missing, [], 'add these to kShell in web-shell/sw.js');
  for (const f of shell) {
    if (f === '/' || f.startsWith('/wasm/')) continue;
    assert.ok(fs.existsSync(path.join(webRoot, f)), `${f} is in the shell but not in web-shell/`);
  }
});

test('index.html preloads every module the page imports, and starts the worker first', () => {
  const html = fs.readFileSync(path.join(webRoot, 'index.html'), 'utf8');
  const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)]
    .map((m) => m[1]));
  // The worker's own modules load in the worker, where a page preload is no use.
  const workerOnly = new Set(['/sw.js', '/db-worker.js', '/sync.js', '/rpc.js']);
  const pageModules = [];
  for (const dir of ['', 'views']) {
    for (const name of fs.readdirSync(path.join(webRoot, dir))) {
      const url = `/${dir ? `${dir}/` : ''}${name}`;
      if (name.endsWith('.js') && !workerOnly.has(url)) pageModules.push(url);
    }
  }
  assert.deepEqual(pageModules.filter((m) => !preloaded.has(m)), [],
                   'add a <link rel="modulepreload"> for these to web-shell/index.html');
  for (const m of preloaded) assert.ok(fs.existsSync(path.join(webRoot, m)), `${m} is preloaded but missing`);
  const rpcScript = html.indexOf('<script type="module" async src="/rpc.js">');
  assert.ok(rpcScript > 0 && rpcScript < html.indexOf('src="/app.js"'), 'rpc.js starts before app.js');
});
