// The wasm half of the routing vectors: every case of
// tests/vectors/route/route.json run through routeMessage must give exactly
// the "expect" the native core gives (tests/core/playbooks/router_test.cc,
// RouteVectors), compared as JSON text, over the same embedded playbooks.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';

import {call, canonicalJson, loadTestCore, repoRoot} from '../../tools/lib/core_loader.mjs';

const vectorFile = path.join(repoRoot, 'tests', 'vectors', 'route', 'route.json');
const {cases} = JSON.parse(fs.readFileSync(vectorFile, 'utf8'));
// The test build: this suite calls bindings the app does not.
const core = await loadTestCore();

describe('route vectors', () => {
  test('has cases', () => assert.ok(Array.isArray(cases) && cases.length > 0));
  for (const c of cases) {
    test(c.name, () => {
      const out = call(core, 'routeMessage', JSON.stringify(c.request));
      assert.equal(out.ok, true, `${out.code}: ${out.message}`);
      delete out.ok;
      assert.equal(canonicalJson(out), canonicalJson(c.expect));
    });
  }
});

describe('route binding', () => {
  test('bad requests are errors, not exceptions', () => {
    assert.equal(call(core, 'routeMessage', 'not json').code, 'MALFORMED_JSON');
    assert.equal(call(core, 'routeMessage', '{}').code, 'INVALID_ARGUMENT');
    const notText = call(core, 'routeMessage', 42);
    assert.equal(notText.ok, false);
    assert.ok(['INVALID_ARGUMENT', 'MALFORMED_JSON'].includes(notText.code), notText.code);
    const unknown = call(core, 'routeMessage', JSON.stringify({message: 'x', nope: 1}));
    assert.equal(unknown.code, 'INVALID_ARGUMENT');
    assert.match(unknown.message, /nope/);
  });

  // routeMessage crosses the JS edge as UTF-8 (route_pre.js): text outside
  // ASCII, escapes and a request larger than the kept buffer come back intact.
  test('passes any text through the edge unchanged', () => {
    const odd = 'caf\u00e9_\u2014_\u{1F600}_"q"\\';
    const allowedTools = ['hub_how_to', odd];
    const request = {message: 'ask Jira about the caf\u00e9 \u{1F600} board', allowedTools,
                     appTools: [odd], apps: [{catalogName: 'Jira', id: 'jira', vendor: 'Atlassian'}]};
    const out = call(core, 'routeMessage', JSON.stringify(request));
    assert.equal(out.ok, true, `${out.code}: ${out.message}`);
    assert.deepEqual(out.tools, allowedTools);
    assert.ok(out.guides.includes('apps'));
    const big = call(core, 'routeMessage', JSON.stringify({message: 'x'.repeat(200_000) + ' task'}));
    assert.equal(big.ok, true, `${big.code}: ${big.message}`);
    assert.ok(big.guides.includes('tasks'));
    const tooBig = call(core, 'routeMessage', JSON.stringify({message: '\u00e9'.repeat(200_000)}));
    assert.equal(tooBig.code, 'INVALID_ARGUMENT');
    assert.deepEqual(call(core, 'routeMessage', JSON.stringify(request)), out);
  });

  test('never offers a tool outside allowedTools', () => {
    const allowedTools = ['hub_how_to', 'hub_list_boards'];
    const out = call(core, 'routeMessage', JSON.stringify({message: 'move the card on my board', allowedTools}));
    assert.equal(out.ok, true);
    assert.deepEqual(out.tools, allowedTools);
    assert.deepEqual(out.guides, ['boards']);
  });
});
