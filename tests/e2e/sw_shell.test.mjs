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
