// The service worker's install list (kShell in web-shell/sw.js) holds what the
// app loads by a plain URL. The page's modules and style sheet come under
// hashed names from index.html's import map, which the service worker reads;
// the db worker has no import map, so it and every module it imports must be
// listed, or an offline start has no database.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';
import vm from 'node:vm';

import {repoRoot} from '../../tools/lib/harness.mjs';

const webRoot = path.join(repoRoot, 'web-shell');

// sw.js's kShell and kHashedAsset, from running it against a stub `self`.
function serviceWorker() {
  const source = fs.readFileSync(path.join(webRoot, 'sw.js'), 'utf8');
  const context = vm.createContext({self: {addEventListener() {}, location: new URL('http://localhost/')}});
  vm.runInContext(`${source}\n;globalThis.out = {kShell, kHashedAsset};`, context);
  // Copied into this realm (deepEqual tells the realms' arrays apart).
  return {kShell: [...context.out.kShell], kHashedAsset: new RegExp(context.out.kHashedAsset.source)};
}

// The plain URLs of `entry` and of every module it imports, statically.
function importGraph(entry) {
  const seen = new Set();
  const visit = (url) => {
    if (seen.has(url)) return;
    seen.add(url);
    const source = fs.readFileSync(path.join(webRoot, url), 'utf8');
    for (const [, spec] of source.matchAll(/^import\s(?:[^;]*?\sfrom\s)?'([^']+)'/gm)) {
      visit(new URL(spec, `http://localhost${url}`).pathname);
    }
  };
  visit(entry);
  return [...seen];
}

test('the service worker installs every file the app loads by a plain URL', () => {
  const {kShell} = serviceWorker();
  const shell = new Set(kShell);
  const worker = importGraph('/db-worker.js');
  assert.ok(worker.includes('/sync.js'), `the worker's graph: ${worker}`);
  assert.deepEqual(worker.filter((f) => !shell.has(f)), [], 'add these to kShell in web-shell/sw.js');
  // The page under both names, the wasm manifest, and what index.html names
  // that is no script or style (those the server maps to hashed names).
  const html = fs.readFileSync(path.join(webRoot, 'index.html'), 'utf8');
  const linked = [...html.matchAll(/(?:src|href)="(\/[^"]*)"/g)].map((m) => m[1])
    .filter((f) => !/\.(js|css)$/.test(f));
  assert.ok(linked.includes('/favicon.svg'));
  for (const f of ['/', '/index.html', '/wasm/manifest.json', ...linked]) {
    assert.ok(shell.has(f), `${f} is not in kShell`);
  }
  // No other module: the page's come hashed, and a stale entry fails the install.
  assert.deepEqual(kShell.filter((f) => /\.(js|css)$/.test(f) && !worker.includes(f)), []);
  for (const f of shell) {
    if (f === '/' || f.startsWith('/wasm/')) continue;
    assert.ok(fs.existsSync(path.join(webRoot, f)), `${f} is in the shell but not in web-shell/`);
  }
});

test('the service worker knows the server\'s hashed names, in any folder', () => {
  const {kHashedAsset} = serviceWorker();
  for (const p of ['/app.0123456789abcdef.js', '/views/tasks.0123456789abcdef.js',
                   '/styles.0123456789abcdef.css', '/wasm/ensemble_core.0123456789abcdef.wasm']) {
    assert.ok(kHashedAsset.test(p), p);
  }
  for (const p of ['/', '/app.js', '/db-worker.js', '/views/tasks.js', '/wasm/manifest.json',
                   '/shell-manifest.json', '/app.0123456789abcde.js', '/app.0123456789ABCDEF.js']) {
    assert.ok(!kHashedAsset.test(p), p);
  }
});
