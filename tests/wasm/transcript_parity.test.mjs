// The wasm half of the transcript parity vectors: every sample file in
// tests/data/transcripts/ run through the wasm core must give exactly the
// preview, transcript and cues recorded in tests/vectors/transcripts/, which
// the native half (tests/core/meetings/vectors_test.cc) checks against the
// native core. Compared as canonical JSON text, so the builds agree byte for
// byte. Regenerate the vectors with tests/data/transcripts/update_vectors.sh.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';

import {call, canonicalJson, loadTestCore, ok, repoRoot} from '../../tools/lib/core_loader.mjs';

const sampleDir = path.join(repoRoot, 'tests', 'data', 'transcripts');
const vectorDir = path.join(repoRoot, 'tests', 'vectors', 'transcripts');
const samples = fs.readdirSync(sampleDir).filter((f) => !/\.(sh|py)$/.test(f)).sort();

// The test build: this suite calls bindings the app does not.
const core = await loadTestCore();

test('every sample has a vector', () => {
  assert.ok(samples.length >= 18, `only ${samples.length} samples`);
  for (const name of samples) {
    assert.ok(fs.existsSync(path.join(vectorDir, `${name}.json`)), `${name} has no vector`);
  }
});

for (const name of samples) {
  describe(name, () => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(sampleDir, name)));
    const vector = JSON.parse(fs.readFileSync(path.join(vectorDir, `${name}.json`), 'utf8'));

    test('preview from bytes', () => {
      const {preview} = ok(core, 'transcriptPreviewBytes', bytes, name);
      assert.equal(canonicalJson(preview), canonicalJson(vector.preview));
    });

    test('whole transcript', () => {
      const {transcript} = ok(core, 'transcriptParseBytes', bytes, name);
      assert.equal(canonicalJson(transcript), canonicalJson(vector.transcript));
    });

    test('cues', () => {
      const out = call(core, 'transcriptCuesBytes', bytes);
      if (vector.cues === undefined) {
        assert.equal(out.ok, false);
        assert.equal(out.code, 'INVALID_ARGUMENT');
      } else {
        assert.equal(out.ok, true);
        assert.equal(canonicalJson(out.cues), canonicalJson(vector.cues));
      }
    });

    if (!name.endsWith('.docx')) {
      test('preview from pasted text', () => {
        const text = new TextDecoder().decode(bytes);
        const {preview} = ok(core, 'transcriptPreview', text, name);
        assert.equal(canonicalJson(preview), canonicalJson(vector.preview));
      });
    }
  });
}

describe('errors are values', () => {
  test('empty text', () => {
    const out = call(core, 'transcriptPreview', '  ', undefined);
    assert.deepEqual(out, {ok: false, code: 'INVALID_ARGUMENT', message: 'The transcript is empty.'});
  });
  test('wrong argument types', () => {
    assert.equal(call(core, 'transcriptPreview', 42, null).code, 'INVALID_ARGUMENT');
    assert.equal(call(core, 'transcriptPreviewBytes', 'not bytes', null).code, 'INVALID_ARGUMENT');
  });
  test('damaged docx', () => {
    const docx = new Uint8Array(fs.readFileSync(path.join(sampleDir, 'meet-transcript.docx')));
    const out = call(core, 'transcriptPreviewBytes', docx.subarray(0, 200), 'x.docx');
    assert.equal(out.ok, false);
    assert.equal(out.code, 'INVALID_ARGUMENT');
    assert.match(out.message, /zip file is damaged/);
  });
  test('the 400,000-character cap warns in wasm too', () => {
    const ana = 'Ana: ' + 'word '.repeat(19) + 'end.\n';  // Alternating speakers: no merging.
    const line = ana + ana.replace('Ana', 'Ben');
    const {preview} = ok(core, 'transcriptPreview', line.repeat(2100), null);
    assert.deepEqual(preview.warnings,
                     ['The transcript is longer than 400,000 characters; the rest was not read.']);
    assert.equal(preview.lineCount, Math.floor(400000 / ana.length));  // Whole lines only.
  });
});
