// wasm/js/embind_string_library.js: Embind's std::string conversions, replaced
// so long strings cross in TextEncoder / TextDecoder. Every length class
// (the byte loops below 64 units, encodeInto up to 1 Mi units, an exact-size
// copy past that) must carry every kind of character both ways unchanged, in
// the module the app ships. formatEntityText with no refs gives its text
// back, so it is the echo: the text goes in as a std::string argument and
// comes back inside the std::string answer.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';

import {loadCore, ok} from '../../tools/lib/core_loader.mjs';

const core = await loadCore();
const echo = (text) => ok(core, 'formatEntityText', text, '[]', '{}').text;

// ASCII, two-, three- and four-byte UTF-8 (a surrogate pair), and a NUL,
// which C strings would cut at.
const kMixed = 'ab é “q” 😀 \u0000 z';

function ofLength(units) {
  let text = '';
  while (text.length < units) text += kMixed;
  // Never end inside the surrogate pair: that would be a lone surrogate.
  text = text.slice(0, units);
  return /[\ud800-\udbff]$/.test(text) ? text.slice(0, -1) + 'x' : text;
}

describe('Embind strings', () => {
  for (const units of [0, 1, 63, 64, 65, 4096, (1 << 20) - 1, (1 << 20) + 7]) {
    test(`a string of ${units} UTF-16 units crosses both ways unchanged`, () => {
      const text = ofLength(units);
      assert.equal(text.length, units);
      const back = echo(text);
      assert.equal(back.length, text.length);
      assert.ok(back === text, 'the echo differs from what went in');
    });
  }

  test('plain ASCII past the short loops comes back as it went', () => {
    const text = 'The team agreed to ship the plan next week. '.repeat(100);
    assert.equal(echo(text), text);
  });

  test('a leading U+FEFF is kept, short or long', () => {
    assert.equal(echo('\ufeffx'), '\ufeffx');
    const long = '\ufeff' + 'é'.repeat(100);
    assert.equal(echo(long), long);
  });

  test('a lone surrogate becomes U+FFFD, short or long, never bytes that are not UTF-8', () => {
    assert.equal(echo('a\ud800b'), 'a\ufffdb');
    const long = 'x'.repeat(100) + '\udc00' + 'y'.repeat(100);
    assert.equal(echo(long), 'x'.repeat(100) + '\ufffd' + 'y'.repeat(100));
  });

  test('a value that is not a string is refused, not converted', () => {
    const answer = JSON.parse(core.formatEntityText(42, '[]', '{}'));
    assert.equal(answer.ok, false);
    assert.equal(answer.code, 'INVALID_ARGUMENT');
  });

  test('the heap gives back what each call took', () => {
    // A leak of the argument or the answer (1 MB each) would grow the heap
    // by about 100 MB over these calls.
    const text = ofLength(1 << 19);
    echo(text);
    const before = core.HEAPU8.length;
    for (let i = 0; i < 50; ++i) echo(text);
    assert.equal(core.HEAPU8.length, before);
  });
});
