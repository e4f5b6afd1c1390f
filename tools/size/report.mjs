#!/usr/bin/env node
// Where a wasm module's bytes go: the code section by area (core domain
// folders, bindings, third-party libraries), from a build linked with
// --profiling-funcs (function names kept; the shipped module has none).
//
//   node tools/size/report.mjs MODULE.wasm [--json]
//
// Prints a Markdown table (or JSON rows) of areas with their code bytes and
// share, largest first, then the module's sections.

import {readFileSync} from 'node:fs';

import {readWasm} from './wasm_sections.mjs';

// First match wins; a template instantiation is charged to the first of our
// namespaces its name mentions, else to the library it comes from.
const kAreas = [
  [/^ensemble::core::([a-z_]+)::/, (m) => `core/${m[1]}`],
  [/^(?:void |bool |int |auto )?ensemble::wasm::/, () => 'wasm bindings'],
  [/^ensemble::([a-z_]+)::/, (m) => m[1]],
  [/^sqlite3|^sqlite|^Vdbe|^btree|^pager/i, () => 'SQLite'],
  [/regex|__match_|__owns_|__state<|__node<char|__bracket_expression|__lookahead|__back_ref|__loop<|__alternate|__empty_state|__match_char/, () => 'std::regex'],
  [/^(?:\S+ )?valijson::|valijson::/, () => 'valijson'],
  [/ensemble::core::([a-z_]+)::/, (m) => `core/${m[1]}`],
  [/nlohmann::/, () => 'nlohmann::json'],
  [/^(?:\S+ )?emscripten::|^_embind|embind/, () => 'Embind'],
  [/^(?:deflate|inflate|crc32|adler32|zcalloc|zcfree|_tr_|longest_match|fill_window|updatewindow|inflate_|gz)/, () => 'zlib'],
  [/std::__2::|^std::|^operator new|^operator delete|__cxa|__cxx|__gxx|_Unwind|abi::/, () => 'libc++ / libc++abi'],
];

export function areaOf(name) {
  for (const [re, label] of kAreas) {
    const m = name.match(re);
    if (m) return label(m);
  }
  return 'C, unprefixed (SQLite statics, libc, dlmalloc)';
}

export function report(bytes) {
  const {sections, functions} = readWasm(bytes);
  const areas = new Map();
  for (const f of functions) {
    const area = areaOf(f.name);
    const a = areas.get(area) ?? {area, bytes: 0, functions: 0};
    a.bytes += f.size;
    a.functions += 1;
    areas.set(area, a);
  }
  const code = functions.reduce((n, f) => n + f.size, 0);
  const rows = [...areas.values()].sort((x, y) => y.bytes - x.bytes || (x.area < y.area ? -1 : 1));
  return {code, rows, sections, functions};
}

function main() {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: report.mjs MODULE.wasm [--json]');
    process.exit(2);
  }
  const {code, rows, sections} = report(readFileSync(file));
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({code, rows, sections}));
    return;
  }
  const kib = (n) => (n / 1024).toFixed(0);
  console.log('| Area | Code KiB | Share | Functions |');
  console.log('|---|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.area} | ${kib(r.bytes)} | ${(100 * r.bytes / code).toFixed(1)}% | ${r.functions} |`);
  }
  console.log(`| **code section** | **${kib(code)}** | 100% | |`);
  console.log('\n| Section | KiB |\n|---|---:|');
  for (const s of sections) console.log(`| ${s.name} | ${kib(s.size)} |`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
