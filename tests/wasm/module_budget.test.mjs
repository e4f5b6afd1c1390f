// The size budget of what the app downloads (issue 30): the first module (the
// glue and the wasm half the worker loads before the list can show;
// ensemble_core.deferred.wasm, the second half, comes after) as the build's
// Brotli copies, and every module's gzip size. A change that grows past a
// budget fails here, and must say so and move code out of the first module
// (docs/PERFORMANCE.md, "Where the bytes go").

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';
import zlib from 'node:zlib';

import {wasmDir} from '../../tools/lib/core_loader.mjs';

// ensemble_core.wasm + ensemble_core.js as Brotli (KiB).
const kFirstModuleBrBudgetKiB = 400;
// Any one module's wasm, gzip level 9 (KiB): 1 MiB.
const kModuleGzipBudgetKiB = 1024;

const kib = (bytes) => bytes / 1024;
const firstModule = ['ensemble_core.wasm', 'ensemble_core.js'];

test('the first module stays within its Brotli budget', () => {
  let bytes = 0;
  for (const name of firstModule) {
    const file = path.join(wasmDir, `${name}.br`);
    assert.ok(fs.existsSync(file), `${file} is missing: the wasm build makes it (brotli)`);
    assert.ok(fs.statSync(file).mtimeMs >= fs.statSync(path.join(wasmDir, name)).mtimeMs,
              `${file} is older than ${name}`);
    bytes += fs.statSync(file).size;
  }
  const size = kib(bytes);
  console.log(`first module: ${size.toFixed(0)} KiB Brotli (budget ${kFirstModuleBrBudgetKiB})`);
  assert.ok(size <= kFirstModuleBrBudgetKiB,
            `the first module is ${size.toFixed(0)} KiB Brotli, over its ` +
            `${kFirstModuleBrBudgetKiB} KiB budget: move code out of it`);
});

test('no module passes its gzip budget', () => {
  const modules = fs.readdirSync(wasmDir).filter((name) => name.endsWith('.wasm'));
  assert.ok(modules.includes('ensemble_core.wasm'), `no ensemble_core.wasm in ${wasmDir}`);
  for (const name of modules) {
    const size = kib(zlib.gzipSync(fs.readFileSync(path.join(wasmDir, name)), {level: 9}).length);
    console.log(`${name}: ${size.toFixed(0)} KiB gzip (budget ${kModuleGzipBudgetKiB})`);
    assert.ok(size <= kModuleGzipBudgetKiB,
              `${name} is ${size.toFixed(0)} KiB gzipped, over the ${kModuleGzipBudgetKiB} KiB budget`);
  }
});
