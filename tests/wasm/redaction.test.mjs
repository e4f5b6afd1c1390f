// The wasm half of the redaction vectors (spec 004 §2.1, §4.1): every row of
// tests/vectors/context/redaction.json, run through redactSecrets, must give
// exactly the text the native test (tests/core/text/redact_test.cc) expects,
// and redactForIngest caps at the same 20,000 characters.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';

import {call, loadTestCore, ok, repoRoot} from '../../tools/lib/core_loader.mjs';

const vectors = JSON.parse(fs.readFileSync(
    path.join(repoRoot, 'tests', 'vectors', 'context', 'redaction.json'), 'utf8'));
const core = await loadTestCore();

describe('redactSecrets vectors', () => {
  test('has positive and negative rows', () => {
    assert.ok(vectors.rows.filter((r) => r.expect !== null).length >= 15);
    assert.ok(vectors.rows.filter((r) => r.expect === null).length >= 8);
  });
  for (const row of vectors.rows) {
    test(row.name, () => {
      assert.equal(ok(core, 'redactSecrets', row.text).text, row.expect ?? row.text);
    });
  }
});

test('redactForIngest caps at 20,000 characters on whole code points', () => {
  const text = 'a'.repeat(19990) + ' \u{1F600}'.repeat(20) + ' token=x';
  const out = ok(core, 'redactForIngest', text).text;
  assert.equal([...out].length, 20000);
  assert.ok(!out.includes('\uFFFD'));
  assert.equal(ok(core, 'redactForIngest', 'short token=x').text, 'short token=[redacted]');
});

test('a non-string is refused with a stable code', () => {
  assert.equal(call(core, 'redactSecrets', 7).code, 'INVALID_ARGUMENT');
});
